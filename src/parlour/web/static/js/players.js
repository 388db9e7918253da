// The ratings' pages: a game's leaderboard (/leaderboard/GAME) and a player's profile
// (/u/NAME), drawn from GET /api/leaderboard/GAME and GET /api/players/NAME. The rating
// chart is an SVG drawn here from the profile's history (no library).
import { api, append, clear, h } from "./dom.js";
import { lang, list, num, t, tn } from "./i18n.js";
import { resultWords } from "./history.js";
import { profileActions } from "./people.js";

const SVG = "http://www.w3.org/2000/svg";

function shownRating(r) {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

/** A rating pool in words ("Fanti, 2 players", "Fan Tan, 5 to 8 players") from its id
 *  (GAME or GAME:N or GAME:LO-HI, as server/ratings.py names them). */
function poolWords(pool, title) {
  const span = pool.split(":")[1];
  if (!span) return title;
  const [lo, hi] = span.split("-").map(Number);
  if (!hi) return tn("board.pool", lo, { game: title });
  return t(hi === lo + 1 ? "board.pool.or" : "board.pool.to", { game: title, lo: num(lo), hi: num(hi) });
}

function playerLink(name) {
  return name ? h("a", { href: `/u/${encodeURIComponent(name)}`, text: name }) : h("span", { text: t("board.former") });
}

function fail(app, message, title) {
  append(clear(app), [h("section", { class: "panel" }, h("h1", { text: title }), h("p", { class: "error", role: "alert", text: message }),
    h("p", {}, h("a", { href: "/", text: t("nowhere.front_plain") })))]);
}

export async function showLeaderboard(app, game) {
  const pool = new URLSearchParams(location.search).get("pool");
  let board;
  try {
    board = await api(`/api/leaderboard/${encodeURIComponent(game)}${pool ? "?pool=" + encodeURIComponent(pool) : ""}`);
  } catch (e) { fail(app, e.message, t("nowhere.board.title")); return; }
  document.title = t("board.tab", { game: board.title });
  document.getElementById("title").textContent = t("board.bar", { game: board.title });
  const tabs = h("nav", { class: "pool-tabs", "aria-label": t("board.sizes") }, board.pools.map((p) =>
    h("a", { href: `/leaderboard/${game}?pool=${encodeURIComponent(p.pool)}`, class: "button" + (p.pool === board.pool ? " primary" : ""),
      "aria-current": p.pool === board.pool ? "page" : null, text: poolWords(p.pool, board.title) })));
  const body = board.rows.length
    ? h("table", { class: "board" },
      h("thead", {}, h("tr", {}, ["place", "player", "rating", "games", "won"].map((k) => h("th", { scope: "col", text: t(`board.col.${k}`) })))),
      h("tbody", {}, board.rows.map((r) => h("tr", { "data-leader-row": "", "data-name": r.name },
        h("td", { text: num(r.place) }), h("td", {}, playerLink(r.name)),
        h("td", { class: "num", "data-rating": r.rating, title: r.provisional ? t("board.provisional") : null, text: shownRating(r) }),
        h("td", { class: "num", text: num(r.games) }), h("td", { class: "num", text: num(r.wins) })))))
    : h("p", { class: "muted", text: tn("board.none", board.min_games) });
  append(clear(app), [h("section", { class: "panel standings" },
    h("h1", { text: t("board.heading", { pool: poolWords(board.pool, board.title) }) }), tabs, body,
    h("p", { class: "muted", text: tn("board.explain", board.min_games) }))]);
}

function chart(points, label) {
  // One line: the rating after each rated game, oldest on the left.
  const w = 560, hgt = 160, pad = 34;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  const values = [1500, ...points.map((p) => p.rating)];
  svg.setAttribute("aria-label", tn("profile.chart", points.length, { label, from: "1500", to: String(values[values.length - 1]) }));
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
  values.forEach((v, i) => { if (i) el("circle", { cx: x(i), cy: y(v), r: 3, class: "dot" }).append(Object.assign(document.createElementNS(SVG, "title"), { textContent: t("profile.chart.dot", { n: num(i), rating: String(v) }) })); });
  return svg;
}

function ratingCard(game, r, history) {
  const pools = Object.entries(r.pools || {});
  const label = poolWords(r.pool, r.title);
  return h("article", { class: "rating-card" },
    h("h3", {}, h("a", { href: `/leaderboard/${game}?pool=${encodeURIComponent(r.pool)}`, text: label })),
    h("p", { class: "big-rating", "data-rating": r.rating, "data-game": game, "data-pool": r.pool,
      text: shownRating(r) }),
    h("p", { class: "muted", text: tn("profile.card", r.games, { won: num(r.wins) }) + (r.provisional ? ` · ${t("profile.provisional")}` : "") }),
    (history[r.pool] || []).length ? chart(history[r.pool], label) : null,
    pools.length > 1 ? h("ul", { class: "other-pools" }, pools.filter(([p]) => p !== r.pool).map(([p, o]) =>
      h("li", { "data-rating": o.rating, "data-pool": p, text: tn("profile.other_pool", o.games, { pool: poolWords(p, o.title), rating: shownRating(o) }) }))) : null);
}

function change(n) {
  if (n === null || n === undefined) return t("profile.not_rated");
  return n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : "±0";
}

export async function showProfile(app, name) {
  let p;
  try { p = await api(`/api/players/${encodeURIComponent(name)}`); } catch (e) { fail(app, e.message, t("nowhere.player.title")); return; }
  document.title = `${p.name} · parlour`;
  document.getElementById("title").textContent = p.name;
  const games = Object.entries(p.ratings);
  append(clear(app), [h("section", { class: "panel profile" },
    h("h1", {}, p.name, p.guest ? h("small", { class: "muted", text: ` ${t("profile.guest")}` }) : null),
    await profileActions(p),
    h("p", { "data-played": p.played, text: tn("profile.played", p.played, { rated: num(p.rated_games), won: num(p.rated_wins) }) }),
    h("h2", { text: t("profile.ratings") }),
    games.length ? h("div", { class: "rating-cards" }, games.map(([g, r]) => ratingCard(g, r, p.history)))
      : h("p", { class: "muted", text: t("profile.no_ratings") }),
    h("p", { class: "muted explain", text: t("profile.explain", { base: String(p.base || 1500) }) }),
    h("h2", { text: t("profile.recent") }),
    p.games.length ? h("ul", { class: "history recent" }, p.games.map((g) => h("li", { "data-game-row": g.table },
      h("span", { text: `${g.title} · ${new Date(g.finished * 1000).toLocaleDateString(lang, { numberingSystem: "latn" })} · ` }),
      h("strong", { text: resultWords(g) }),
      h("span", { class: "muted", text: ` ${g.opponents.length ? t("lobby.mine.against", { names: list(g.opponents) }) : t("profile.nobody")} · ` }),
      h("span", { class: "change", text: `${g.rated ? t("profile.change", { change: change(g.change), rating: String(g.rating) }) : t("profile.not_rated")} · ` }),
      g.replay ? h("a", { href: g.replay, "data-replay": g.table, text: t("lobby.mine.replay") }) : h("span", { class: "muted", text: t("profile.replay_gone") }))))
      : h("p", { class: "muted", text: t("profile.no_games") }),
    h("h2", { text: t("profile.opponents") }),
    p.opponents.length ? h("table", { class: "board" },
      h("thead", {}, h("tr", {}, ["opponent", "games", "ahead", "behind", "tied"].map((k) => h("th", { scope: "col", text: t(`profile.col.${k}`) })))),
      h("tbody", {}, p.opponents.map((o) => h("tr", { "data-opponent": o.name },
        h("td", {}, playerLink(o.name)), h("td", { class: "num", text: num(o.games) }),
        h("td", { class: "num", text: num(o.won) }), h("td", { class: "num", text: num(o.lost) }),
        h("td", { class: "num", text: num(o.level) })))))
      : h("p", { class: "muted", text: t("profile.no_opponents") }))]);
}
