// The game log: structured entries from the server, worded here in the page's language
// (the "web" catalog's log.*; a sentence about you has its own key, as languages word
// "you play" and "Ann plays" apart).
import { cardName, listNames } from "./cards.js";
import { list, num, t, tn } from "./i18n.js";

function who(state, seat) {
  if (seat === state.you) return t("table.you");
  const s = state.table.seats[seat];
  return s ? s.name : t("table.seat_n", { seat: num(seat + 1) });
}

/** The key for seat's sentence: KEY.you when it is about the reader. */
function about(key, state, seat) { return seat === state.you ? `${key}.you` : key; }

export function describe(e, state) {
  const game = state.table.game;
  const say = (key, seat, params) => t(about(key, state, seat), { name: who(state, seat), ...params });
  switch (e.kind) {
    case "join": return t("log.join", { name: e.name, seat: num(e.seat + 1) });
    case "start": return t("log.start");
    case "deal": return say("log.deal", e.dealer, { round: num(e.round) });
    case "move": {
      const by = e.by === "standin" ? " " + t("log.standin_mark") : "";
      if (e.move.pass) {
        if (e.by === "forced") return t("log.forced_pass", { name: who(state, e.seat) });
        return say("log.pass", e.seat, { by });
      }
      const card = cardName(game, e.move.play);
      if (Array.isArray(e.move.take)) {  // a game where cards collect others
        if (!e.move.take.length) return say("log.discard", e.seat, { card, by });
        return say("log.collect", e.seat, { card, cards: listNames(game, e.move.take), by });
      }
      return say("log.play", e.seat, { card, by });
    }
    case "round_end": return t("log.round_end", { round: num(e.round), scores: e.score.map((v, i) =>
      t("log.round_end.item", { name: who(state, i), points: `${v > 0 && state.table.scoring.signed ? "+" : ""}${num(v)}` })).join(", ") });
    case "game_over": {
      const names = e.winners.map((s) => who(state, s));
      return e.winners.length === 1 && e.winners[0] === state.you ? t("log.game_over.you")
        : tn("log.game_over", names.length, { names: list(names) });
    }
    case "standin": return say(e.reason === "timeout" ? "log.standin.timeout" : "log.standin.lost", e.seat);
    case "leftovers": return e.seat === null || e.seat === undefined
      ? t("log.leftovers.nobody", { cards: listNames(game, e.cards) })
      : say("log.leftovers", e.seat, { cards: listNames(game, e.cards) });
    case "reopen": return t("log.reopen", { seat: num(e.seat + 1) });
    case "rematch_offer": return say("log.rematch_offer", e.seat);
    case "rematch_answer": return say(e.accept ? "log.rematch_accept" : "log.rematch_decline", e.seat);
    case "back": return say("log.back", e.seat);
    default: return "";
  }
}
