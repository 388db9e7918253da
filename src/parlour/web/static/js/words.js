// Plain words for players: levels, server refusals and the engine's reasons. Ruling ids
// and card codes are for help pages and records; what a player reads has neither.
import { cardName } from "./cards.js";
import { has, list, t, tg, tgn } from "./i18n.js";

export { LEVELS, levelName, levelsFor } from "./levels.js";

const RULING = /\s*[(（](?:(?:FA|FT|C)-\d+(?:,\s*)?)+[)）]/g;
const CODE = /\b(10|[2-9AJQK])([CDHS])\b/g;

/** An engine reason in plain words: card codes named, ruling ids dropped. */
export function plainReason(game, text) {
  if (!text) return "";
  return text.replace(RULING, "").replace(CODE, (m) => cardName(game, m))
    .replace(/seat (\d+)'s hand/g, "your hand").replace(/\+/g, " + ");
}

/** An engine's refusal from its key and facts (parlour.refusals: card codes, lists of
 *  them, collections to choose from), in this page's language, or "" without a key. */
export function refusalWords(game, key, params) {
  // (the literal prefix brings every refusal.* word into the table page's bundle)
  if (!key || !key.startsWith("refusal.") || !(has(key, "game") || has(`${key}#other`, "game"))) return "";
  const p = { ...(params || {}) };
  const names = (codes) => list(codes.map((c) => cardName(game, c)));
  if (p.card) p.card = cardName(game, p.card);
  if (p.cards) p.cards = names(p.cards);
  if (p.take) p.take = names(p.take);
  if (p.options) p.options = p.options.map(names).join(tg("refusal.or"));
  const text = typeof p.count === "number" ? tgn(key, p.count, p) : tg(key, p);
  return text.replace(RULING, "");
}

/** The table state with each unplayable card's reason worded in this page's language
 *  from its key and facts (state.reason_keys); the server's English stays the fallback. */
export function withReasons(state) {
  const keyed = state && state.reason_keys;
  if (!keyed || !Object.keys(keyed).length) return state;
  const game = state.table.game;
  const reasons = { ...(state.reasons || {}) };
  for (const [code, [key, params]] of Object.entries(keyed)) {
    reasons[code] = refusalWords(game, key, params) || reasons[code];
  }
  return { ...state, reasons };
}

/**
 * What to tell a person about a refused message, or null to say nothing. A double
 * click answers a state the table has already left ("stale"): that is no mistake.
 */
export function errorWords(code, message, state, key, params) {
  const game = state && state.table ? state.table.game : "";
  const english = document.documentElement.lang === "en";
  if (code === "stale") return null;
  if (code === "illegal") {
    // the engine's reason as a key and its facts (parlour.refusals), worded here
    const reason = refusalWords(game, key, params);
    if (reason) return t("error.illegal", { reason });
    // the server words it in this socket's language (its cookie) already
    return message ? t("error.illegal", { reason: english ? plainReason(game, message) : message }) : t("error.illegal_plain");
  }
  // In English the server's own sentence for these says most (how long, which seat).
  if (english && !WORDED.has(code)) return plainReason(game, message || t("error.generic"));
  return has("error." + code) ? t("error." + code) : plainReason(game, message) || t("error.generic");
}

/** Refusals the page words itself in every language (the others: the server's words). */
const WORDED = new Set(["not_your_turn", "not_playing", "bad_move", "unauthorised", "started",
  "seats_open", "not_over", "conflict", "unavailable", "expired", "rate_limited", "too_fast",
  "no_hints", "hint_limit", "busy", "server_error"]);
