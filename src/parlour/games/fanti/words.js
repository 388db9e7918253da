// Fanti's words for the front page (its list of open tables, the custom form) and
// the "How to play" page: the option words and a table's rules in a few words. A module
// of its own so that the front page fetches these, not the table's drawing code.
// (Served at /static/js/games/NAME/words.js: the shared modules are two folders up.)
import { cardName } from "../../cards.js";
import { cardStyle, optionWords, summaryWords } from "../../gamewords.js";
import { tg } from "../../i18n.js";

/** Option labels and choices in plain words (the option names are the record's). */
export function names() {
  const style = cardStyle();
  return { guardian: tg(`card.rank.J.${style}`), leaf: tg(`card.suit.clubs.${style}`),
    c2C: cardName("fanti", "2C"), c10D: cardName("fanti", "10D") };
}

export const words = optionWords("fanti", {
  rounds: null, ties: ["none", "shared"], guardian_takes_guardians: ["true", "false"],
}, names());

export function summary(rules) {
  const bits = [];
  if (rules.ties === "shared") bits.push("ties");
  if (rules.guardian_takes_guardians === false) bits.push("guardians");
  return summaryWords("fanti", rules.rounds, bits, names());
}
