// Between visits, on the front page: "Your move" (every game in play waiting on you,
// GET /api/your-move, the most pressing first) and the room's numbers (players online,
// games in play: GET /api/room).
import { api, h } from "./dom.js";
import { list, num, t, tn } from "./i18n.js";

function left(g) {
  if (g.left === null || g.left === undefined) return t("between.no_limit");
  const hours = Math.ceil(g.left / 3600);
  if (g.left < 3600) return tn("between.min_left", Math.ceil(g.left / 60));
  if (hours < 48) return tn("between.hours_left", hours);
  return tn("between.days_left", Math.floor(hours / 24), { hours: num(hours % 24) });
}

/** The "Your move" panel, or null when nothing waits on you. */
export async function yourMove() {
  let games;
  try { games = (await api("/api/your-move")).games; } catch { return null; }
  if (!games.length) return null;
  return h("section", { class: "panel your-move", "aria-labelledby": "your-move-title", "data-your-move": "" },
    h("h2", { id: "your-move-title", text: t("between.title", { count: num(games.length) }) }),
    h("ul", { class: "open-list" }, games.map((g) => h("li", { class: "open-row", "data-your-move-table": g.table },
      h("span", { class: "open-game", text: g.title }),
      h("span", { class: "open-rules", text: t(g.rounds ? "between.against_of" : "between.against", { names: list(g.others), round: num(g.round), rounds: num(g.rounds || 0) }) }),
      h("span", { class: "open-seats", text: (g.days ? `${tn("between.days", g.days)} · ` : "") + left(g) }),
      h("a", { class: "button primary", href: g.url, "data-action": "your-move", text: t("between.play") })))));
}

/** "3 players online · 2 games in play", or null if the server does not say. */
export async function roomLine() {
  let c;
  try { c = await api("/api/room"); } catch { return null; }
  return h("p", { class: "room-counts muted", "data-room": "" },
    h("span", { "data-online": c.players_online, text: tn("between.online", c.players_online) }), " · ",
    h("span", { "data-in-play": c.games_in_play, text: tn("between.in_play", c.games_in_play) }));
}
