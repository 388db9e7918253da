// Fan Tan at the table: four rows growing out from the 7s (FT-2), the hand with its
// legal cards lit, and the Pass button when passing is allowed (FT-5, FT-8).
import { cardEl, cardName, rankOrder, sortHand, SUITS } from "../cards.js";
import { h } from "../dom.js";
import { has, num, tg, tgn } from "../i18n.js";
import { words } from "./fantan/words.js";

// The page's words at a Fan Tan table are the "game" catalog's fantan.page.* (this game's
// words only reach a table of this game: server/pages.py).
const P = (key, params) => tg(`fantan.page.${key}`, params);
const SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function center(ctx) {
  const { view } = ctx.state;
  const aceHigh = view.rules.ace === "high";
  const order = rankOrder(aceHigh);
  const rows = h("div", { class: "rows", role: "group", "aria-label": P("rows") });
  for (const suit of SUITS) {
    const run = view.rows[suit];
    const named = P(`suit.${suit}`);
    const label = run.length ? P("row", { suit: named, from: cardName("fantan", run[0]), to: cardName("fantan", run[run.length - 1]) })
      : P("row.empty", { suit: named });
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
  const out = [h("span", { class: "stat", text: tgn("fantan.page.passes", v.passes[i]) })];
  if (state.table.rules.stakes === "chips") {
    const t = state.totals[i];
    out.push(h("span", { class: "stat chips", text: tgn("fantan.page.chips", Math.abs(t), { signed: `${t > 0 ? "+" : ""}${num(t)}` }) }));
  }
  return out;
}

export function statusExtras(state) {
  if (state.table.rules.stakes === "chips" && state.pot !== undefined) {
    return [h("span", { class: "pot", text: tgn("fantan.table.pot", state.pot) })];
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
      reason: myTurn ? state.reasons[code] : ctx.notNow(),
      cls: ctx.ui.hint === code ? "hinted" : "",
      onClick: () => {
        if (myTurn && legal.has(code)) ctx.play({ play: code });
        else ctx.explain(code, myTurn ? state.reasons[code] : ctx.notNow());
      },
    }));
  return cards;
}

const OFFER = "fantan.offer.";

export function actions(ctx) {
  const { state } = ctx;
  const v = state.view;
  const out = [];
  const myTurn = v.current_player === state.you;
  if (myTurn && v.legal.length === 1 && v.legal[0].pass && state.pass && state.pass.auto) {
    out.push(h("p", { class: "notice", text: P("auto_pass") }));
    return out;
  }
  if (state.pass) {
    // the server's keys for a pass now (present.py's pass_offer_keys): the literal prefix
    // brings them into the table page's words (server/pages.py reads it here)
    const words = state.pass.keys && state.pass.keys.length && state.pass.keys.every((k) => k.startsWith(OFFER) && has(k, "game"))
      ? state.pass.keys.map((k) => tg(k)).join("") : state.pass.text;
    out.push(h("button", { type: "button", class: state.pass.withholding ? "warn" : "", "data-action": "pass",
      title: words, "aria-describedby": "pass-fine",
      onclick: () => ctx.play({ pass: true }) }, P("pass")),
    h("small", { id: "pass-fine", class: "fine", text: words }));
  }
  return out;
}

export { backs } from "../cards.js";

// --- words for the lobby and the "How to play" page --------------------------------

export { summary, words } from "./fantan/words.js";

// A hint's expected score (the server's hint "points"): chips are won or lost, so signed;
// penalty points are the page's own words (null).
export function expectedWords(rules, value) {
  if (rules.stakes !== "chips") return null;
  const v = Math.round(value * 100) / 100;
  return P("expected.chips", { value: (v > 0 ? "+" : "") + num(v) });
}

const cardsOf = (codes, cls = "small") => h("span", { class: "card-row" }, codes.map((c) => cardEl("fantan", c, { cls })));

/** The "How to play" page: card pictures, worked examples, scoring, every option. */
// The rules page's words are the "game" catalog's (rules.fantan.*), in the page's language.
const R = (key) => tg(`rules.fantan.${key}`);

export function howToPlay() {
  return [
    h("h1", { text: R("title") }),
    h("p", { class: "lead", text: R("lead") }),
    h("h2", { text: R("rows") }),
    h("p", { text: R("rows.text") }),
    h("figure", { class: "example" },
      h("div", { class: "steps" },
        h("div", {}, cardsOf(["7H"]), h("small", { text: R("ex1.s1") })),
        h("div", {}, cardsOf(["6H", "7H"]), h("small", { text: R("ex1.s2") })),
        h("div", {}, cardsOf(["6H", "7H", "8H"]), h("small", { text: R("ex1.s3") })),
        h("div", {}, cardsOf(["5H", "6H", "7H", "8H"]), h("small", { text: R("ex1.s4") }))),
      h("figcaption", { text: R("ex1.caption") })),
    h("h2", { text: R("turn") }),
    h("ul", {},
      h("li", { text: R("turn.play") }),
      h("li", { text: R("turn.pass") }),
      h("li", { text: R("turn.end") })),
    h("figure", { class: "example" },
      h("div", { class: "steps" },
        h("div", {}, h("strong", { text: R("on_table") }), cardsOf(["6S", "7S", "8S"]), cardsOf(["7D"])),
        h("div", {}, h("strong", { text: R("your_hand") }), cardsOf(["KC", "2H", "10S", "4D"]))),
      h("figcaption", { text: R("ex2.caption") })),
    h("h2", { text: R("starts") }),
    h("p", { text: R("starts.text") }),
    h("h2", { text: R("scoring") }),
    h("p", { text: R("scoring.points") }),
    h("figure", { class: "example" },
      h("table", { class: "sheet" },
        h("thead", {}, h("tr", {}, h("td"), [R("col.cards_left"), R("col.passes"), R("col.round_score")].map((t) => h("th", { scope: "col", text: t })))),
        h("tbody", {}, [[R("ex3.ann"), "0", "1", "0"], [R("ex3.bob"), "2", "1", "3"], [R("ex3.cleo"), "5", "1", "6"], [R("ex3.dan"), "9", "1", "10"]]
          .map((r) => h("tr", {}, r.map((c) => h("td", { text: c })))))),
      h("figcaption", { text: R("ex3.caption") })),
    h("p", { text: R("scoring.chips") }),
    h("h2", { text: R("holding") }),
    h("p", { text: R("holding.text") }),
    h("figure", { class: "example" },
      h("div", { class: "steps" }, h("div", {}, h("strong", { text: R("you_hold") }), cardsOf(["8S", "KH"])), h("div", {}, h("strong", { text: R("on_table") }), cardsOf(["6S", "7S"]))),
      h("figcaption", { text: R("ex4.caption") })),
    h("h2", { text: R("game") }),
    h("p", { text: R("game.text") }),
    h("h2", { text: R("options") }),
    optionList(words),
    h("p", { class: "muted", text: R("rulings") }),
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
  return n ? tgn("fantan.page.tip", n) : "";
}

/** Penalty points: the lowest total wins; chips: the highest (FT-9). */
export function lowerWins(rules) { return rules.stakes !== "chips"; }
