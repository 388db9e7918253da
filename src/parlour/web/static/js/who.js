// Who you are, on every page: this browser's player (GET /api/me, once a page), the
// header's link to the account page, and a table's seat taken back without the link.
// The account page itself (account.js) is loaded only at /account.
import { api, h, seats } from "./dom.js";
import { t } from "./i18n.js";

let current = null;

/** This browser's player (GET /api/me), fetched once a page. */
export async function whoAmI(fresh = false) {
  if (!current || fresh) {
    try { current = await api("/api/me"); } catch { current = { name: "", guest: true, known: false, ratings: {} }; }
  }
  return current;
}

/** The header's link to the account page, with your name when you are signed in. */
export async function setupAccount() {
  const tools = document.querySelector(".bar-tools");
  if (!tools || document.getElementById("who")) return;
  const link = h("a", { id: "who", class: "tool button", href: "/account", "data-action": "account", text: t("account.sign_in") });
  tools.prepend(link);
  const me = await whoAmI();
  if (!me.guest) link.textContent = me.name;
  else if (me.name) link.textContent = t("account.guest_name", { name: me.name });
}

/** A table page without a token in this browser: the seat of the signed-in player (or
 *  of this browser's guest), taken back without the link. Returns the seat or null. */
export async function seatOfMine(id) {
  try {
    const j = await api(`/api/tables/${id}/rejoin`, { method: "POST", body: {} });
    seats.set(id, { token: j.token, seat: j.seat, rejoin: j.rejoin_url || null });
    return j;
  } catch {
    return null;
  }
}
