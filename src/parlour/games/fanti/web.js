// Fanti at the table: the table cards, the deck, the collected piles, and the
// collection picker (FA-5, FA-6): choose a card, its legal collections light up,
// choose one, confirm; undo only before confirming; a single way is preselected.
import { cardEl, cardName, listNames, registerLook, sortHand, SYMBOL } from "../cards.js";
import { h, svgUse } from "../dom.js";
import { cardStyle, catalogName } from "../gamewords.js";
import { has, lang, list, num, tg, tgn } from "../i18n.js";
import { words } from "./fanti/words.js";

// The page's words at a Fanti table are the "game" catalog's fanti.page.* (this game's
// words only reach a table of this game: server/pages.py).
const P = (key, params) => tg(`fanti.page.${key}`, params);
const PN = (key, count, params) => tgn(`fanti.page.${key}`, count, params);

// Fanti's own card names (FA-1): Guardian = J, Mystic = Q, Scout = K, Leaf = clubs,
// Star = diamonds.
const FACE = { J: "Guardian", Q: "Mystic", K: "Scout" };
const LETTER = { J: "G", Q: "M", K: "S" };
const SUIT = { C: "Leaf", D: "Star", H: "hearts", S: "spades" };
// The word under a face card's letter: the game's own name, in the page's language.
const FACE_WORD = Object.fromEntries(Object.entries(FACE).map(([r, en]) =>
  [r, has(`card.rank.${r}.game`, "game") ? tg(`card.rank.${r}.game`) : en]));
registerLook("fanti", {
  cardName(rank, suit) {
    const named = catalogName(rank, suit);  // the player's style and language (FA-1)
    if (named) return named;
    if (FACE[rank]) return `${FACE[rank]} of ${SUIT[suit]}`;
    const r = rank === "A" ? "Ace" : rank;
    return suit === "C" || suit === "D" ? `${SUIT[suit]} ${r}` : `${r} of ${SUIT[suit]}`;
  },
  shortName(rank, suit) {
    const r = LETTER[rank] || rank;
    return suit === "C" ? `${r} Leaf` : suit === "D" ? `${r}★` : r + SYMBOL[suit];
  },
  letter: LETTER,
  faceWord: FACE_WORD,
  suitMark(suit) {
    return suit === "C" ? { svg: "leaf" } : suit === "D" ? { text: "★" } : null;
  },
});

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
    h("div", { class: "deck-pile", role: "img", "aria-label": PN("deck_label", v.deck_left) },
      v.deck_left ? h("div", { class: "card back", "aria-hidden": "true" }) : h("div", { class: "slot", "aria-hidden": "true" }),
      h("span", { class: "deck-count", "aria-hidden": "true", text: P("deck_count", { count: num(v.deck_left) }) })),
    h("div", { class: "fanti-table", role: "group", "aria-label": v.table.length ? P("on_table", { cards: listNames("fanti", v.table) }) : P("empty") },
      tableCards.length ? tableCards : h("p", { class: "empty", text: P("empty") })));
}

export function seatExtras(state, i) {
  const v = state.view;
  const pile = v.piles[i];
  const marks = [];
  if (pile.includes("2C")) marks.push(cardName("fanti", "2C"));
  if (pile.includes("10D")) marks.push(cardName("fanti", "10D"));
  const leaf = tg(`fanti.table.leaves.${cardStyle()}`);
  return [
    h("span", { class: "stat", text: P("collected", { count: num(v.pile_counts[i]) }) }),
    h("span", { class: "stat leaf", title: P("leaves.title", { leaf }) }, svgUse("leaf", "leaf"), " " + P("leaves", { count: num(v.leaf_counts[i]), leaf })),
    marks.length ? h("span", { class: "stat special", title: P("specials.title"), text: P("has", { cards: list(marks) }) }) : null,
  ];
}

export function statusExtras(state) {
  return [h("span", { class: "pot", text: tgn("fanti.table.deck", state.view.deck_left) })];
}

export function hand(ctx) {
  const { state, ui } = ctx;
  const v = state.view;
  const myTurn = v.current_player === state.you && state.table.status === "playing";
  const legal = new Set(v.legal.map((m) => m.play));
  return sortHand(v.hand).map((code) => cardEl("fanti", code, {
    legal: myTurn && legal.has(code),
    reason: myTurn ? state.reasons[code] : ctx.notNow(),
    pressed: ui.selected === code,
    cls: `${ui.selected === code ? "selected" : ""}${ui.hint === code ? " hinted" : ""}`,
    onClick: () => {
      if (!myTurn || !legal.has(code)) { ctx.explain(code, myTurn ? state.reasons[code] : ctx.notNow()); return; }
      const opts = optionsFor(v, code);
      ui.selected = code;
      ui.choice = opts.length === 1 ? opts[0] : null;
      ctx.rerender("[data-action=confirm]");
    },
  }));
}

function describeOption(m) {
  return m.take.length ? P("option.collect", { cards: listNames("fanti", m.take) }) : P("option.discard");
}

export function actions(ctx) {
  const { state, ui } = ctx;
  const v = state.view;
  if (!ui.selected || v.current_player !== state.you) return [];
  const opts = optionsFor(v, ui.selected);
  if (!opts.length) return [];
  const sameTake = (a, b) => a && b && a.take.join() === b.take.join();
  const picker = h("div", { class: "picker", role: "group", "aria-label": P("play", { card: cardName("fanti", ui.selected) }) },
    h("p", { class: "picker-title", text: opts.length > 1
      ? PN("ways", opts.length, { card: cardName("fanti", ui.selected) })
      : opts[0].take.length ? P("will_collect", { card: cardName("fanti", ui.selected), cards: listNames("fanti", opts[0].take) })
        : P("will_discard", { card: cardName("fanti", ui.selected) }) }),
    opts.length > 1 ? h("div", { class: "options" }, opts.map((m) => h("button", {
      type: "button", class: `option${sameTake(m, ui.choice) ? " chosen" : ""}`,
      "data-take": m.take.join(","), "aria-pressed": sameTake(m, ui.choice) ? "true" : "false",
      onclick: () => { ui.choice = m; ctx.rerender("[data-action=confirm]"); },
    }, m.take.length ? m.take.map((c) => cardEl("fanti", c, { cls: "tiny", decor: true })) : P("discard"),
    m.take.length ? h("span", { class: "sr-only", text: describeOption(m) }) : null))) : null,
    h("div", { class: "picker-buttons" },
      h("button", { type: "button", class: "primary", "data-action": "confirm", disabled: !ui.choice,
        onclick: () => { if (ui.choice) { const m = ui.choice; ui.selected = null; ui.choice = null; ctx.play(m); } } },
      P("confirm")),
      h("button", { type: "button", "data-action": "undo",
        onclick: () => { ui.selected = null; ui.choice = null; ctx.rerender(); } }, P("undo"))));
  return [picker];
}

// --- words for the lobby and the "How to play" page --------------------------------

export { summary, words } from "./fanti/words.js";

const row = (codes, cls = "small") => h("span", { class: "card-row" }, codes.map((c) => cardEl("fanti", c, { cls })));
const plus = (...parts) => h("div", { class: "eq" }, ...parts);

// The rules page's words are the "game" catalog's (rules.fanti.*), with the card names
// of the player's style and language put in ({guardian}, {leaf2}...), as the terminal's.
function ruleWords() {
  const style = cardStyle();
  const rank = (r) => tg(`card.rank.${r}.${style}`);
  const p = { guardian: rank("J"), mystic: rank("Q"), scout: rank("K"),
    leaf: tg(`card.suit.clubs.${style}`), star: tg(`card.suit.diamonds.${style}`) };
  for (const code of ["2C", "10D", "6D"]) p[`c${code}`] = cardName("fanti", code);
  return (key, extra) => tg(`rules.fanti.${key}`, { ...p, ...extra });
}

export function howToPlay() {
  const R = ruleWords();
  const classic = cardStyle() === "classic";
  const caption = (code, r) => classic ? cardName("fanti", code)
    : `${cardName("fanti", code)} (${r ? tg(`card.rank.${r}.classic`) : tg(`card.suit.${code.endsWith("C") ? "clubs" : "diamonds"}.classic`)})`;
  const most = (key) => tg(`fanti.score.${key}.what`);
  return [
    h("h1", { text: R("title") }),
    h("p", { class: "lead", text: R(classic ? "lead.classic" : "lead.game") }),
    h("h2", { text: R("cards") }),
    h("div", { class: "steps" },
      h("div", {}, row(["JH"]), h("small", { text: caption("JH", "J") })),
      h("div", {}, row(["QS"]), h("small", { text: caption("QS", "Q") })),
      h("div", {}, row(["KD"]), h("small", { text: caption("KD", "K") })),
      h("div", {}, row(["5C"]), h("small", { text: caption("5C") })),
      h("div", {}, row(["10D"]), h("small", { text: caption("10D") }))),
    h("p", { text: R("values") }),
    h("h2", { text: R("deal") }),
    h("p", { text: R("deal.text") }),
    h("h2", { text: R("collecting") }),
    h("p", { text: R("collecting.text") }),
    h("ul", {},
      h("li", { text: R("rule.number") }),
      h("li", { text: R("rule.ace") }),
      h("li", { text: R("rule.scout") }),
      h("li", { text: R("rule.guardian") }),
      h("li", { text: R("rule.nothing") })),
    h("figure", { class: "example" },
      plus(row(["5H"]), h("span", { text: R("played_on_table") }), row(["2C", "4H", "6D", "9S"])),
      plus(h("span", { text: R("takes") }), row(["2C", "4H"]), h("span", { text: R("ex1.or") }), row(["6D"]), h("span", { text: "(5 + 6 = 11)" })),
      h("figcaption", { text: R("ex1.caption") })),
    h("figure", { class: "example" },
      plus(row(["AS"]), h("span", { text: R("played_on_table") }), row(["AD", "3H", "7C"])),
      plus(h("span", { text: R("takes") }), row(["AD"]), h("span", { text: R("ex2.or") }), row(["3H", "7C"]), h("span", { text: "(1 + 3 + 7 = 11)" })),
      h("figcaption", { text: R("ex2.caption") })),
    h("figure", { class: "example" },
      plus(row(["KH"]), h("span", { text: R("takes") }), row(["KC"]), h("span", { text: R("and") }), row(["QD"]), h("span", { text: R("takes") }), row(["QS"])),
      h("figcaption", { text: R("ex3.caption") })),
    h("figure", { class: "example" },
      plus(row(["JS"]), h("span", { text: R("played_on_table") }), row(["3D", "JC", "KH", "9C", "QH"])),
      plus(h("span", { text: R("sweeps") }), row(["3D", "JC", "9C"]), h("span", { text: R("leaves") }), row(["KH", "QH"])),
      h("figcaption", { text: R("ex4.caption") })),
    h("h2", { text: R("last") }),
    h("figure", { class: "example" },
      plus(h("span", { text: R("ex5.still") }), row(["4S", "8H"])),
      h("figcaption", { text: R("ex5.caption") })),
    h("h2", { text: R("scoring") }),
    h("table", { class: "sheet" },
      h("tbody", {}, [[most("most_cards"), 2], [most(`most_leaves.${cardStyle()}`), 1],
        [cardName("fanti", "2C"), 1], [cardName("fanti", "10D"), 1]].map(([what, n]) =>
        h("tr", {}, h("td", { text: what }), h("td", { text: tgn("rules.fanti.points", n) }))))),
    h("p", { text: R("tie") }),
    h("h2", { text: R("game") }),
    h("p", { text: R("game.text") }),
    h("h2", { text: R("options") }),
    h("dl", { class: "options-list" }, Object.values(words.options).flatMap((o) => [
      h("dt", { text: o.label }),
      h("dd", {}, o.help, o.choices ? h("ul", {}, Object.values(o.choices).map((c) => h("li", { text: c }))) : null),
    ])),
    h("p", { class: "muted", text: R("rulings") }),
  ];
}

/** A one-line tip for a first game: what the chosen card can collect. */
export function tip(state, ui) {
  const v = state.view;
  if (!v || v.current_player !== state.you) return "";
  const code = ui.selected;
  if (code) {
    const opts = v.legal.filter((m) => m.play === code && m.take.length);
    // Two ways or more: the choice panel already says so and lists them (said once).
    if (opts.length > 1) return "";
    const either = new Intl.ListFormat(lang, { type: "disjunction" });
    return opts.length ? P("tip.collect", { options: either.format(opts.map((m) => listNames("fanti", m.take))) }) : P("tip.nothing");
  }
  const n = new Set(v.legal.filter((m) => m.take.length).map((m) => m.play)).size;
  return n ? PN("tip.count", n) : P("tip.none");
}

/** A Guardian collecting is a sweep (FA-5): the page animates it as one. */
export function isSweep(event) {
  return !!(event && event.move && event.move.play && event.move.play[0] === "J" && (event.move.take || []).length);
}

/** Said after a card that collected nothing (the last move's line). */
export function discardWord() { return P("stays"); }

export function lowerWins() { return false; }
