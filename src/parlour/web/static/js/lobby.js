// The lobby: create a table. The rule fields are generated from the server's list of
// each game's options (GET /api/games), so a new option needs no change here.
import { api, clear, h, seats } from "./dom.js";

const TIMERS = [["", "Off"], ["30", "30 s"], ["60", "1 min"], ["120", "2 min"], ["300", "5 min"]];

function ruleField(opt, players) {
  const id = "rule-" + opt.name;
  const def = opt.default[String(players)];
  let input;
  if (opt.choices.length) {
    input = h("select", { id, name: id, "data-kind": opt.kind },
      opt.choices.map((c) => h("option", { value: String(c), selected: c === def, text: String(c) })));
  } else {
    input = h("input", { id, name: id, type: "number", "data-kind": opt.kind,
      min: opt.minimum ?? null, value: def, inputmode: "numeric", required: true });
  }
  return h("div", { class: "field" },
    h("label", { for: id, text: opt.name.replaceAll("_", " ") }), input,
    h("small", { class: "help", text: opt.help }));
}

function seatRow(i, game) {
  const id = "seat-" + i;
  if (i === 0) {
    return h("li", { class: "seat-choice" }, h("span", { class: "seat-no", text: "Seat 1" }),
      h("span", { class: "you", text: "You" }));
  }
  const select = h("select", { id, name: id, "aria-label": `Seat ${i + 1}` },
    game.bots.map((b) => h("option", { value: "bot:" + b, selected: b === game.default_bot, text: `Computer: ${b}` })),
    h("option", { value: "person", text: "A person (invite link)" }));
  return h("li", { class: "seat-choice" }, h("label", { for: id, class: "seat-no", text: `Seat ${i + 1}` }), select);
}

export async function showLobby(app) {
  document.getElementById("title").textContent = "";
  document.title = "parlour: Fanti and Fan Tan";
  let games;
  try { games = await api("/api/games"); } catch (e) {
    clear(app).append(h("p", { class: "error", text: "The server cannot be reached: " + e.message }));
    return;
  }
  const form = h("form", { class: "panel create", "aria-labelledby": "create-title" });
  const gameSel = h("div", { class: "game-pick", role: "radiogroup", "aria-label": "Game" });
  const body = h("div");
  const error = h("p", { class: "error", role: "alert" });
  let current = games.find((g) => g.name === "fantan") || games[0];

  function renderBody() {
    const players = Number(form.players?.value || Math.min(4, current.max_players));
    clear(body);
    const playerSel = h("select", { id: "players", name: "players" },
      Array.from({ length: current.max_players - current.min_players + 1 }, (_, k) => {
        const n = current.min_players + k;
        return h("option", { value: n, selected: n === players || (players > current.max_players && n === current.max_players), text: `${n} players` });
      }));
    playerSel.addEventListener("change", renderBody);
    const n = Number(playerSel.value);
    body.append(
      h("div", { class: "field" }, h("label", { for: "players", text: "Players" }), playerSel),
      h("fieldset", { class: "seats" }, h("legend", { text: "Seats" }),
        h("ol", {}, Array.from({ length: n }, (_, i) => seatRow(i, current)))),
      h("fieldset", { class: "rules" }, h("legend", { text: "Rules" }),
        current.options.map((o) => ruleField(o, n))),
      h("fieldset", { class: "extras" }, h("legend", { text: "Table" }),
        h("div", { class: "field" }, h("label", { for: "timer", text: "Turn timer" }),
          h("select", { id: "timer", name: "timer" }, TIMERS.map(([v, t]) => h("option", { value: v, text: t }))),
          h("small", { class: "help", text: "When time runs out, the computer plays that turn; the player takes the seat back any time." })),
        h("div", { class: "field" }, h("label", { for: "standin", text: "Stand-in" }),
          h("select", { id: "standin", name: "standin" }, current.bots.map((b) => h("option", { value: b, selected: b === current.default_bot, text: `Computer: ${b}` }))),
          h("small", { class: "help", text: "Plays for a player who times out or stays disconnected." }))));
  }

  for (const g of games) {
    const id = "game-" + g.name;
    const radio = h("input", { type: "radio", name: "game", id, value: g.name, checked: g === current });
    radio.addEventListener("change", () => { current = g; renderBody(); });
    gameSel.append(h("label", { class: "game-option", for: id }, radio,
      h("span", { class: "game-name", text: g.title }),
      h("small", { text: `${g.min_players}–${g.max_players} players` })));
  }
  const name = h("input", { id: "name", name: "name", maxlength: 24, autocomplete: "nickname",
    placeholder: "Your name", value: localStorage.getItem("parlour.name") || "" });
  form.append(
    h("h1", { id: "create-title", text: "New table" }),
    h("div", { class: "field" }, h("label", { for: "name", text: "Your name" }), name),
    gameSel, body, error,
    h("button", { type: "submit", class: "primary", "data-action": "create", text: "Create table" }));
  renderBody();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const n = Number(form.players.value);
    const rules = {};
    for (const o of current.options) {
      const el = form["rule-" + o.name];
      const v = el.value;
      rules[o.name] = o.kind === "int" ? Number(v) : o.kind === "bool" ? v === "true" : v;
    }
    const seatSpecs = [{ kind: "person" }];
    for (let i = 1; i < n; i++) {
      const v = form["seat-" + i].value;
      seatSpecs.push(v === "person" ? { kind: "person" } : { kind: "bot", bot: v.slice(4) });
    }
    const body = { game: current.name, players: n, rules, seats: seatSpecs, name: name.value.trim(),
      timer: form.timer.value ? Number(form.timer.value) : null, standin: form.standin.value };
    try {
      const joined = await api("/api/tables", { method: "POST", body });
      localStorage.setItem("parlour.name", name.value.trim());
      seats.set(joined.table, { token: joined.token, seat: joined.seat });
      location.assign(`/t/${joined.table}`);
    } catch (e) {
      error.textContent = e.message;
    }
  });
  clear(app).append(
    h("section", { class: "intro" },
      h("h2", { text: "Fanti and Fan Tan, at one table" }),
      h("p", { text: "Create a table, seat computer players or invite people with a link, and play in the browser. Every deal is committed before play and revealed after, so anyone can verify it." }),
      h("p", {}, h("a", { href: "/verify", text: "Verify a game record" }))),
    form);
}
