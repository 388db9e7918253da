// Cards as the page shows them. Codes are the record's ("7D", "10H"); Fanti shows
// its own names (RULINGS FA-1): Guardian = J, Mystic = Q, Scout = K, Leaf = clubs,
// Star = diamonds.
import { h, svgUse } from "./dom.js";

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAME = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
const FANTI_RANK = { J: "Guardian", Q: "Mystic", K: "Scout" };
const FANTI_LETTER = { J: "G", Q: "M", K: "S" };
const FANTI_SUIT = { C: "Leaf", D: "Star", H: "hearts", S: "spades" };

export function split(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

/** The card's name for people and screen readers. */
export function cardName(game, code) {
  const { rank, suit } = split(code);
  if (game === "fanti") {
    if (FANTI_RANK[rank]) return `${FANTI_RANK[rank]} of ${FANTI_SUIT[suit]}`;
    const r = rank === "A" ? "Ace" : rank;
    return suit === "C" || suit === "D" ? `${FANTI_SUIT[suit]} ${r}` : `${r} of ${FANTI_SUIT[suit]}`;
  }
  return `${RANK_NAME[rank] || rank} of ${SUIT_NAME[suit]}`;
}

/** A short text label: "7♦", or Fanti's "G★", "5 Leaf". */
export function shortName(game, code) {
  const { rank, suit } = split(code);
  if (game === "fanti") {
    const r = FANTI_LETTER[rank] || rank;
    return suit === "C" ? `${r} Leaf` : suit === "D" ? `${r}★` : r + SYMBOL[suit];
  }
  return rank + SYMBOL[suit];
}

export function listNames(game, codes) {
  return codes.map((c) => cardName(game, c)).join(", ");
}

function suitMark(game, suit, cls) {
  if (game === "fanti" && suit === "C") return h("span", { class: cls }, svgUse("leaf", "leaf"));
  if (game === "fanti" && suit === "D") return h("span", { class: cls, text: "★" });
  return h("span", { class: cls, text: SYMBOL[suit] });
}

/**
 * A face-up card. With `onClick` it is a button (a card in the player's own hand or a
 * choice); `legal` false disables it and `reason` says why (the engine's words).
 */
export function cardEl(game, code, opts = {}) {
  const { rank, suit } = split(code);
  const label = game === "fanti" ? FANTI_LETTER[rank] || rank : rank;
  const face = ["J", "Q", "K"].includes(rank);
  const tag = opts.onClick ? "button" : "div";
  const attrs = {
    class: `card s-${suit}${face ? " face" : ""}${opts.cls ? " " + opts.cls : ""}`,
    "data-card": code,
  };
  const name = cardName(game, code);
  if (tag === "button") {
    attrs.type = "button";
    attrs.onclick = opts.onClick;
    attrs["data-legal"] = opts.legal ? "true" : "false";
    if (!opts.legal) {
      attrs["aria-disabled"] = "true";
      attrs.title = opts.reason || "not playable now";
      attrs["aria-label"] = `${name}, not playable: ${opts.reason || "not now"}`;
    } else {
      attrs["aria-label"] = name;
      attrs.title = opts.title || name;
    }
    if (opts.pressed !== undefined) attrs["aria-pressed"] = opts.pressed ? "true" : "false";
  } else {
    attrs.role = "img";
    attrs["aria-label"] = name;
    attrs.title = name;
  }
  const corner = (pos) => h("span", { class: `idx ${pos}`, "aria-hidden": "true" },
    h("b", { text: label }), suitMark(game, suit, "pip"));
  const middle = face
    ? h("span", { class: "big face-letter", "aria-hidden": "true" },
        h("b", { text: label }),
        game === "fanti" ? h("small", { text: FANTI_RANK[rank] }) : suitMark(game, suit, "mini"))
    : h("span", { class: "big", "aria-hidden": "true" }, suitMark(game, suit, "pip"));
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
