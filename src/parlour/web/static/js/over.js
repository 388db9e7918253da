// The end of a game at a table: who won, the running totals, the last round's details,
// the rematch offer and the ways on. Loaded with score.js when a game ends (table.js's
// later()), so a table's first load stays light; its words come with it.
import { h } from "./dom.js";
import { list, num, t, tn } from "./i18n.js";

/** The end of the game: placings, the chart of running totals, the last round's
 * details, the rematch and the ways on (page: the table page; L: score.js's parts). */
export function gameOver(page, L) {
  const s = page.state;
  const names = (s.winners || []).map((i) => (i === s.you ? t("table.you") : s.table.seats[i].name));
  const won = s.winners && s.winners.includes(s.you);
  const lower = page.game.lowerWins ? page.game.lowerWins(s.table.rules) : false;
  const order = s.totals.map((v, i) => [v, i]).sort((a, b) => (lower ? a[0] - b[0] : b[0] - a[0]));
  const place = (v) => 1 + s.totals.filter((x) => (lower ? x < v : x > v)).length;
  return h("div", { class: "game-over panel", role: "region", "aria-label": t("table.over.label") },
    h("h2", { text: won ? t("table.over.you_win") : tn("table.over.win", names.length, { names: list(names) }) }),
    h("ol", { class: "placings" }, order.map(([v, i]) => h("li", { "data-place": place(v) },
      h("span", { class: "place", text: t(`table.place.${Math.min(place(v), 8)}`) }),
      h("span", { text: i === s.you ? t("table.you_name", { name: s.table.seats[i].name }) : s.table.seats[i].name }),
      h("span", { class: "pts", text: num(v) })))),
    L.roundChart(s, lower),
    s.finished ? h("details", { class: "last-detail" }, h("summary", { text: t("table.over.detail", { round: num(s.finished.round) }) }),
      h("div", { "data-score-detail": String(s.finished.round) }, L.scoreDetail(s, s.finished, page.game))) : null,
    rematchPanel(page),
    h("div", { class: "end-buttons" },
      h("a", { class: "button primary", href: `/replay/${page.id}`, "data-action": "replay" }, t("table.end.replay")),
      h("a", { class: "button", href: `/api/tables/${page.id}/record`, download: `parlour-${page.id}.json`, "data-action": "record" }, t("table.end.record")),
      h("a", { class: "button", href: `/verify#table=${page.id}`, "data-action": "verify" }, t("table.end.verify")),
      h("a", { class: "button", href: "/", "data-action": "home" }, t("table.end.home"))));
}

function rematchPanel(page) {
  const s = page.state;
  const offer = s.rematch_offer;
  if (page.rematchLink) return h("p", {}, h("a", { class: "button", href: page.rematchLink, "data-action": "watch-rematch" }, t("table.rematch.watch")));
  if (!offer) {
    return s.you !== null ? h("button", { type: "button", class: "primary", "data-action": "rematch", onclick: () => page.send({ type: "rematch" }) }, t("table.rematch.offer")) : null;
  }
  const seatsT = s.table.seats;
  const word = { yes: t("table.rematch.accepted"), no: t("table.rematch.declined"), bot: t("table.rematch.bot") };
  const mine = s.you !== null ? offer.answers[s.you] : undefined;
  const list = h("ul", { class: "rematch-answers" }, seatsT.map((x, i) => h("li", { "data-answer": offer.answers[i] || "waiting",
    text: t("table.rematch.answer", { name: x.name, answer: word[offer.answers[i]] || t(offer.status === "open" ? "table.rematch.deciding" : "table.rematch.no_answer") }) })));
  const host = s.you === s.table.host;
  return h("div", { class: "rematch panel", role: "region", "aria-label": t("table.rematch.label") },
    h("h3", { text: offer.by === s.you ? t("table.rematch.you_offered") : t("table.rematch.offers", { name: seatsT[offer.by].name }) }),
    list,
    offer.status === "open" && s.you !== null && !mine ? h("div", { class: "end-buttons" },
      h("button", { type: "button", class: "primary", "data-action": "rematch-accept", onclick: () => page.send({ type: "rematch_answer", accept: true }) }, t("table.rematch.accept")),
      h("button", { type: "button", "data-action": "rematch-decline", onclick: () => page.send({ type: "rematch_answer", accept: false }) }, t("table.rematch.decline"))) : null,
    offer.status === "open" && host && mine === "yes" && offer.answers.some((a) => a === "no" || a === null) ? h("div", { class: "end-buttons" },
      h("span", { text: t("table.rematch.fill") + " " }),
      h("button", { type: "button", "data-action": "rematch-fill-bot", onclick: () => page.send({ type: "rematch_fill", with: "bot" }) }, t("table.rematch.fill_bot")),
      h("button", { type: "button", "data-action": "rematch-fill-open", onclick: () => page.send({ type: "rematch_fill", with: "open" }) }, t("table.rematch.fill_open"))) : null,
    offer.status === "declined" ? h("p", { text: t("table.rematch.no") }) : null);
}
