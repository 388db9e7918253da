// Fanti at the table: the table cards, the deck, the collected piles, and the
// collection picker (FA-5, FA-6): choose a card, its legal collections light up,
// choose one, confirm; undo only before confirming; a single way is preselected.
import { cardEl, cardName, listNames, sortHand } from "../cards.js";
import { h, svgUse } from "../dom.js";

function optionsFor(v, code) {
  return v.legal.filter((m) => m.play === code);
}

export function center(ctx) {
  const { state, ui } = ctx;
  const v = state.view;
  const opts = ui.selected ? optionsFor(v, ui.selected) : [];
  const canTake = new Set(opts.flatMap((m) => m.take));
  const chosen = new Set(ui.choice ? ui.choice.take : []);
  const tableCards = v.table.map((code) => cardEl("fanti", code, {
    cls: `${canTake.has(code) ? "can-take" : ""}${chosen.has(code) ? " lit" : ""}`,
  }));
  return h("div", { class: "fanti-center" },
    h("div", { class: "deck-pile", role: "img", "aria-label": `${v.deck_left} cards left in the deck` },
      v.deck_left ? h("div", { class: "card back", "aria-hidden": "true" }) : h("div", { class: "slot", "aria-hidden": "true" }),
      h("span", { class: "deck-count", "aria-hidden": "true", text: `Deck ${v.deck_left}` })),
    h("div", { class: "fanti-table", role: "group", "aria-label": v.table.length ? `On the table: ${listNames("fanti", v.table)}` : "The table is empty" },
      tableCards.length ? tableCards : h("p", { class: "empty", text: "The table is empty" })));
}

export function seatExtras(state, i) {
  const v = state.view;
  const pile = v.piles[i];
  const marks = [];
  if (pile.includes("2C")) marks.push("Leaf 2");
  if (pile.includes("10D")) marks.push("Star 10");
  return [
    h("span", { class: "stat", text: `collected ${v.pile_counts[i]}` }),
    h("span", { class: "stat leaf", title: "Leaf (clubs) cards collected" }, svgUse("leaf", "leaf"), ` ${v.leaf_counts[i]} Leaf`),
    marks.length ? h("span", { class: "stat special", title: "Special cards collected (FA-9)", text: `has ${marks.join(" and ")}` }) : null,
  ];
}

export function statusExtras(state) {
  return [h("span", { class: "pot", text: `Deck: ${state.view.deck_left} left` })];
}

export function hand(ctx) {
  const { state, ui } = ctx;
  const v = state.view;
  const myTurn = v.current_player === state.you && state.table.status === "playing";
  const legal = new Set(v.legal.map((m) => m.play));
  return sortHand(v.hand).map((code) => cardEl("fanti", code, {
    legal: myTurn && legal.has(code),
    reason: myTurn ? state.reasons[code] : "it is not your turn",
    pressed: ui.selected === code,
    cls: `${ui.selected === code ? "selected" : ""}${ui.hint === code ? " hinted" : ""}`,
    onClick: () => {
      if (!myTurn || !legal.has(code)) return;
      const opts = optionsFor(v, code);
      ui.selected = code;
      ui.choice = opts.length === 1 ? opts[0] : null;
      ctx.rerender("[data-action=confirm]");
    },
  }));
}

function describeOption(m) {
  return m.take.length ? `collect ${listNames("fanti", m.take)}` : "discard it to the table (it collects nothing)";
}

export function actions(ctx) {
  const { state, ui } = ctx;
  const v = state.view;
  if (!ui.selected || v.current_player !== state.you) return [];
  const opts = optionsFor(v, ui.selected);
  if (!opts.length) return [];
  const sameTake = (a, b) => a && b && a.take.join() === b.take.join();
  const picker = h("div", { class: "picker", role: "group", "aria-label": `Play ${cardName("fanti", ui.selected)}` },
    h("p", { class: "picker-title", text: opts.length > 1
      ? `${cardName("fanti", ui.selected)} can collect in ${opts.length} ways: choose one.`
      : `${cardName("fanti", ui.selected)} will ${describeOption(opts[0])}.` }),
    opts.length > 1 ? h("div", { class: "options" }, opts.map((m) => h("button", {
      type: "button", class: `option${sameTake(m, ui.choice) ? " chosen" : ""}`,
      "data-take": m.take.join(","), "aria-pressed": sameTake(m, ui.choice) ? "true" : "false",
      onclick: () => { ui.choice = m; ctx.rerender("[data-action=confirm]"); },
    }, m.take.length ? m.take.map((c) => cardEl("fanti", c, { cls: "tiny" })) : "discard",
    h("span", { class: "sr-only", text: describeOption(m) })))) : null,
    h("div", { class: "picker-buttons" },
      h("button", { type: "button", class: "primary", "data-action": "confirm", disabled: !ui.choice,
        onclick: () => { if (ui.choice) { const m = ui.choice; ui.selected = null; ui.choice = null; ctx.play(m); } } },
      "Confirm"),
      h("button", { type: "button", "data-action": "undo",
        onclick: () => { ui.selected = null; ui.choice = null; ctx.rerender(); } }, "Undo")));
  return [picker];
}
