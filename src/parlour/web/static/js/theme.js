// The header's colours picker: as the device says, light or dark. The choice is a
// cookie (parlour_theme, a year), so the server serves the next page in it from its
// first paint (<html data-theme>, server/pages.py); this page changes at once.
const COOKIE = "parlour_theme";

export function setupTheme() {
  const pick = document.getElementById("theme");
  if (!pick) return;
  pick.addEventListener("change", () => {
    document.cookie = `${COOKIE}=${pick.value}; path=/; max-age=31536000; samesite=lax`;
    document.documentElement.dataset.theme = pick.value === "auto" ? "" : pick.value;
  });
}
