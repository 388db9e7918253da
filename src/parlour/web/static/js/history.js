// Your games: a personal history kept in this browser only (localStorage key
// "parlour.history", at most 100 entries, newest first). Nothing is sent anywhere.
// Each entry: table id, game, date, players (names and computer levels), your seat,
// your placing, whether you won, and the link to the game's replay.
const KEY = "parlour.history";
const LIMIT = 100;

export function games() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch { return []; }
}

/** Remember a finished game once (called when the end screen is shown to a seat). */
export function remember(state, lower) {
  const t = state.table;
  if (state.you === null || state.you === undefined || t.status !== "over") return;
  const list = games();
  if (list.some((g) => g.table === t.id)) return;
  const totals = state.totals || [];
  const mine = totals[state.you];
  const better = totals.filter((v) => (lower ? v < mine : v > mine)).length;
  list.unshift({
    table: t.id, game: t.game, title: t.title, at: new Date().toISOString(),
    players: t.seats.map((s) => ({ name: s.name, level: s.kind === "bot" ? s.bot : null })),
    seat: state.you, placing: better + 1, of: totals.length,
    won: (state.winners || []).includes(state.you), replay: `/replay/${t.id}`,
  });
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, LIMIT)));
}

export function forget() { localStorage.removeItem(KEY); }
