// A table page: join by invite link (or watch), then follow the game over the
// WebSocket. The server sends this seat's view only; the page draws it and sends
// intents (a move names the sequence number it answers). No rule is decided here:
// legal moves, reasons and fines all come from the server's engine.
import { backs, cardName } from "./cards.js";
import { Conn } from "./conn.js";
import { announce, api, clear, h, prefs, seats } from "./dom.js";
import { describe } from "./log.js";
import { scoreSheet } from "./sheet.js";

// Each game's page module is served from its own package (parlour/games/NAME/web.js).
const GAMES = {};
async function loadGame(name) {
  if (!GAMES[name]) GAMES[name] = await import(`./games/${encodeURIComponent(name)}.js`);
  return GAMES[name];
}

export async function showTable(app, id) {
  const frag = new URLSearchParams(location.hash.slice(1));
  const saved = seats.get(id);
  if (frag.get("watch")) {
    sessionStorage.setItem("parlour.watch." + id, frag.get("watch"));
    return new TablePage(app, id, { watch: frag.get("watch") }).start();
  }
  if (saved && saved.token) {
    if (location.hash) history.replaceState(null, "", `/t/${id}`);
    return new TablePage(app, id, { token: saved.token }).start();
  }
  const watch = sessionStorage.getItem("parlour.watch." + id);
  if (frag.get("invite")) return joinDialog(app, id, frag.get("invite"));
  if (watch) return new TablePage(app, id, { watch }).start();
  clear(app).append(h("section", { class: "panel" }, h("h1", { text: "No seat here" }),
    h("p", { text: "Open the invite link you were sent to take a seat, or a spectator link to watch." }),
    h("p", {}, h("a", { href: "/", text: "Create a table" }))));
}

async function joinDialog(app, id, key) {
  let info = null;
  try { info = await api(`/api/tables/${id}`); } catch (e) {
    clear(app).append(h("p", { class: "error", role: "alert", text: e.message }));
    return;
  }
  const name = h("input", { id: "join-name", maxlength: 24, value: localStorage.getItem("parlour.name") || "", autocomplete: "nickname" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "panel join" },
    h("h1", { text: `Join a table of ${info.title}` }),
    h("ul", { class: "seat-list" }, info.seats.map((s, i) => h("li", { text: `Seat ${i + 1}: ${s.kind === "bot" ? s.name : s.claimed ? s.name : "free"}` }))),
    h("div", { class: "field" }, h("label", { for: "join-name", text: "Your name" }), name),
    error, h("button", { type: "submit", class: "primary", "data-action": "join", text: "Take a seat" }));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const j = await api(`/api/tables/${id}/join`, { method: "POST", body: { key, name: name.value.trim() } });
      localStorage.setItem("parlour.name", name.value.trim());
      if (j.role === "seat") seats.set(id, { token: j.token, seat: j.seat });
      history.replaceState(null, "", `/t/${id}`);
      new TablePage(app, id, j.role === "seat" ? { token: j.token } : { watch: j.watch }).start();
    } catch (e) { error.textContent = e.message; }
  });
  clear(app).append(form);
  name.focus();
}

class TablePage {
  constructor(app, id, auth) {
    this.app = app;
    this.id = id;
    this.auth = auth;
    this.state = null;
    this.seq = null;
    this.ui = { selected: null, choice: null, hint: null, hintText: "" };
    this.logEntries = [];
    this.lastEvent = null;
    this.toast = "";
    this.connStatus = "connecting";
    this.wasMyTurn = false;
    this.timer = null;
  }

  start() {
    this.conn = new Conn(this.id, this.auth, {
      message: (m) => this.onMessage(m),
      status: (s, extra) => { this.connStatus = s; this.connExtra = extra; this.render(); },
    });
    this.conn.connect();
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    this.timer = setInterval(() => this.tick(), 500);
    this.render();
  }

  get game() { return this.state ? GAMES[this.state.table.game] : null; }

  onMessage(m) {
    if (m.type === "welcome" || m.type === "state" || m.type === "update") {
      if (!GAMES[m.state.table.game]) {
        loadGame(m.state.table.game).then(() => this.onMessage(m));
        return;
      }
      const prevSeq = this.seq;
      this.state = m.state;
      this.seq = m.seq;
      this.receivedAt = performance.now();
      if (m.seq !== prevSeq) { this.ui.hint = null; this.ui.hintText = ""; }
      if (!this.myTurn()) { this.ui.selected = null; this.ui.choice = null; }
      if (m.type === "update" && m.event) {
        this.lastEvent = m.event;
        const text = describe(m.event, this.state);
        if (text) announce(text);
        if (m.event.kind === "move" && m.event.seat === this.state.you) this.toast = "";
      }
      this.render();
      this.animate(m.type === "update" ? m.event : null);
      this.turnCue();
    } else if (m.type === "error") {
      this.toast = m.message;
      announce(m.message);
      this.render();
    } else if (m.type === "hint") {
      const best = m.moves[0];
      if (best) {
        this.ui.hint = best.move.play || null;
        this.ui.hintText = best.move.pass ? "Hint: pass." : `Hint: play ${cardName(this.state.table.game, best.move.play)}` +
          (best.move.take && best.move.take.length ? `, collecting ${best.move.take.map((c) => cardName("fanti", c)).join(", ")}` : "") + ".";
      } else this.ui.hintText = "No hint.";
      announce(this.ui.hintText);
      this.render();
    } else if (m.type === "rematch") {
      const mine = seats.get(this.id);
      if (mine) seats.set(m.table, mine);
      this.conn.stop();
      location.assign(m.url);
    } else if (m.type === "presence") {
      if (this.state && m.connected) {
        m.connected.forEach((c, i) => { const seat = this.state.table.seats[i]; if (seat) seat.connected = c; });
        this.render();
      }
    } else if (m.type === "bye") {
      if (m.reconnect === false) { this.conn.stop(); this.toast = `You are no longer seated here: ${m.reason}.`; }
      else this.toast = "The server is restarting: reconnecting…";
      this.render();
    }
  }

  myTurn() {
    const s = this.state;
    return !!(s && s.view && s.table.status === "playing" && s.you !== null && s.view.current_player === s.you);
  }

  send(msg) {
    if (!this.conn.send(msg)) { this.toast = "Not connected: reconnecting…"; this.render(); }
  }

  play(move) {
    this.toast = "";
    this.send({ type: "move", seq: this.seq, move });
  }

  // --- rendering -----------------------------------------------------------------------

  rerender(focusSelector) {
    this.render();
    if (focusSelector) {
      const el = this.app.querySelector(focusSelector);
      if (el && !el.disabled) el.focus();
    }
  }

  render() {
    const focus = document.activeElement;
    const focusKey = focus && (focus.dataset.card ? `[data-card="${focus.dataset.card}"]`
      : focus.dataset.action ? `[data-action="${focus.dataset.action}"]` : focus.dataset.take !== undefined ? `[data-take="${focus.dataset.take}"]` : null);
    const inHand = focus && focus.closest && focus.closest(".hand");
    clear(this.app);
    if (!this.state) {
      this.app.append(h("p", { class: "loading", text: this.connStatus === "refused" ? "The server refused this page." : "Connecting to the table…" }));
      return;
    }
    const s = this.state;
    const t = s.table;
    document.getElementById("title").textContent = `${t.title}${s.round ? ` · round ${s.round} of ${s.rounds}` : ""}`;
    document.title = `${this.myTurn() ? "● Your turn · " : ""}${t.title} · parlour`;
    const page = h("div", { class: `table-page game-${t.game}` });
    page.append(this.felt(), this.side());
    this.app.append(page);
    if (focusKey) {
      const sel = inHand ? `.hand ${focusKey}` : focusKey;
      const el = this.app.querySelector(sel);
      if (el) el.focus();
    }
  }

  banner() {
    const bits = [];
    if (this.connStatus === "reconnecting") bits.push(h("p", { class: "conn warn", role: "status", text: "Connection lost: reconnecting…" }));
    if (this.toast) bits.push(h("p", { class: "toast", role: "alert", text: this.toast }));
    return bits;
  }

  felt() {
    const s = this.state;
    const felt = h("section", { class: "felt", "aria-label": "The table" });
    felt.append(...this.banner());
    if (s.table.status === "waiting") { felt.append(this.waitingRoom()); return felt; }
    if (s.table.status === "expired") { felt.append(h("p", { class: "panel", text: "This table has expired." })); return felt; }
    if (!s.view) { felt.append(h("p", { class: "loading", text: "Dealing…" })); return felt; }
    felt.append(this.statusLine(), this.seatsList(), h("div", { class: "center" }, this.game.center(this)));
    if (this.lastEvent && this.lastEvent.kind === "move" && this.lastEvent.round === s.round) felt.append(this.lastMove());
    if (s.table.status === "over") felt.append(this.gameOver());
    else if (!s.commit && s.view && s.view.score) felt.append(this.roundOver());
    if (s.you !== null) felt.append(this.mine());
    else felt.append(h("p", { class: "spectating", text: "You are watching: hands stay hidden." }));
    return felt;
  }

  statusLine() {
    const s = this.state;
    const cur = s.view.current_player;
    const whose = cur === null || cur < 0 ? "" : cur === s.you ? "Your turn" : `${s.table.seats[cur].name} to play`;
    return h("div", { class: "status-line" },
      h("span", { class: "whose", text: whose }),
      ...this.game.statusExtras(s),
      s.commit ? h("span", { class: "commit", title: `Deal commitment (SHA-256): ${s.commit}`, text: `deal ${s.commit.slice(0, 8)}…` }) : null);
  }

  seatsList() {
    const s = this.state;
    const v = s.view;
    const list = h("ul", { class: "seats-ring", "aria-label": "Players" });
    s.table.seats.forEach((seat, i) => {
      const turn = v.current_player === i;
      const conn = seat.kind === "bot" ? "computer" : seat.connected ? "connected" : "disconnected";
      const li = h("li", { class: `seat${turn ? " turn" : ""}${i === s.you ? " me" : ""}${seat.connected ? "" : " off"}`, "data-seat": i,
        "aria-current": turn ? "true" : null },
        h("div", { class: "seat-head" },
          h("span", { class: `dot ${conn}`, role: "img", "aria-label": conn }),
          h("span", { class: "seat-name", text: seat.name + (i === s.you ? " (you)" : "") }),
          v.dealer === i ? h("span", { class: "badge", title: "Dealer", text: "D" }) : null,
          seat.kind === "bot" ? h("span", { class: "badge", text: seat.bot }) : null,
          seat.auto ? h("span", { class: "badge warn", text: "computer playing" }) : null),
        h("div", { class: "seat-body" },
          h("span", { class: "backs", "aria-hidden": "true" }, backs(v.hand_counts[i])),
          h("span", { class: "stat", text: `${v.hand_counts[i]} card${v.hand_counts[i] === 1 ? "" : "s"}` }),
          ...this.game.seatExtras(s, i),
          s.deadline && s.deadline.seat === i ? h("span", { class: "clock", "data-clock": "1", text: "" }) : null));
      list.append(li);
    });
    return list;
  }

  lastMove() {
    const e = this.lastEvent;
    const s = this.state;
    const game = s.table.game;
    const who = e.seat === s.you ? "You" : s.table.seats[e.seat].name;
    if (e.move.pass) return h("div", { class: "last-move arrive", "aria-hidden": "true" }, `${who}: pass`);
    return h("div", { class: "last-move arrive", "aria-hidden": "true" },
      h("span", { text: who }),
      h("span", { class: "lm-cards" },
        h("span", { class: "lm-card", text: cardName(game, e.move.play) }),
        e.move.take && e.move.take.length ? h("span", { text: ` takes ${e.move.take.map((c) => cardName(game, c)).join(", ")}` }) : game === "fanti" ? " (discarded)" : ""));
  }

  mine() {
    const s = this.state;
    const my = this.myTurn();
    const seat = s.table.seats[s.you];
    const box = h("section", { class: `mine${my ? " turn" : ""}`, "aria-label": "Your hand" });
    const cue = my ? "Your turn" : s.table.status === "playing" && s.view.current_player >= 0 ? `Waiting for ${s.table.seats[s.view.current_player].name}` : "";
    box.append(h("div", { class: "turn-cue", role: "status", text: cue }));
    if (seat.auto) {
      box.append(h("p", { class: "notice" }, "The computer is playing for you. ",
        h("button", { type: "button", "data-action": "back", onclick: () => this.send({ type: "back" }) }, "Take my seat back")));
    }
    const hand = h("div", { class: "hand", role: "toolbar", "aria-label": `Your cards, ${s.view.hand.length}` }, this.game.hand(this));
    box.append(hand);
    const acts = h("div", { class: "actions" }, this.game.actions(this));
    if (my) {
      acts.append(h("button", { type: "button", "data-action": "hint", onclick: () => this.send({ type: "hint", seq: this.seq }), title: "Ask the computer for a suggestion (H)" }, "Hint"));
    }
    if (this.ui.hintText) acts.append(h("span", { class: "hint-text", role: "status", text: this.ui.hintText }));
    box.append(acts);
    return box;
  }

  waitingRoom() {
    const s = this.state;
    const t = s.table;
    const origin = location.origin;
    const host = s.you !== null && s.you === t.host;
    const full = t.seats.every((x) => x.claimed);
    const link = (label, path, action) => {
      const url = origin + path;
      const input = h("input", { readonly: true, value: url, "aria-label": label, "data-link": action });
      return h("div", { class: "link-row" }, h("span", { class: "link-label", text: label }), input,
        h("button", { type: "button", "data-action": "copy-" + action, onclick: () => { navigator.clipboard?.writeText(url); input.select(); } }, "Copy"));
    };
    return h("div", { class: "panel waiting" },
      h("h1", { text: `${t.title}: waiting for players` }),
      h("ol", { class: "seat-list" }, t.seats.map((x, i) => h("li", { class: x.claimed ? "claimed" : "open" },
        h("span", { class: `dot ${x.kind === "bot" ? "computer" : x.connected ? "connected" : "disconnected"}`, role: "img", "aria-label": x.kind === "bot" ? "computer" : x.connected ? "connected" : "not connected" }),
        `Seat ${i + 1}: `, x.kind === "bot" ? `${x.name}` : x.claimed ? x.name + (i === s.you ? " (you)" : "") : "waiting for someone with the invite link"))),
      s.links.invite ? link("Invite link", s.links.invite, "invite") : null,
      link("Spectator link", s.links.watch, "watch"),
      host ? h("button", { type: "button", class: "primary", "data-action": "start", disabled: !full,
        onclick: () => this.send({ type: "start" }) }, full ? "Start the game" : "Start (when every seat is taken)")
        : h("p", { text: "The host starts the game when every seat is taken." }));
  }

  roundOver() {
    const s = this.state;
    const k = s.round;
    const score = s.scores[k - 1] || [];
    return h("div", { class: "round-over panel", role: "status" },
      h("h2", { text: `Round ${k} is over` }),
      h("p", { text: score.map((v, i) => `${s.table.seats[i].name}: ${v}`).join(" · ") }),
      h("p", { class: "muted", text: "The next deal is coming." }));
  }

  gameOver() {
    const s = this.state;
    const names = (s.winners || []).map((i) => (i === s.you ? "You" : s.table.seats[i].name));
    const won = s.winners && s.winners.includes(s.you);
    return h("div", { class: "game-over panel", role: "dialog", "aria-label": "Game over" },
      h("h2", { text: won ? "You win!" : `${names.join(" and ")} win${names.length > 1 ? "" : "s"}` }),
      h("p", { text: s.totals.map((v, i) => `${s.table.seats[i].name} ${v}`).join(" · ") }),
      h("div", { class: "end-buttons" },
        h("a", { class: "button", href: `/api/tables/${this.id}/record`, download: `parlour-${this.id}.json`, "data-action": "record" }, "Download the record"),
        h("a", { class: "button", href: `/verify#table=${this.id}`, "data-action": "verify" }, "Verify the deals"),
        s.you !== null ? h("button", { type: "button", class: "primary", "data-action": "rematch", onclick: () => this.send({ type: "rematch" }) }, "Rematch") : null));
  }

  side() {
    const s = this.state;
    const log = h("ol", { class: "log", "aria-label": "Game log" },
      s.log.map((e) => describe(e, s)).filter(Boolean).map((t) => h("li", { text: t })));
    const aside = h("aside", { class: "side" },
      h("section", { class: "box" }, h("h2", { text: "Score sheet" }), scoreSheet(s)),
      h("section", { class: "box" }, h("h2", { text: "Log" }), log),
      h("section", { class: "box links" }, h("h2", { text: "Links" }),
        s.links.invite ? h("p", {}, h("a", { href: s.links.invite, "data-link": "invite", text: "Invite link" })) : null,
        h("p", {}, h("a", { href: s.links.watch, "data-link": "watch", text: "Spectator link" })),
        h("p", {}, h("a", { href: `/verify#table=${this.id}`, text: "Verify the deals" })),
        h("p", { class: "muted", text: "Keys: ←/→ move between cards, Enter plays, P pass, H hint." })));
    setTimeout(() => { log.scrollTop = log.scrollHeight; }, 0);
    return aside;
  }

  // --- motion, sound, clock, keys -------------------------------------------------------

  animate(event) {
    if (!event || event.kind !== "move" || event.move.pass) return;
    const el = this.app.querySelector(`.center [data-card="${event.move.play}"]`);
    if (el) el.classList.add("arrive");
    const seat = this.app.querySelector(`.seat[data-seat="${event.seat}"]`);
    if (seat) seat.classList.add("moved");
  }

  turnCue() {
    const mine = this.myTurn();
    if (mine && !this.wasMyTurn) {
      announce("Your turn.");
      if (prefs.get("sound", true)) beep();
    }
    this.wasMyTurn = mine;
  }

  tick() {
    const s = this.state;
    const el = this.app.querySelector("[data-clock]");
    if (!s || !s.deadline || !el) return;
    const left = Math.max(0, s.deadline.left - (performance.now() - this.receivedAt) / 1000);
    el.textContent = `${Math.ceil(left)} s`;
    el.classList.toggle("low", left < 10);
  }

  onKey(ev) {
    if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const key = ev.key.toLowerCase();
    if (key === "arrowleft" || key === "arrowright") {
      const cards = [...this.app.querySelectorAll(".hand .card")];
      if (!cards.length) return;
      const i = cards.indexOf(document.activeElement);
      const next = i < 0 ? 0 : (i + (key === "arrowright" ? 1 : -1) + cards.length) % cards.length;
      cards[next].focus();
      ev.preventDefault();
    } else if (key === "p") {
      const b = this.app.querySelector("[data-action=pass]");
      if (b) { b.click(); ev.preventDefault(); }
    } else if (key === "h") {
      const b = this.app.querySelector("[data-action=hint]");
      if (b) { b.click(); ev.preventDefault(); }
    }
  }
}

let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.08, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.25);
  } catch { /* no sound available */ }
}
