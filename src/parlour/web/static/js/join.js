// The form an invite link opens: the table's seats, a name, and "Take a seat". Loaded
// only by an invite link (table.js), so a table's own first load stays light.
import { api, clear, h, seats } from "./dom.js";
import { num, t } from "./i18n.js";
import { levelName } from "./words.js";

/** Ask for a name, then sit (sit(auth): the table page with the seat's or watcher's key). */
export async function joinDialog(app, id, key, sit) {
  let info = null;
  try { info = await api(`/api/tables/${id}`); } catch (e) {
    clear(app).append(h("p", { class: "error", role: "alert", text: e.message }));
    return;
  }
  const name = h("input", { id: "join-name", maxlength: 24, value: localStorage.getItem("parlour.name") || "", autocomplete: "nickname" });
  const error = h("p", { class: "error", role: "alert" });
  const free = info.seats.some((s) => s.kind === "person" && (!s.claimed || s.open));
  const form = h("form", { class: "panel join" },
    h("h1", { text: t("table.join.title", { game: info.title }) }),
    h("ul", { class: "seat-list" }, info.seats.map((s, i) => h("li", { text: t("table.join.seat", { seat: num(i + 1), who:
      s.kind === "bot" ? t("table.join.computer", { level: levelName(s.bot) }) : s.open ? t("table.join.open") : s.claimed ? s.name : t("table.join.free") }) }))),
    free ? null : h("p", { text: t("table.join.full") }),
    h("div", { class: "field" }, h("label", { for: "join-name", text: t("table.join.name") }), name),
    error, h("button", { type: "submit", class: "primary", "data-action": "join", text: t("table.join.take") }));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const j = await api(`/api/tables/${id}/join`, { method: "POST", body: { key, name: name.value.trim() } });
      localStorage.setItem("parlour.name", name.value.trim());
      if (j.role === "seat") seats.set(id, { token: j.token, seat: j.seat, rejoin: j.rejoin_url || null });
      history.replaceState(null, "", `/t/${id}`);
      sit(j.role === "seat" ? { token: j.token } : { watch: j.watch });
    } catch (e) { error.textContent = e.message; }
  });
  clear(app).append(form);
  name.focus();
}
