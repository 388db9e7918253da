// A seat's room-given name (a computer's, or a person's who gave none), in the reader's language.
import { num, t } from "./i18n.js";

// A computer seat the room named itself keeps that neutral name in the table's state and
// its record ("Bot 2" at a custom table, "Computer 2" from the pool: server/intents.py,
// pools.py); the page shows it in the reader's language, with the same number. A name
// someone gave a computer seat is shown as given.
// A person who gave no name is "Player 2" in the state and the record the same way
// (server/intents.py, pools.py), and shown as the page's word for a player.
const ROOM_NAMED = /^(?:Bot|Computer) (\d+)$/;
const UNNAMED = /^Player (\d+)$/;

/** A seat's shown name: a room-given name in this page's language, any other as given. */
export function seatName(name, computer) {
  const m = computer ? ROOM_NAMED.exec(name || "") : null;
  if (m) return t("table.computer_n", { n: num(Number(m[1])) });
  const p = UNNAMED.exec(name || "");
  return p ? t("table.player_n", { n: num(Number(p[1])) }) : name;
}

/** The table state with its seats' room-given names in this page's language. */
export function withSeatNames(state) {
  if (!state || !state.table || !state.table.seats) return state;
  const seats = state.table.seats.map((s) => {
    const name = seatName(s.name, s.kind === "bot");
    return name === s.name ? s : { ...s, name };
  });
  return { ...state, table: { ...state.table, seats } };
}
