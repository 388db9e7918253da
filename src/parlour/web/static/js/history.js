// Your games: a personal history kept in this browser (localStorage key
// "parlour.history", at most 100 entries, newest first). Nothing of it is sent anywhere.
// Each entry: table id, game, date, players (names and computer levels), your seat,
// your placing, whether you won, and the link to the game's replay. A signed-in
// player's front page joins their account's games from the server (yourGames).
import { api } from "./dom.js";
import { num, t } from "./i18n.js";

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

/** A finished game's result from the server's facts (place, players, shared, gone), in
 *  this page's language: "won", "lost", "2nd of 4"... as the profile page says it. */
export function resultWords(g) {
  if (g.gone) return t("profile.result.left");
  if (g.place === 1) return t(g.shared ? "profile.result.shared_win" : "profile.result.won");
  if (g.players === 2) return t("profile.result.lost");
  return t(g.shared ? "profile.result.shared_place" : "profile.result.place", { place: num(g.place), players: num(g.players) });
}

/** "Your games" for the front page, newest first: a signed-in player's from their
 *  account (GET /api/players/NAME: any device), then this browser's own not among
 *  them. ``{ account: the profile or null, rows: [{ table, title, at, won, placing, of,
 *  result (the server's words, or null), players: the others [{ name, level }], replay }] }``. */
export async function yourGames(me) {
  let rows = games().map((g) => ({
    table: g.table, title: g.title, at: new Date(g.at), won: g.won, placing: g.placing, of: g.of,
    result: null, players: g.players.filter((_, i) => i !== g.seat), replay: g.replay,
  }));
  let account = null;
  if (me && !me.guest && me.name) {
    try {
      account = await api(`/api/players/${encodeURIComponent(me.name)}`);
      const kept = account.games.map((g) => ({
        table: g.table, title: g.title, at: new Date(g.finished * 1000), won: g.place === 1,
        result: resultWords(g), players: g.opponents.map((name) => ({ name, level: null })), replay: g.replay,
      }));
      const known = new Set(kept.map((g) => g.table));
      rows = [...kept, ...rows.filter((g) => !known.has(g.table))].sort((a, b) => b.at - a.at);
    } catch { account = null; /* the server's list cannot be read: this browser's own */ }
  }
  return { account, rows };
}
