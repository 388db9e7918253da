// The score sheet (per round, with totals) and the deal commitments: each revealed
// round is re-hashed here, SHA-256(salt + ":" + deck), and compared with the
// commitment published at the deal.
import { h } from "./dom.js";
import { num, t } from "./i18n.js";

const verified = new Map();

async function sha256hex(text) {
  const bytes = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function checkReveal(r) {
  const key = r.commit + r.salt;
  if (verified.has(key)) return verified.get(key);
  let ok = null;
  if (globalThis.crypto && crypto.subtle) {
    ok = (await sha256hex(r.salt + ":" + r.deck.join(","))) === r.commit;
  } else {
    const res = await fetch("/api/verify", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rounds: [{ commit: r.commit, salt: r.salt, deck: r.deck }] }) });
    ok = (await res.json()).rounds[0].status === "ok";
  }
  verified.set(key, ok);
  return ok;
}

export function scoreSheet(state, onVerified) {
  const seats = state.table.seats;
  const { lower_wins: lower, signed } = state.table.scoring;  // from the game (server/views.py)
  const sign = (v) => (signed && v > 0 ? "+" + num(v) : num(v));
  const table = h("table", { class: `sheet${seats.length > 4 ? " wide" : ""}` },
    h("caption", { text: t(lower ? "sheet.caption.lower" : signed ? "sheet.caption.chips" : "sheet.caption.higher") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("sheet.round") }),
      seats.map((s, i) => h("th", { scope: "col", class: i === state.you ? "me" : "", text: s.name })),
      h("th", { scope: "col", text: t("sheet.deal") }))),
    h("tbody", {}, state.scores.map((row, k) => {
      const rev = state.revealed.find((r) => r.round === k + 1);
      const cell = h("td", { class: "deal-check", text: rev ? t("sheet.checking") : "—" });
      if (rev) {
        checkReveal(rev).then((ok) => {
          cell.textContent = t(ok ? "sheet.verified" : "sheet.mismatch");
          cell.className = ok ? "deal-check ok" : "deal-check bad";
          cell.title = `commit ${rev.commit}\nsalt ${rev.salt}`;
          if (onVerified) onVerified(k + 1, ok);
        });
      }
      return h("tr", {}, h("th", { scope: "row", text: num(k + 1) }), row.map((v) => h("td", { text: sign(v) })), cell);
    })),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: t("sheet.total") }),
      state.totals.map((v, i) => h("td", { class: state.winners && state.winners.includes(i) ? "win" : "", text: sign(v) })),
      h("td"))));
  return table;
}
