// The front page: quick play against the computer (one click, level remembered), the
// open public tables (join in one click) and games in play (watch), your own games,
// and the full form under "Custom table". Rule fields come from the server's list of
// each game's options (GET /api/games), worded by the game's page module.
import { roomLine, yourMove } from "./between.js";
import { api, append, clear, h, prefetch, seats } from "./dom.js";
import { whoAmI } from "./who.js";
import { yourGames } from "./history.js";
import { playPeople } from "./pool.js";
import { has, lang, list as joinWords, more, t, tg, tn } from "./i18n.js";
import { levelName, levelsFor } from "./levels.js";
import { seatName } from "./seatname.js";

const TIMERS = [["", t("lobby.timer.none")], ["30", tn("lobby.timer.seconds", 30)], ["60", tn("lobby.timer.minutes", 1)],
  ["120", tn("lobby.timer.minutes", 2)], ["300", tn("lobby.timer.minutes", 5)],
  ...[1, 3, 7].map((d) => [`days:${d}`, tn("lobby.timer.days", d)])];

// Each game's words for this page (its option words, a table's rules in a few words):
// the game's small words module, not its table-drawing page module.
const modules = {};
async function gameModule(name) {
  if (!modules[name]) {
    const game = encodeURIComponent(name);  // (a game without words.js: its page module)
    try { modules[name] = await import(`./games/${game}/words.js`); } catch {
      try { modules[name] = await import(`./games/${game}.js`); } catch { modules[name] = {}; }
    }
  }
  return modules[name];
}

export const level = {
  get(game) { return localStorage.getItem("parlour.level." + game) || "medium"; },
  set(game, v) { localStorage.setItem("parlour.level." + game, v); },
};

function playerName() { return localStorage.getItem("parlour.name") || ""; }

/** Your name before a seat from the public list: a small form in the row (then the
 *  button back, to show its errors). */
function askName(table, go, button) {
  const id = `open-name-${table}`;
  const input = h("input", { id, maxlength: 24, required: "", autocomplete: "nickname" });
  const form = h("form", { class: "ask-name", "data-ask-name": table },
    h("label", { for: id, text: t("table.join.name") }), input,
    h("button", { type: "submit", class: "primary", "data-action": "sit-named", text: t("lobby.open.join") }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) { input.focus(); return; }
    form.replaceWith(button);
    go(name);
  });
  setTimeout(() => input.focus(), 0);
  return form;
}

/** Create a table and go to it (a table of you and computers starts itself: table.js). */
async function createAndGo(body) {
  const joined = await api("/api/tables", { method: "POST", body });
  if (joined.role === "seat") {
    seats.set(joined.table, { token: joined.token, seat: joined.seat, rejoin: joined.rejoin_url || null });
    location.assign(`/t/${joined.table}`);
  } else {
    location.assign(joined.table_url);  // computers only: watch it
  }
}

function quickPlay(g) {
  const levels = levelsFor(g);
  const id = "level-" + g.name;
  const chosen = level.get(g.name);
  const sel = h("select", { id, "aria-label": t("lobby.level_for", { game: g.title }) },
    levels.map(([v, label]) => h("option", { value: v, selected: v === chosen, text: label })));
  const desc = h("small", { class: "help" });
  const show = () => { desc.textContent = (levels.find(([v]) => v === sel.value) || [])[2] || ""; };
  sel.addEventListener("change", () => { level.set(g.name, sel.value); show(); });
  show();
  const error = h("p", { class: "error", role: "alert" });
  const players = g.usual_players;  // the game's own default table size (GET /api/games)
  const button = h("button", { type: "button", class: "primary big", "data-action": "quick-play", "data-game": g.name,
    text: t("lobby.play_now", { game: g.title }) });
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.textContent = "";
    const seatsSpec = [{ kind: "person" }, ...Array.from({ length: players - 1 }, () => ({ kind: "bot", bot: sel.value }))];
    try {
      await createAndGo({ game: g.name, players, seats: seatsSpec, name: playerName(), standin: sel.value });
    } catch (e) { error.textContent = e.message; button.disabled = false; }
  });
  return h("article", { class: "quick panel" },
    h("h2", { text: g.title }),
    h("p", { class: "muted", text: [has(`${g.name}.blurb`, "game") ? tg(`${g.name}.blurb`) : "", tn("lobby.you_and_computers", players - 1)].filter(Boolean).join(" ") }),
    h("div", { class: "field" }, h("label", { for: id, text: t("lobby.level") }), sel, desc),
    button, error, playPeople(g, players, playerName),
    h("p", {}, h("a", { href: `/rules/${g.name}`, text: t("lobby.how_to_play", { game: g.title }) })));
}

function openTables(list, words) {
  const box = h("section", { class: "panel open-tables", "aria-labelledby": "open-title" },
    h("h2", { id: "open-title", text: t("lobby.open.title") }));
  const waiting = list.filter((tb) => tb.status === "waiting" && tb.free > 0);
  const playing = list.filter((tb) => tb.status === "playing");
  if (!waiting.length && !playing.length) {
    box.append(h("p", { class: "muted", text: t("lobby.open.none") }));
    return box;
  }
  const row = (tb, action) => h("li", { class: "open-row" },
    h("span", { class: "open-game", text: tb.title }),
    h("span", { class: "open-rules" }, (words[tb.game] && words[tb.game].summary ? words[tb.game].summary(tb.rules) : ""),
      // the players' names tell two tables of the same game and rules apart (a computer's
      // room-given name in this language: no person may take such a name, server/names.py)
      tb.names && tb.names.length ? h("span", { class: "open-names", "data-names": "", text: joinWords(tb.names.map((n) => seatName(n, true))) }) : null),
    h("span", { class: "open-seats", text: tb.status === "waiting" ? tn("lobby.open.free", tb.free, { host: tb.host })
      : [t("lobby.open.round", { round: tb.round, rounds: tb.rounds }), tn("lobby.players", tb.players)].join(" · ") }),
    action);
  if (waiting.length) {
    box.append(h("h3", { text: t("lobby.open.join_title") }), h("ul", { class: "open-list" }, waiting.map((tb) => {
      const b = h("button", { type: "button", class: "primary", "data-open-table": tb.id, text: t("lobby.open.join") });
      const sit = async (name) => {
        b.disabled = true;
        try {
          const j = await api(`/api/tables/${tb.id}/sit`, { method: "POST", body: { name } });
          seats.set(j.table, { token: j.token, seat: j.seat, rejoin: j.rejoin_url || null });
          location.assign(`/t/${j.table}`);
        } catch (e) { b.disabled = false; b.after(h("span", { class: "error", role: "alert", text: " " + e.message })); }
      };
      b.addEventListener("click", async () => {
        // the name kept in this browser, or the signed-in / guest name; else ask for one
        // (never "Player 2" for someone who was not asked)
        const known = playerName() || (await whoAmI()).name || "";
        if (known) { sit(known); return; }
        b.replaceWith(askName(tb.id, (name) => { localStorage.setItem("parlour.name", name); sit(name); }, b));
      });
      return row(tb, b);
    })));
  }
  if (playing.length) {
    box.append(h("h3", { text: t("lobby.open.watch_title") }), h("ul", { class: "open-list" }, playing.map((tb) =>
      row(tb, h("a", { class: "button", href: tb.watch_url, "data-watch-table": tb.id, text: t("lobby.open.watch") })))));
  }
  return box;
}

async function history() {
  const { account, rows } = await yourGames(await whoAmI());
  if (!rows.length) return null;
  return h("section", { class: "panel my-games", "aria-labelledby": "mine-title" },
    h("h2", { id: "mine-title", text: t("lobby.mine.title") }),
    h("p", { class: "muted", text: account ? tn("lobby.mine.account", account.played)
      : t("lobby.mine.summary", { played: tn("lobby.mine.played", rows.length), won: rows.filter((g) => g.won).length }) }),
    h("ul", { class: "history" }, rows.slice(0, 10).map((g) => h("li", { "data-my-game": g.table },
      h("span", { text: `${g.title} · ${g.at.toLocaleDateString()} · ` }),
      h("strong", { text: g.result || (g.won ? t("lobby.mine.won") : t("lobby.mine.placed", { placing: g.placing, of: g.of })) }),
      h("span", { class: "muted", text: " " + t("lobby.mine.against", { names: g.players.map((p) => p.level ? t("lobby.computer_level", { level: levelName(p.level) }) : p.name).join(", ") }) + " · " }),
      g.replay ? h("a", { href: g.replay, "data-replay": g.table, text: t("lobby.mine.replay") }) : null))));
}

function ruleField(opt, players, words) {
  const id = "rule-" + opt.name;
  const def = opt.default[String(players)];
  const w = (words.options || {})[opt.name] || {};
  let input;
  if (opt.choices.length) {
    input = h("select", { id, name: id, "data-kind": opt.kind },
      opt.choices.map((c) => h("option", { value: String(c), selected: c === def,
        text: (w.choices && w.choices[String(c)]) || String(c) })));
  } else {
    input = h("input", { id, name: id, type: "number", "data-kind": opt.kind,
      min: opt.minimum ?? null, value: def, inputmode: "numeric", required: true });
  }
  const help = w.help || opt.help.replace(/\s*\((?:(?:FA|FT|C)-\d+(?:,\s*)?)+\)/g, "");
  return h("div", { class: "field" },
    h("label", { for: id, text: w.label || opt.name.replaceAll("_", " ") }), input,
    h("small", { class: "help", text: help }));
}

function levelOptions(game, selected) {
  return levelsFor(game).map(([v, label, line]) =>
    h("option", { value: "bot:" + v, selected: v === selected, text: t("lobby.seat.computer", { level: label.toLocaleLowerCase(lang) }) + (line ? ": " + line : "") }));
}

function seatRow(i, game) {
  const id = "seat-" + i;
  if (i === 0) {
    const sel = h("select", { id, name: id, "aria-label": t("lobby.seat", { n: 1 }) },
      h("option", { value: "you", text: t("lobby.seat.you"), selected: true }), levelOptions(game, null));
    return h("li", { class: "seat-choice" }, h("label", { for: id, class: "seat-no", text: t("lobby.seat", { n: 1 }) }), sel);
  }
  const select = h("select", { id, name: id, "aria-label": t("lobby.seat", { n: i + 1 }) },
    levelOptions(game, level.get(game.name)),
    h("option", { value: "person", text: t("lobby.seat.person") }));
  return h("li", { class: "seat-choice" }, h("label", { for: id, class: "seat-no", text: t("lobby.seat", { n: i + 1 }) }), select);
}

function customForm(games, words) {
  // Busy until the game's own words for its rules are here: the raw option values are
  // never shown (the rules fieldset stays hidden meanwhile, see css/front.css).
  const form = h("form", { class: "create", "aria-label": t("lobby.custom"), "aria-busy": "true" });
  const gameSel = h("div", { class: "game-pick", role: "radiogroup", "aria-label": t("lobby.game") });
  const body = h("div");
  const error = h("p", { class: "error", role: "alert" });
  let current = games[0];

  function renderBody() {
    const players = Number(form.players?.value || Math.min(4, current.max_players));
    clear(body);
    const playerSel = h("select", { id: "players", name: "players" },
      Array.from({ length: current.max_players - current.min_players + 1 }, (_, k) => {
        const n = current.min_players + k;
        return h("option", { value: n, selected: n === players || (players > current.max_players && n === current.max_players), text: tn("lobby.players", n) });
      }));
    playerSel.addEventListener("change", renderBody);
    const n = Number(playerSel.value);
    const w = words[current.name] || {};
    body.append(
      h("div", { class: "field" }, h("label", { for: "players", text: t("lobby.players_label") }), playerSel),
      h("fieldset", { class: "seats" }, h("legend", { text: t("lobby.seats") }),
        h("ol", {}, Array.from({ length: n }, (_, i) => seatRow(i, current)))),
      h("fieldset", { class: "rules" }, h("legend", { text: t("lobby.rules") }),
        current.options.map((o) => ruleField(o, n, w)),
        h("p", {}, h("a", { href: `/rules/${current.name}`, target: "_blank", text: t("lobby.rules_link") }))),
      h("fieldset", { class: "extras" }, h("legend", { text: t("lobby.table") }),
        h("div", { class: "field check" }, h("label", { for: "public" },
          h("input", { type: "checkbox", id: "public", name: "public" }), " " + t("lobby.public")),
          h("small", { class: "help", text: t("lobby.public.help") })),
        h("div", { class: "field check" }, h("label", { for: "rated" },
          h("input", { type: "checkbox", id: "rated", name: "rated", "data-action": "rated" }), " " + t("lobby.rated")),
          h("small", { class: "help", text: t("lobby.rated.help") })),
        h("div", { class: "field" }, h("label", { for: "timer", text: t("lobby.timer") }),
          h("select", { id: "timer", name: "timer" }, TIMERS.map(([v, words]) => h("option", { value: v, text: words }))),
          h("small", { class: "help", text: t("lobby.timer.help") })),
        h("div", { class: "field" }, h("label", { for: "standin", text: t("lobby.standin") }),
          h("select", { id: "standin", name: "standin" }, levelsFor(current).map(([v, label]) => h("option", { value: v, selected: v === "medium", text: t("lobby.seat.computer", { level: label.toLocaleLowerCase(lang) }) }))),
          h("small", { class: "help", text: t("lobby.standin.help") }))));
  }

  for (const g of games) {
    const id = "game-" + g.name;
    const radio = h("input", { type: "radio", name: "game", id, value: g.name, checked: g === current });
    radio.addEventListener("change", () => { current = g; renderBody(); });
    gameSel.append(h("label", { class: "game-option", for: id }, radio,
      h("span", { class: "game-name", text: g.title }),
      h("small", { text: t("lobby.player_range", { min: g.min_players, max: g.max_players }) })));
  }
  const name = h("input", { id: "name", name: "name", maxlength: 24, autocomplete: "nickname",
    placeholder: t("lobby.name"), value: playerName() });
  form.append(h("div", { class: "field" }, h("label", { for: "name", text: t("lobby.name") }), name),
    gameSel, body, error,
    h("button", { type: "submit", class: "primary", "data-action": "create", text: t("lobby.create") }));
  renderBody();
  // The game's own words for its rules, once its page module is here (texts only: what
  // the player already chose stays).
  form.relabel = () => {
    const w = words[current.name] || {};
    for (const o of current.options) {
      const ow = (w.options || {})[o.name] || {};
      const input = form.querySelector("#rule-" + o.name);
      if (!input) continue;
      const field = input.closest(".field");
      if (ow.label) field.querySelector("label").textContent = ow.label;
      if (ow.help) field.querySelector(".help").textContent = ow.help;
      if (ow.choices) for (const c of input.querySelectorAll("option")) c.textContent = ow.choices[c.value] || c.textContent;
    }
    form.removeAttribute("aria-busy");
  };

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const n = Number(form.players.value);
    const rules = {};
    for (const o of current.options) {
      const v = form["rule-" + o.name].value;
      rules[o.name] = o.kind === "int" ? Number(v) : o.kind === "bool" ? v === "true" : v;
    }
    const seatSpecs = [];
    for (let i = 0; i < n; i++) {
      const v = form["seat-" + i].value;
      seatSpecs.push(v === "person" || v === "you" ? { kind: "person" } : { kind: "bot", bot: v.slice(4) });
    }
    const clock = form.timer.value;
    const body = { game: current.name, players: n, rules, seats: seatSpecs, name: name.value.trim(),
      timer: clock && !clock.startsWith("days:") ? Number(clock) : null, standin: form.standin.value };
    if (clock.startsWith("days:")) body.days = Number(clock.slice(5));
    if (form.public.checked) body.public = true;
    if (form.rated.checked) body.rated = true;
    try {
      localStorage.setItem("parlour.name", name.value.trim());
      await createAndGo(body);
    } catch (e) { error.textContent = e.message; }
  });
  return form;
}

export async function showLobby(app) {
  document.getElementById("title").textContent = "";
  document.title = t("lobby.doc_title");
  let games;
  try { games = await api("/api/games"); } catch (e) {
    clear(app).append(h("p", { class: "error", text: t("lobby.unreachable", { reason: e.message }) }));
    return;
  }
  // The games' page modules word the custom form's rules and the open tables' summaries:
  // fetched when those are wanted, not with the front page (which stays light).
  const words = {};
  let options = null;
  const loadWords = async () => {
    await (options ||= more("options"));  // the front page's words leave them out (server/pages.py)
    await Promise.all(games.map(async (g) => { words[g.name] = (await gameModule(g.name)).words || {}; }));
  };
  const open = h("div", { class: "open-slot" });
  const waiting = h("div", { class: "your-move-slot" });
  const counts = h("div", { class: "room-slot" });
  const friends = h("div", { class: "friends-slot" });
  const mine = h("div", { class: "my-games-slot" });
  const details = h("details", { class: "panel custom" },
    h("summary", { "data-action": "custom", text: t("lobby.custom.summary") }),
    customForm(games, words));
  const form = details.querySelector("form");
  const wanted = () => { loadWords().then(() => form.relabel()); };
  details.addEventListener("toggle", wanted, { once: true });
  details.querySelector("summary").addEventListener("pointerover", wanted, { once: true });
  append(clear(app), [
    h("section", { class: "intro" },
      h("h1", { text: t("lobby.heading") }),
      h("p", { text: t("lobby.intro") }),
      counts),
    waiting,
    h("section", { class: "quick-row", "aria-label": t("lobby.quick") }, games.map((g) => quickPlay(g))),
    friends, open, mine, details,
    h("p", { class: "muted" }, t("lobby.leaderboards") + " ", games.map((g, i) => [i ? ", " : "",
      h("a", { href: `/leaderboard/${g.name}`, "data-leaderboard": g.name, text: g.title })]), " · ",
      h("a", { href: "/verify", text: t("lobby.verify") }), " · ",
      h("a", { href: "/replay", text: t("lobby.replay") }))]);
  // Quick play goes straight to a table: its modules are fetched as soon as a hand moves
  // towards the buttons (not with the front page, which stays light).
  const warm = () => { import("./table.js").catch(() => {}); prefetch("/static/css/table.css"); };
  for (const ev of ["pointerover", "focusin", "touchstart"]) app.addEventListener(ev, (e) => {
    if (e.target.closest && e.target.closest(".quick-row, .open-tables, form.create")) warm();
  }, { passive: true });
  yourMove().then((el) => { if (el) waiting.append(el); });
  roomLine().then((el) => { if (el) counts.append(el); });
  // the friends panel's module only for someone with friends or invitations (a light page)
  api("/api/friends").then((d) => (d.following.length || d.invites.length
    ? import("./people.js").then((m) => m.friendsPanel(d)) : null))
    .then((p) => { if (p) friends.append(p); }).catch(() => {});
  history().then((p) => { if (p) mine.append(p); });
  try {
    const list = await api("/api/open-tables");
    if (list.length) await loadWords();
    open.append(openTables(list, modules));
  } catch { /* an older server without the list: nothing to show */ }
}
