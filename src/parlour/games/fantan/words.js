// Fan Tan's words for the front page (its list of open tables, the custom form) and
// the "How to play" page: the option words and a table's rules in a few words. A module
// of its own so that the front page fetches these, not the table's drawing code.
// (Served at /static/js/games/NAME/words.js: the shared modules are two folders up.)
import { optionWords, summaryWords } from "../../gamewords.js";

/** Option labels and choices in plain words (the option names are the record's). */
export const words = optionWords("fantan", {
  rounds: null, opening: ["seven-of-diamonds", "any-seven"], ace: ["low", "high"],
  stakes: ["points", "chips"], strict: ["true", "false"],
});

/** The rules in a few words, for the list of open tables. */
export function summary(rules) {
  const bits = [rules.stakes === "chips" ? "chips" : "points"];
  if (rules.ace === "high") bits.push("ace_high");
  if (rules.opening === "any-seven") bits.push("any_seven");
  if (rules.strict === false) bits.push("passing");
  return summaryWords("fantan", rules.rounds, bits);
}
