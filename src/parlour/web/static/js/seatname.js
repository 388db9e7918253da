// A computer seat's shown name, in the reader's language.
import { num, t } from "./i18n.js";

// A computer seat the room named itself keeps that neutral name in the table's state and
// its record ("Bot 2" at a custom table, "Computer 2" from the pool: server/intents.py,
// pools.py); the page shows it in the reader's language, with the same number. A name
// someone gave a computer seat is shown as given.
const ROOM_NAMED = /^(?:Bot|Computer) (\d+)$/;

/** A seat's shown name: a computer seat's room-given name in this page's language. */
export function seatName(name, computer) {
  const m = computer ? ROOM_NAMED.exec(name || "") : null;
  return m ? t("table.computer_n", { n: num(Number(m[1])) }) : name;
}

/** The table state with its computer seats' room-given names in this page's language. */
export function withSeatNames(state) {
  if (!state || !state.table || !state.table.seats) return state;
  const seats = state.table.seats.map((s) => {
    const name = seatName(s.name, s.kind === "bot");
    return name === s.name ? s : { ...s, name };
  });
  return { ...state, table: { ...state.table, seats } };
}
