// Between visits, on the front page: "Your move" (every game in play waiting on you,
// GET /api/your-move, the most pressing first) and the room's numbers (players online,
// games in play: GET /api/room).
import { api, h } from "./dom.js";

function left(g) {
  if (g.left === null || g.left === undefined) return "no time limit";
  const hours = Math.ceil(g.left / 3600);
  if (g.left < 3600) return `${Math.ceil(g.left / 60)} min left`;
  if (hours < 48) return `${hours} h left`;
  return `${Math.floor(hours / 24)} days ${hours % 24} h left`;
}

/** The "Your move" panel, or null when nothing waits on you. */
export async function yourMove() {
  let games;
  try { games = (await api("/api/your-move")).games; } catch { return null; }
  if (!games.length) return null;
  return h("section", { class: "panel your-move", "aria-labelledby": "your-move-title", "data-your-move": "" },
    h("h2", { id: "your-move-title", text: `Your move (${games.length})` }),
    h("ul", { class: "open-list" }, games.map((g) => h("li", { class: "open-row", "data-your-move-table": g.table },
      h("span", { class: "open-game", text: g.title }),
      h("span", { class: "open-rules", text: `against ${g.others.join(", ")} · round ${g.round}${g.rounds ? " of " + g.rounds : ""}` }),
      h("span", { class: "open-seats", text: (g.days ? `${g.days} day${g.days > 1 ? "s" : ""} a move · ` : "") + left(g) }),
      h("a", { class: "button primary", href: g.url, "data-action": "your-move", text: "Play your move" })))));
}

/** "3 players online · 2 games in play", or null if the server does not say. */
export async function roomLine() {
  let c;
  try { c = await api("/api/room"); } catch { return null; }
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  return h("p", { class: "room-counts muted", "data-room": "" },
    h("span", { "data-online": c.players_online, text: n(c.players_online, "player online", "players online") }), " · ",
    h("span", { "data-in-play": c.games_in_play, text: n(c.games_in_play, "game in play", "games in play") }));
}
