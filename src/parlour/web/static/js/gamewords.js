// The games' words on the page, as Python's presenters say them (parlour.speech): the
// player's card-name style (cookie parlour_cards: "game", the game's own names, or
// "classic") with its toggle beside the language picker, and a finished round's score
// worded from the keys the engine gives (Round.score_detail(): each item, note and
// payment has a "key" and its facts in "params"), from the "game" catalog. A detail
// without keys (a game with no catalog) keeps the words the server sent.
import { has, list, num, tg, tgn } from "./i18n.js";

const COOKIE = "parlour_cards";
export const STYLES = ["game", "classic"];
const SUIT_KEY = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/** The chosen card-name style ("game" unless the player chose "classic"). */
export function cardStyle() {
  const m = document.cookie.match(/(?:^|;\s*)parlour_cards=(game|classic)(?:;|$)/);
  return m ? m[1] : "game";
}

/** A card's name from the catalog ("Leaf 2", "Jack of diamonds", "2 گشنیز"), or null
 * when the catalog has no card names (it failed to load). */
export function catalogName(rank, suit, style = cardStyle()) {
  if (!has(`card.name.${style}`, "game")) return null;
  return tg(`card.name.${style}`, {
    rank: tg(`card.rank.${rank}.${style}`), suit: tg(`card.suit.${SUIT_KEY[suit]}.${style}`),
  });
}

/** The control beside the language picker: the game's names or the classic ones,
 * remembered for a year; the page is drawn again in the chosen names. */
export function setupCardStyle() {
  const lang = document.getElementById("lang");
  if (!lang || document.getElementById("card-names") || !has("cards.style.label", "game")) return;
  const example = (style) => [tg(`card.rank.J.${style}`), tg(`card.suit.clubs.${style}`),
    tg(`card.suit.diamonds.${style}`)].join(tg("list.join"));
  const pick = document.createElement("select");
  pick.id = "card-names";
  pick.className = "tool lang-pick";
  pick.setAttribute("aria-label", tg("cards.style.label"));
  pick.title = tg("cards.style.label");
  for (const style of STYLES) {
    const o = document.createElement("option");
    o.value = style;
    o.textContent = example(style);
    o.selected = style === cardStyle();
    pick.append(o);
  }
  pick.addEventListener("change", () => {
    document.cookie = `${COOKIE}=${pick.value}; path=/; max-age=31536000; samesite=lax`;
    location.reload();
  });
  lang.after(pick);
}

/** A game's option words for the front page and its rules page, from the catalog:
 * opts.GAME.blurb, opts.GAME.OPTION.label / .help / .CHOICE (choices: option -> values). */
export function optionWords(game, choices, params = {}) {
  const k = (s) => tg(`opts.${game}.${s}`, params);
  const options = {};
  for (const [opt, values] of Object.entries(choices)) {
    options[opt] = { label: k(`${opt}.label`), help: k(`${opt}.help`) };
    if (values) options[opt].choices = Object.fromEntries(values.map((v) => [v, k(`${opt}.${v}`)]));
  }
  return { blurb: k("blurb"), options };
}

/** The rules in a few words ("5 rounds, ties shared"): the round count, then the
 * catalog's words opts.GAME.summary.BIT for each bit that applies. */
export function summaryWords(game, rounds, bits, params = {}) {
  return [tgn(`opts.${game}.summary.rounds`, rounds),
    ...bits.map((b) => tg(`opts.${game}.summary.${b}`, params))].join(tg("list.join"));
}

function styled(key) {
  const k = `${key}.${cardStyle()}`;
  return has(`${k}.what`, "game") || has(k, "game") || has(`${k}#other`, "game") ? k : key;
}

function say(key, params, count) {
  return count === undefined || count === null ? tg(key, params) : tgn(key, count, params);
}

function words(entry, name, names) {
  const raw = entry.params || {};
  const seat = (s) => (names && names[s] !== undefined ? names[s] : `Seat ${s}`);
  const out = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === "count") continue;
    if (k === "card" || k.endsWith("_card")) out[k] = name(v);
    else if (k === "cards") out[k] = v.map(name).join(tg("list.join"));
    else if (k === "seat") out[k] = seat(v);
    else if (k === "seats") out[k] = list(v.map(seat));
    else out[k] = typeof v === "number" ? num(v) : String(v);
  }
  return out;
}

/** A score item's {what, detail} in the page's language (name: code -> card name). */
export function itemWords(it, name, names) {
  const key = it.key && styled(it.key);
  if (!key || !has(`${key}.what`, "game")) return { what: it.what, detail: it.detail };
  const p = words(it, name, names);
  const count = it.params ? it.params.count : undefined;
  return { what: say(`${key}.what`, p), detail: say(`${key}.detail`, p, count) };
}

/** A note's or a payment's words in the page's language. */
export function lineWords(entry, fallback, name, names) {
  const key = entry.key && styled(entry.key);
  if (!key || !(has(key, "game") || has(`${key}#other`, "game"))) return fallback;
  return say(key, words(entry, name, names), entry.params ? entry.params.count : undefined);
}
