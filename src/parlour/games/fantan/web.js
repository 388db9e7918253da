// Fan Tan at the table: four rows growing out from the 7s (FT-2), the hand with its
// legal cards lit, and the Pass button when passing is allowed (FT-5, FT-8).
import { cardEl, cardName, rankOrder, sortHand, SUITS } from "../cards.js";
import { h } from "../dom.js";
import { has, tg } from "../i18n.js";

const SUIT_LABEL = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };
const SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function center(ctx) {
  const { view } = ctx.state;
  const aceHigh = view.rules.ace === "high";
  const order = rankOrder(aceHigh);
  const rows = h("div", { class: "rows", role: "group", "aria-label": "The four rows" });
  for (const suit of SUITS) {
    const run = view.rows[suit];
    const label = run.length ? `${SUIT_LABEL[suit]}: ${cardName("fantan", run[0])} to ${cardName("fantan", run[run.length - 1])}` : `${SUIT_LABEL[suit]}: not started`;
    const row = h("div", { class: `row s-${suit}`, role: "img", "aria-label": label },
      h("span", { class: "row-suit", "aria-hidden": "true", text: SYMBOL[suit] }));
    const slots = h("div", { class: "slots", "aria-hidden": "true" });
    for (const rank of order) {
      const code = rank + suit;
      if (run.includes(code)) slots.append(cardEl("fantan", code, { cls: "small" }));
      else slots.append(h("div", { class: `slot${rank === "7" ? " seven" : ""}`, text: rank === "7" ? "7" : "" }));
    }
    row.append(slots);
    rows.append(row);
  }
  return rows;
}

export function seatExtras(state, i) {
  const v = state.view;
  const out = [h("span", { class: "stat", text: `${v.passes[i]} pass${v.passes[i] === 1 ? "" : "es"}` })];
  if (state.table.rules.stakes === "chips") {
    const t = state.totals[i];
    out.push(h("span", { class: "stat chips", text: `${t > 0 ? "+" : ""}${t} chips` }));
  }
  return out;
}

export function statusExtras(state) {
  if (state.table.rules.stakes === "chips" && state.pot !== undefined) {
    return [h("span", { class: "pot", text: `Pot: ${state.pot} chips` })];
  }
  return [];
}

export function hand(ctx) {
  const { state } = ctx;
  const v = state.view;
  const myTurn = v.current_player === state.you && state.table.status === "playing";
  const legal = new Set(v.legal.filter((m) => m.play).map((m) => m.play));
  const cards = sortHand(v.hand, v.rules.ace === "high").map((code) =>
    cardEl("fantan", code, {
      legal: myTurn && legal.has(code),
      reason: myTurn ? state.reasons[code] : "it is not your turn",
      cls: ctx.ui.hint === code ? "hinted" : "",
      onClick: () => {
        if (myTurn && legal.has(code)) ctx.play({ play: code });
        else ctx.explain(code, myTurn ? state.reasons[code] : "it is not your turn");
      },
    }));
  return cards;
}

export function actions(ctx) {
  const { state } = ctx;
  const v = state.view;
  const out = [];
  const myTurn = v.current_player === state.you;
  if (myTurn && v.legal.length === 1 && v.legal[0].pass && state.pass && state.pass.auto) {
    out.push(h("p", { class: "notice", text: "Nothing in your hand fits: the table passes for you." }));
    return out;
  }
  if (state.pass) {
    const words = state.pass.keys && state.pass.keys.length && state.pass.keys.every((k) => has(k, "game"))
      ? state.pass.keys.map((k) => tg(k)).join("") : state.pass.text;
    out.push(h("button", { type: "button", class: state.pass.withholding ? "warn" : "", "data-action": "pass",
      title: words, "aria-describedby": "pass-fine",
      onclick: () => ctx.play({ pass: true }) }, "Pass"),
    h("small", { id: "pass-fine", class: "fine", text: words }));
  }
  return out;
}

export { backs } from "../cards.js";

// --- words for the lobby and the "How to play" page --------------------------------

/** Option labels and choices in plain words (the option names are the record's). */
export const words = {
  blurb: "Build the four rows out from the sevens; be first to empty your hand.",
  options: {
    rounds: { label: "Rounds", help: "How many deals the game lasts. Usually one per player, so everyone deals once." },
    opening: { label: "Who starts", help: "How each round opens.",
      choices: { "seven-of-diamonds": "Whoever holds the 7 of diamonds plays it first", "any-seven": "The player after the dealer starts, with any 7" } },
    ace: { label: "Aces", help: "Where the Ace sits in each row.",
      choices: { low: "Low: below the 2", high: "High: above the King" } },
    stakes: { label: "Scoring", help: "What a round costs the players who did not go out.",
      choices: { points: "Penalty points: lowest total wins", chips: "Chips: pay into a pot, the winner collects" } },
    strict: { label: "Passing", help: "When a player may pass.",
      choices: { true: "Only when nothing fits", false: "Any time, but holding back a card that fits is fined" } },
  },
};

/** The rules in a few words, for the list of open tables. */
export function summary(rules) {
  const bits = [`${rules.rounds} round${rules.rounds === 1 ? "" : "s"}`,
    rules.stakes === "chips" ? "chips" : "penalty points"];
  if (rules.ace === "high") bits.push("Aces high");
  if (rules.opening === "any-seven") bits.push("any 7 opens");
  if (rules.strict === false) bits.push("passing allowed (fined)");
  return bits.join(", ");
}

const cardsOf = (codes, cls = "small") => h("span", { class: "card-row" }, codes.map((c) => cardEl("fantan", c, { cls })));

/** The "How to play" page: card pictures, worked examples, scoring, every option. */
export function howToPlay() {
  return [
    h("h1", { text: "How to play Fan Tan" }),
    h("p", { class: "lead", text: "Fan Tan (also called Sevens or Parliament) is a game for 3 to 8 players with one ordinary deck. The whole deck is dealt out. Players take turns laying cards on the table to build one row per suit, starting from the sevens. The first player to run out of cards wins the round; everyone else pays for the cards they still hold." }),
    h("h2", { text: "The rows" }),
    h("p", { text: "Each suit has one row. A row is started by its 7. After that it grows one card at a time: the next card down on the left, or the next card up on the right, in the same suit. A row never has gaps." }),
    h("figure", { class: "example" },
      h("div", { class: "steps" },
        h("div", {}, cardsOf(["7H"]), h("small", { text: "The 7 of hearts starts the row" })),
        h("div", {}, cardsOf(["6H", "7H"]), h("small", { text: "then the 6 goes on the left" })),
        h("div", {}, cardsOf(["6H", "7H", "8H"]), h("small", { text: "the 8 on the right" })),
        h("div", {}, cardsOf(["5H", "6H", "7H", "8H"]), h("small", { text: "then the 5 (the 9 would fit too)" }))),
      h("figcaption", { text: "A row growing: only the card just below or just above the ends fits. Here a 4 or a 9 of hearts would be next; the 10 of hearts must wait for the 9." })),
    h("h2", { text: "Your turn" }),
    h("ul", {},
      h("li", { text: "Play one card that fits: a 7 of a suit whose row has not started, or the next card at either end of a row." }),
      h("li", { text: "If nothing in your hand fits, you pass. A pass costs one penalty point (or one chip into the pot)." }),
      h("li", { text: "The round ends the moment someone plays their last card. That player wins the round." })),
    h("figure", { class: "example" },
      h("div", { class: "steps" },
        h("div", {}, h("strong", { text: "On the table" }), cardsOf(["6S", "7S", "8S"]), cardsOf(["7D"])),
        h("div", {}, h("strong", { text: "Your hand" }), cardsOf(["KC", "2H", "10S", "4D"]))),
      h("figcaption", { text: "A pass: the spades need a 5 or a 9, the diamonds a 6 or an 8, and clubs and hearts need their 7. Nothing in this hand fits, so you pass and pay one point." })),
    h("h2", { text: "Who starts" }),
    h("p", { text: "Usually whoever holds the 7 of diamonds must play it as the very first card, and play goes on to the left. With the option \"The player after the dealer starts\", the player left of the dealer begins, and while the table is empty only a 7 can be played." }),
    h("h2", { text: "Scoring" }),
    h("p", { text: "With penalty points (lower is better), each pass costs 1 point, and at the end of the round every player except the winner adds 1 point per card left in hand. The winner writes 0 for the round, passes included." }),
    h("figure", { class: "example" },
      h("table", { class: "sheet" },
        h("thead", {}, h("tr", {}, ["", "Cards left", "Passes", "Round score"].map((t) => h("th", { text: t })))),
        h("tbody", {}, [["Ann (went out)", "0", "1", "0"], ["Bob", "2", "1", "3"], ["Cleo", "5", "1", "6"], ["Dan", "9", "1", "10"]]
          .map((r) => h("tr", {}, r.map((c) => h("td", { text: c })))))),
      h("figcaption", { text: "A worked round: everyone passed once; Ann went out first and scores 0." })),
    h("p", { text: "With chips (higher is better), everyone puts 1 chip into the pot at the deal, and players who were dealt one card fewer than others put in 1 more. Each pass adds 1 chip to the pot. At the end each loser pays the winner 1 chip per card left, and the winner takes the pot." }),
    h("h2", { text: "Holding back a card (only if the table allows it)" }),
    h("p", { text: "Normally you may pass only when nothing fits. With the option \"Passing: any time\", you may pass while holding a card that fits, to block the others. When the round ends, every such pass is fined: 3 extra penalty points (the winner still writes 0). With chips the fine is 3 chips into the pot, and if the card you held back was a 7, you also pay 5 chips to the holder of that suit's 6 and 5 chips to the holder of its 8. If every player passes twice running with no card played, the round stops there and nobody wins it: everyone scores as a loser, nobody pays for cards left, and with chips the pot is shared by those who never held back." }),
    h("figure", { class: "example" },
      h("div", { class: "steps" }, h("div", {}, h("strong", { text: "You hold" }), cardsOf(["8S", "KH"])), h("div", {}, h("strong", { text: "On the table" }), cardsOf(["6S", "7S"]))),
      h("figcaption", { text: "The 8 of spades fits, but you pass to keep it: a pass (1 point) plus a fine (3 points) at the end of the round, unless you win the round." })),
    h("h2", { text: "The game" }),
    h("p", { text: "A game has several rounds, usually one per player, and the deal moves one seat to the left each round. With points the lowest total wins; with chips the highest. Equal best totals share the win." }),
    h("h2", { text: "Options" }),
    optionList(words),
    h("p", { class: "muted", text: "For the rulings behind these rules (FT-1 to FT-10), see the project's documentation." }),
  ];
}

function optionList(w) {
  return h("dl", { class: "options-list" }, Object.values(w.options).flatMap((o) => [
    h("dt", { text: o.label }),
    h("dd", {}, o.help, o.choices ? h("ul", {}, Object.values(o.choices).map((c) => h("li", { text: c }))) : null),
  ]));
}

/** A one-line tip for a first game. */
export function tip(state) {
  const v = state.view;
  if (!v || v.current_player !== state.you) return "";
  const n = v.legal.filter((m) => m.play).length;
  return n ? `Lit cards fit on a row: ${n === 1 ? "one of yours fits" : `${n} of yours fit`}. Playing early 7s opens rows for everyone.` : "";
}

/** Penalty points: the lowest total wins; chips: the highest (FT-9). */
export function lowerWins(rules) { return rules.stakes !== "chips"; }
