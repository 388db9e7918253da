// Cards as the page shows them. Codes are the record's ("7D", "10H"). A game that
// names its cards its own way (Fanti: Guardian, Mystic, Scout, Leaf, Star -- FA-1)
// registers a "look" from its page module (games/NAME/web.js) with registerLook;
// every other game gets the standard names and suit symbols.
import { h, svgUse } from "./dom.js";
import { catalogName } from "./gamewords.js";
import { t } from "./i18n.js";

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAME = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
const LOOKS = {};

/**
 * Register how `game` shows its cards. Every field is optional:
 * cardName(rank, suit), shortName(rank, suit), letter {rank: corner letter},
 * faceWord {rank: word under a face card's letter}, suitMark(suit) -> {svg} | {text} | null.
 */
export function registerLook(game, look) {
  LOOKS[game] = look;
}

function lookOf(game) {
  return LOOKS[game] || {};
}

export function split(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

/** The card's name for people and screen readers. */
export function cardName(game, code) {
  const { rank, suit } = split(code);
  const look = lookOf(game);
  if (look.cardName) return look.cardName(rank, suit);
  // a game without names of its own: the classic names, in the page's language
  return catalogName(rank, suit, "classic") || `${RANK_NAME[rank] || rank} of ${SUIT_NAME[suit]}`;
}

/** A short text label: "7♦", or Fanti's "G★", "5 Leaf". */
export function shortName(game, code) {
  const { rank, suit } = split(code);
  const look = lookOf(game);
  if (look.shortName) return look.shortName(rank, suit);
  return rank + SYMBOL[suit];
}

export function listNames(game, codes) {
  return codes.map((c) => cardName(game, c)).join(", ");
}

function suitMark(game, suit, cls, drawn = false) {
  const look = lookOf(game);
  const mark = look.suitMark ? look.suitMark(suit) : null;
  if (mark && mark.svg) return h("span", { class: cls }, svgUse(mark.svg, mark.svg));
  const text = mark && mark.text ? mark.text : SYMBOL[suit];
  return drawn ? h("span", { class: cls, "data-t": text }) : h("span", { class: cls, text });
}

/** The text a card shows in its top corner ("7♣", "G★", "5" beside a Leaf). */
export function cornerText(game, code) {
  const { rank, suit } = split(code);
  const look = lookOf(game);
  const mark = look.suitMark ? look.suitMark(suit) : null;
  const label = (look.letter && look.letter[rank]) || rank;
  return label + (mark && mark.svg ? "" : mark && mark.text ? mark.text : SYMBOL[suit]);
}

/**
 * A face-up card. With `onClick` it is a button (a card in the player's own hand or a
 * choice); `legal` false disables it and `reason` says why (the engine's words).
 */
export function cardEl(game, code, opts = {}) {
  const { rank, suit } = split(code);
  const look = lookOf(game);
  const label = (look.letter && look.letter[rank]) || rank;
  const face = ["J", "Q", "K"].includes(rank);
  const tag = opts.onClick ? "button" : "div";
  const attrs = {
    class: `card s-${suit}${face ? " face" : ""}${opts.cls ? " " + opts.cls : ""}`,
    "data-card": code,
  };
  // The name begins with what the card shows (WCAG 2.5.3): "7♣, 7 of clubs". Only the top
  // corner is text; the other corner and the middle are drawn from data-t by the style
  // sheet, so the visible text is that corner alone.
  const name = `${cornerText(game, code)}, ${cardName(game, code)}`;
  if (opts.decor) {
    attrs["aria-hidden"] = "true";
  } else if (tag === "button") {
    attrs.type = "button";
    attrs.onclick = opts.onClick;
    attrs["data-legal"] = opts.legal ? "true" : "false";
    if (!opts.legal) {
      attrs["aria-disabled"] = "true";
      attrs.title = opts.reason || t("notnow.not_your_turn");
      attrs["aria-label"] = t("table.card.not_playable", { name, reason: opts.reason || t("notnow.not_your_turn") });
    } else {
      attrs["aria-label"] = name;
      attrs.title = opts.title || cardName(game, code);
    }
    if (opts.pressed !== undefined) attrs["aria-pressed"] = opts.pressed ? "true" : "false";
  } else {
    attrs.role = "img";
    attrs["aria-label"] = name;
    attrs.title = cardName(game, code);
  }
  const corner = (pos) => h("span", { class: `idx ${pos}`, "aria-hidden": "true" },
    pos === "tl" ? h("b", { text: label }) : h("b", { "data-t": label }), suitMark(game, suit, "pip", true));
  const middle = face
    ? h("span", { class: "big face-letter", "aria-hidden": "true" },
        h("b", { "data-t": label }),
        look.faceWord && look.faceWord[rank] ? h("small", { "data-t": look.faceWord[rank] }) : suitMark(game, suit, "mini", true))
    : h("span", { class: "big", "aria-hidden": "true" }, suitMark(game, suit, "pip", true));
  return h(tag, attrs, corner("tl"), middle, corner("br"));
}

/** A face-down card: decoration only, never labelled (nothing to read out). */
export function backEl(cls) {
  return h("div", { class: `card back${cls ? " " + cls : ""}`, "aria-hidden": "true" });
}

/** Sort a hand by suit, then by rank (A high when the rules say so). */
export function sortHand(codes, aceHigh = false) {
  const order = aceHigh ? [...RANKS.slice(1), "A"] : RANKS;
  return [...codes].sort((a, b) => {
    const x = split(a), y = split(b);
    return SUITS.indexOf(x.suit) - SUITS.indexOf(y.suit) || order.indexOf(x.rank) - order.indexOf(y.rank);
  });
}

export function rankOrder(aceHigh) {
  return aceHigh ? [...RANKS.slice(1), "A"] : RANKS;
}

// A row of at most 13 card backs for a hand of n cards.
export function backs(n) {
  return Array.from({ length: Math.min(n, 13) }, () => backEl("mini"));
}
