// Fan Tan at the table: four rows growing out from the 7s (FT-2), the hand with its
// legal cards lit, and the Pass button when passing is allowed (FT-5, FT-8).
import { cardEl, cardName, rankOrder, sortHand, SUITS } from "../cards.js";
import { h } from "../dom.js";

const SUIT_LABEL = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };
const SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function center(ctx) {
  const { view } = ctx.state;
  const aceHigh = view.rules.ace === "high";
  const order = rankOrder(aceHigh);
  const rows = h("div", { class: "rows", role: "group", "aria-label": "The four rows" });
  for (const suit of SUITS) {
    const run = view.rows[suit];
    const label = run.length ? `${SUIT_LABEL[suit]}: ${cardName("fantan", run[0])} to ${cardName("fantan", run[run.length - 1])}` : `${SUIT_LABEL[suit]}: not started`;
    const row = h("div", { class: `row s-${suit}`, role: "img", "aria-label": label },
      h("span", { class: "row-suit", "aria-hidden": "true", text: SYMBOL[suit] }));
    const slots = h("div", { class: "slots", "aria-hidden": "true" });
    for (const rank of order) {
      const code = rank + suit;
      if (run.includes(code)) slots.append(cardEl("fantan", code, { cls: "small" }));
      else slots.append(h("div", { class: `slot${rank === "7" ? " seven" : ""}`, text: rank === "7" ? "7" : "" }));
    }
    row.append(slots);
    rows.append(row);
  }
  return rows;
}

export function seatExtras(state, i) {
  const v = state.view;
  const out = [h("span", { class: "stat", text: `${v.passes[i]} pass${v.passes[i] === 1 ? "" : "es"}` })];
  if (state.table.rules.stakes === "chips") {
    const t = state.totals[i];
    out.push(h("span", { class: "stat chips", text: `${t > 0 ? "+" : ""}${t} chips` }));
  }
  return out;
}

export function statusExtras(state) {
  if (state.table.rules.stakes === "chips" && state.pot !== undefined) {
    return [h("span", { class: "pot", text: `Pot: ${state.pot} chips` })];
  }
  return [];
}

export function hand(ctx) {
  const { state } = ctx;
  const v = state.view;
  const myTurn = v.current_player === state.you && state.table.status === "playing";
  const legal = new Set(v.legal.filter((m) => m.play).map((m) => m.play));
  const cards = sortHand(v.hand, v.rules.ace === "high").map((code) =>
    cardEl("fantan", code, {
      legal: myTurn && legal.has(code),
      reason: myTurn ? state.reasons[code] : "it is not your turn",
      cls: ctx.ui.hint === code ? "hinted" : "",
      onClick: () => { if (myTurn && legal.has(code)) ctx.play({ play: code }); },
    }));
  return cards;
}

export function actions(ctx) {
  const { state } = ctx;
  const v = state.view;
  const out = [];
  const myTurn = v.current_player === state.you;
  if (myTurn && v.legal.length === 1 && v.legal[0].pass && state.pass && state.pass.auto) {
    out.push(h("p", { class: "notice", text: "Nothing in your hand fits: the table passes for you." }));
    return out;
  }
  if (state.pass) {
    out.push(h("button", { type: "button", class: state.pass.withholding ? "warn" : "", "data-action": "pass",
      title: state.pass.text, "aria-describedby": "pass-fine",
      onclick: () => ctx.play({ pass: true }) }, "Pass"),
    h("small", { id: "pass-fine", class: "fine", text: state.pass.text }));
  }
  return out;
}

export { backs } from "../cards.js";
