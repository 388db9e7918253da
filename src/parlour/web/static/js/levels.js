// The computer levels a player is offered, in the page's words (kept apart from
// words.js so the front page loads them without the table's words and card names).
import { t } from "./i18n.js";

/** The computer levels a stranger is offered, each with one line about how it plays. */
export const LEVELS = ["easy", "medium", "hard", "expert"].map((v) => [v, t(`level.${v}`), t(`level.${v}.line`)]);

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
