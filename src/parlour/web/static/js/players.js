// The ratings' pages: a game's leaderboard (/leaderboard/GAME) and a player's profile
// (/u/NAME), drawn from GET /api/leaderboard/GAME and GET /api/players/NAME. The rating
// chart is an SVG drawn here from the profile's history (no library).
import { api, append, clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { profileActions } from "./people.js";

const SVG = "http://www.w3.org/2000/svg";

function shownRating(r) {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

function playerLink(name) {
  return name ? h("a", { href: `/u/${encodeURIComponent(name)}`, text: name }) : h("span", { text: "a former player" });
}

function fail(app, message, title) {
  append(clear(app), [h("section", { class: "panel" }, h("h1", { text: title }), h("p", { class: "error", role: "alert", text: message }),
    h("p", {}, h("a", { href: "/", text: "Back to the front page" })))]);
}

export async function showLeaderboard(app, game) {
  const pool = new URLSearchParams(location.search).get("pool");
  let board;
  try {
    board = await api(`/api/leaderboard/${encodeURIComponent(game)}${pool ? "?pool=" + encodeURIComponent(pool) : ""}`);
  } catch (e) { fail(app, e.message, t("nowhere.board.title")); return; }
  document.title = `${board.title} leaderboard · parlour`;
  document.getElementById("title").textContent = `${board.title} leaderboard`;
  const tabs = h("nav", { class: "pool-tabs", "aria-label": "Table size" }, board.pools.map((p) =>
    h("a", { href: `/leaderboard/${game}?pool=${encodeURIComponent(p.pool)}`, class: "button" + (p.pool === board.pool ? " primary" : ""),
      "aria-current": p.pool === board.pool ? "page" : null, text: p.label })));
  const body = board.rows.length
    ? h("table", { class: "board" },
      h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Rated games", "Won"].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, board.rows.map((r) => h("tr", { "data-leader-row": "", "data-name": r.name },
        h("td", { text: String(r.place) }), h("td", {}, playerLink(r.name)),
        h("td", { class: "num", "data-rating": r.rating, title: r.provisional ? "provisional: a few more games make it certain" : null, text: shownRating(r) }),
        h("td", { class: "num", text: String(r.games) }), h("td", { class: "num", text: String(r.wins) })))))
    : h("p", { class: "muted", text: `Nobody has played ${board.min_games} rated games at this table size yet.` });
  append(clear(app), [h("section", { class: "panel standings" },
    h("h1", { text: `${board.label}: the best players` }), tabs, body,
    h("p", { class: "muted", text: `Players with at least ${board.min_games} rated game${board.min_games === 1 ? "" : "s"}, best rating first. A rating marked ? is provisional. Ratings change only in rated games between people: tick "Rated game" when you make a table.` }))]);
}

function chart(points, label) {
  // One line: the rating after each rated game, oldest on the left.
  const w = 560, hgt = 160, pad = 34;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  const values = [1500, ...points.map((p) => p.rating)];
  svg.setAttribute("aria-label", `${label}: rating from 1500 to ${values[values.length - 1]} over ${points.length} rated games`);
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 40) { lo -= 20; hi += 20; }
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v) => hgt - pad / 2 - ((v - lo) * (hgt - pad)) / (hi - lo);
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  for (const v of [lo, hi]) {
    el("line", { x1: pad, x2: w - pad / 2, y1: y(v), y2: y(v), class: "grid" });
    el("text", { x: 2, y: y(v) + 4, class: "axis" }, String(Math.round(v)));
  }
  el("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" });
  values.forEach((v, i) => { if (i) el("circle", { cx: x(i), cy: y(v), r: 3, class: "dot" }).append(Object.assign(document.createElementNS(SVG, "title"), { textContent: `after game ${i}: ${v}` })); });
  return svg;
}

function ratingCard(game, r, history) {
  const pools = Object.entries(r.pools || {});
  return h("article", { class: "rating-card" },
    h("h3", {}, h("a", { href: `/leaderboard/${game}?pool=${encodeURIComponent(r.pool)}`, text: r.label })),
    h("p", { class: "big-rating", "data-rating": r.rating, "data-game": game, "data-pool": r.pool,
      text: shownRating(r) }),
    h("p", { class: "muted", text: `${r.games} rated game${r.games === 1 ? "" : "s"}, ${r.wins} won${r.provisional ? " · provisional" : ""}` }),
    (history[r.pool] || []).length ? chart(history[r.pool], r.label) : null,
    pools.length > 1 ? h("ul", { class: "other-pools" }, pools.filter(([p]) => p !== r.pool).map(([p, o]) =>
      h("li", { "data-rating": o.rating, "data-pool": p, text: `${o.label}: ${shownRating(o)} (${o.games} games)` }))) : null);
}

function change(n) {
  if (n === null || n === undefined) return "not rated";
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

export async function showProfile(app, name) {
  let p;
  try { p = await api(`/api/players/${encodeURIComponent(name)}`); } catch (e) { fail(app, e.message, t("nowhere.player.title")); return; }
  document.title = `${p.name} · parlour`;
  document.getElementById("title").textContent = p.name;
  const games = Object.entries(p.ratings);
  append(clear(app), [h("section", { class: "panel profile" },
    h("h1", {}, p.name, p.guest ? h("small", { class: "muted", text: " (guest)" }) : null),
    await profileActions(p),
    h("p", { "data-played": p.played, text: `${p.played} game${p.played === 1 ? "" : "s"} finished here; ${p.rated_games} rated, ${p.rated_wins} won.` }),
    h("h2", { text: "Ratings" }),
    games.length ? h("div", { class: "rating-cards" }, games.map(([g, r]) => ratingCard(g, r, p.history)))
      : h("p", { class: "muted", text: "No rated games yet." }),
    h("p", { class: "muted explain", text: p.explain }),
    h("h2", { text: "Recent games" }),
    p.games.length ? h("ul", { class: "history recent" }, p.games.map((g) => h("li", { "data-game-row": g.table },
      h("span", { text: `${g.title} · ${new Date(g.finished * 1000).toLocaleDateString()} · ` }),
      h("strong", { text: g.result }),
      h("span", { class: "muted", text: ` against ${g.opponents.join(", ") || "nobody"} · ` }),
      h("span", { class: "change", text: g.rated ? `${change(g.change)} (now ${g.rating}) · ` : "not rated · " }),
      g.replay ? h("a", { href: g.replay, "data-replay": g.table, text: "replay" }) : h("span", { class: "muted", text: "replay no longer kept" }))))
      : h("p", { class: "muted", text: "No finished games yet." }),
    h("h2", { text: "Against each opponent (rated games)" }),
    p.opponents.length ? h("table", { class: "board" },
      h("thead", {}, h("tr", {}, ["Opponent", "Games", "You placed ahead", "Behind", "Tied"].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, p.opponents.map((o) => h("tr", { "data-opponent": o.name },
        h("td", {}, playerLink(o.name)), h("td", { class: "num", text: String(o.games) }),
        h("td", { class: "num", text: String(o.won) }), h("td", { class: "num", text: String(o.lost) }),
        h("td", { class: "num", text: String(o.level) })))))
      : h("p", { class: "muted", text: "No rated games against anyone yet." }))]);
}
