// Plain words for players: levels, server refusals and the engine's reasons. Ruling ids
// and card codes are for help pages and records; what a player reads has neither.
import { cardName } from "./cards.js";

/** The computer levels a stranger is offered, each with one line about how it plays. */
export const LEVELS = [
  ["easy", "Easy", "Plays the first good-looking card. Good for learning the rules."],
  ["medium", "Medium", "Plays a sound, steady game by rules of thumb."],
  ["hard", "Hard", "Thinks ahead about the cards you might hold (at most a second a move)."],
  ["expert", "Expert", "Thinks ahead like Hard over many more possible deals (at most three seconds a move)."],
];

/** The levels this server offers for a game, in the order above (internal engines left out). */
export function levelsFor(game) {
  const have = new Set(game.bots || []);
  const out = LEVELS.filter(([v]) => have.has(v));
  return out.length ? out : (game.bots || []).map((b) => [b, b, ""]);
}

export function levelName(bot) {
  const l = LEVELS.find(([v]) => v === bot);
  return l ? l[1] : bot;
}

const RULING = /\s*\((?:(?:FA|FT|C)-\d+(?:,\s*)?)+\)/g;
const CODE = /\b(10|[2-9AJQK])([CDHS])\b/g;

/** An engine reason in plain words: card codes named, ruling ids dropped. */
export function plainReason(game, text) {
  if (!text) return "";
  return text.replace(RULING, "").replace(CODE, (m) => cardName(game, m))
    .replace(/seat (\d+)'s hand/g, "your hand").replace(/\+/g, " + ");
}

/**
 * What to tell a person about a refused message, or null to say nothing. A double
 * click answers a state the table has already left ("stale"): that is no mistake.
 */
export function errorWords(code, message, state) {
  const game = state && state.table ? state.table.game : "";
  switch (code) {
    case "stale": return null;
    case "not_your_turn": return "It is not your turn yet.";
    case "not_playing": return "The next deal is coming: wait a moment.";
    case "illegal": return "That card cannot be played now: " + plainReason(game, message) + ".";
    case "bad_move": return "That move was not understood. Please try again.";
    case "unauthorised": return "Only players at this table can do that.";
    case "started": return "The game has already started.";
    case "seats_open": return "Some seats are still empty: invite someone or give the seat to the computer.";
    case "not_over": return "That is possible when the game is over.";
    case "conflict": return "The table moved on before your move was saved. Please look again.";
    case "unavailable": return "The server is busy for a moment: nothing was changed. Please try again.";
    case "expired": return "This table has expired.";
    case "rate_limited": case "too_fast": return "Slow down a little: too many messages at once.";
    case "chat_limit": case "chat_off": case "chat_too_long": case "muted": return message;
    case "no_hints": case "hint_limit": return "No more hints this round.";
    case "busy": return "No hint this time: the server is busy. Ask again in a moment.";
    case "server_error": return "Something went wrong on the server: nothing was changed. Please try again.";
    default: return plainReason(game, message || "That did not work.");
  }
}
