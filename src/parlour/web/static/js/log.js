// The game log: structured entries from the server, worded here.
import { cardName, listNames } from "./cards.js";

function who(state, seat) {
  if (seat === state.you) return "You";
  const s = state.table.seats[seat];
  return s ? s.name : `Seat ${seat + 1}`;
}

export function describe(e, state) {
  const game = state.table.game;
  switch (e.kind) {
    case "join": return `${e.name} takes seat ${e.seat + 1}.`;
    case "start": return "The game starts.";
    case "deal": return `Round ${e.round}: ${who(state, e.dealer)} deal${e.dealer === state.you ? "" : "s"}. The deal is sealed.`;
    case "move": {
      const w = who(state, e.seat);
      const by = e.by === "standin" ? " (the computer, standing in)" : "";
      if (e.move.pass) {
        if (e.by === "forced") return `${w}: nothing fits, automatic pass.`;
        return `${w} pass${e.seat === state.you ? "" : "es"}${by}.`;
      }
      const card = cardName(game, e.move.play);
      const verb = e.seat === state.you ? "play" : "plays";
      if (Array.isArray(e.move.take)) {  // a game where cards collect others
        if (!e.move.take.length) return `${w} ${verb} ${card}; it stays on the table${by}.`;
        return `${w} ${verb} ${card}, collecting ${listNames(game, e.move.take)}${by}.`;
      }
      return `${w} ${verb} ${card}${by}.`;
    }
    case "round_end": return `Round ${e.round} is over: ${e.score.map((v, i) => `${who(state, i)} ${v > 0 && state.table.scoring.signed ? "+" : ""}${v}`).join(", ")}.`;
    case "game_over": return `Game over. ${e.winners.map((s) => who(state, s)).join(" and ")} ${e.winners.length > 1 || e.winners[0] === state.you ? "win" : "wins"}.`;
    case "standin": return `${who(state, e.seat)} ${e.reason === "timeout" ? "ran out of time" : "lost the connection"}: the computer plays for ${e.seat === state.you ? "you" : "them"} until ${e.seat === state.you ? "you return" : "they return"}.`;
    case "leftovers": return e.seat === null || e.seat === undefined
      ? `The last cards on the table (${listNames(game, e.cards)}) go to nobody: nobody collected this round.`
      : `The last cards on the table (${listNames(game, e.cards)}) go to ${who(state, e.seat)}, who collected last.`;
    case "reopen": return `Seat ${e.seat + 1} is open for someone new; the computer plays it until then.`;
    case "rematch_offer": return `${who(state, e.seat)} offer${e.seat === state.you ? "" : "s"} a rematch.`;
    case "rematch_answer": return `${who(state, e.seat)} ${e.accept ? "accept" : "decline"}${e.seat === state.you ? "" : "s"} the rematch.`;
    case "back": return `${who(state, e.seat)} ${e.seat === state.you ? "are" : "is"} back.`;
    default: return "";
  }
}
