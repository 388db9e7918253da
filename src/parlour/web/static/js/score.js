// The itemised score of a finished round (the engine's Round.score_detail(), one
// explanation used by the page, the terminal and the replay) with every hand revealed,
// and the end screen's chart of running totals per round.
import { cardEl, cardName } from "./cards.js";
import { itemWords, lineWords } from "./gamewords.js";
import { h } from "./dom.js";
import { num, t, tn } from "./i18n.js";

/** The engine says "Seat N" (it knows no names): put the table's names in. */
export function withNames(text, names) {
  return String(text || "").replace(/\bSeat (\d+)\b/g, (m, n) => names[Number(n)] ?? m);
}

function sign(v, chips) { return chips && v > 0 ? "+" + num(v) : num(v); }

export function scoreDetail(state, finished, gameModule) {
  const game = state.table.game;
  const names = state.table.seats.map((s, i) => (i === state.you ? t("table.you") : s.name));
  const d = finished.detail;
  if (!d) {
    const row = state.scores[finished.round - 1] || [];
    return h("p", { text: row.map((v, i) => t("score.line", { name: names[i], points: num(v) })).join(" · ") });
  }
  const chips = !!d.chips;
  const named = (code) => cardName(game, code);
  const seatsBox = h("div", { class: "detail-seats" }, d.seats.map((entry) => {
    const cardsHeld = entry.hand || entry.pile || null;
    const label = entry.hand ? t(entry.hand.length ? "score.in_hand" : "score.went_out") : entry.pile ? t("score.collected", { count: num(entry.pile.length) }) : "";
    return h("section", { class: `detail-seat${entry.seat === state.you ? " me" : ""}`, "data-detail-seat": entry.seat },
      h("h3", {}, h("span", { text: names[entry.seat] }), h("span", { class: "total", text: sign(entry.total, chips) })),
      h("table", { class: "items" }, h("tbody", {}, entry.items.map((it) => {
        const w = itemWords(it, named, names);
        return h("tr", {},
          h("th", { scope: "row", text: withNames(w.what, names) }),
          h("td", { class: "detail", text: withNames(w.detail, names) }),
          h("td", { class: "pts", text: sign(it.points, chips) }));
      }))),
      cardsHeld ? h("details", { class: "revealed", open: entry.hand ? true : null },
        h("summary", { text: label }),
        h("div", { class: "card-row" }, cardsHeld.map((c) => cardEl(game, c, { cls: "tiny" })))) : null);
  }));
  const notes = (d.notes || []).map((n) => h("p", { class: "note", text: withNames(lineWords(n, n.text, named, names), names) + "." }));
  const pay = chips && d.chips.payments && d.chips.payments.length ? h("details", { class: "payments" },
    h("summary", { text: tn("score.payments", d.chips.payments.length, { pot: num(d.chips.pot) }) }),
    h("ul", {}, d.chips.payments.map((p) => h("li", { text: tn("score.pays", p.chips,
      { from: names[p.from], to: names[p.to], why: withNames(lineWords(p, p.what, named, names), names) }) })))) : null;
  return h("div", { class: "score-detail" }, notes, seatsBox, pay);
}

/** Running totals per seat after each round, as a small SVG line chart. */
export function roundChart(state, lower) {
  const rows = state.scores || [];
  if (!rows.length) return null;
  const n = state.table.seats.length;
  const running = Array.from({ length: n }, () => [0]);
  rows.forEach((row) => row.forEach((v, i) => running[i].push(running[i][running[i].length - 1] + v)));
  const all = running.flat();
  const lo = Math.min(...all), hi = Math.max(...all, lo + 1);
  const W = 320, H = 150, P = 26;
  const x = (k) => P + (k * (W - 2 * P)) / Math.max(1, rows.length);
  const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo);
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => { const e = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); return e; };
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": t(lower ? "score.chart.lower" : "score.chart.higher") });
  svg.append(el("line", { x1: P, y1: H - P, x2: W - P, y2: H - P, class: "axis" }));
  running.forEach((pts, i) => {
    svg.append(el("polyline", { points: pts.map((v, k) => `${x(k)},${y(v)}`).join(" "), class: `line c${i}` }));
  });
  // The totals are words beside each name, not numbers drawn at the lines' ends: close
  // totals drawn there fell on each other on a phone, and text in a drawing has no
  // background a contrast check can read.
  const legend = h("ul", { class: "legend" }, state.table.seats.map((s, i) => h("li", { class: `c${i}`, "data-total": running[i][running[i].length - 1] },
    h("span", { class: "swatch", "aria-hidden": "true" }), t("score.line", { name: s.name, points: num(running[i][running[i].length - 1]) }))));
  return h("figure", { class: "round-chart" }, svg, legend,
    h("figcaption", { class: "muted", text: t(lower ? "score.caption.lower" : "score.caption.higher") }));
}
