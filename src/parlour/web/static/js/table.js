// A table page: join by invite link, a personal rejoin link or a spectator link, then
// follow the game over the WebSocket. The server sends this seat's view only; the page
// draws it and sends intents (a move names the sequence number it answers). No rule is
// decided here: legal moves, reasons, fines and itemised scores come from the engine.
import { seatOfMine, whoAmI } from "./who.js";
import * as anim from "./anim.js";
import { backs, cardEl, cardName } from "./cards.js";
import { chatBox } from "./chat.js";
import { Conn } from "./conn.js";
import { Mirror } from "./delta.js";
import { announce, api, clear, h, prefs, seats, style, wayOn } from "./dom.js";
import { has, list, more, num, t, tn } from "./i18n.js";
import { notify } from "./notify.js";
import { describe } from "./log.js";
import { scoreSheet } from "./sheet.js";
import { withSeatNames } from "./seatname.js";
import { errorWords, levelName, plainReason, withReasons } from "./words.js";

// Each game's page module is served from its own package (parlour/games/NAME/web.js).
const GAMES = {};
async function loadGame(name) {
  if (!GAMES[name]) GAMES[name] = await import(`./games/${encodeURIComponent(name)}.js`);
  return GAMES[name];
}

// What a player needs only later -- the end-of-round and end-of-game details (score.js)
// and the people box (people.js, when another person sits here) -- comes when first
// needed, its words with it (bundle "later": server/pages.py), so the first load stays light.
const LATER = { mods: null, wait: null };
function later(page) {
  if (LATER.mods) return LATER.mods;
  LATER.wait ||= Promise.all([import("./score.js"), import("./people.js"), import("./over.js"),
    more(`later-${page.state.table.game}`), style("later")])
    .then(([score, people, over]) => { LATER.mods = { ...score, ...people, ...over }; page.render(); })
    .catch(() => { LATER.wait = null; });  // tried again at the next drawing
  return null;
}

export async function showTable(app, id) {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.get("rejoin")) return rejoin(app, id, frag.get("rejoin"));
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
  if (frag.get("invite")) {  // the join form: a page of its own, its module on demand
    return import("./join.js").then((m) => m.joinDialog(app, id, frag.get("invite"), (auth) => new TablePage(app, id, auth).start()));
  }
  if (watch) return new TablePage(app, id, { watch }).start();
  if ((await whoAmI()).known) {  // your own seat, taken on another device: no link needed
    const mine = await seatOfMine(id);
    if (mine) return new TablePage(app, id, { token: mine.token }).start();
  }
  let info = null;
  try { info = await api(`/api/tables/${id}`); } catch (e) {
    if (e.status === 404) {
      return wayOn(app, t("nowhere.table.title"), t("nowhere.table.why"), [["/", t("nowhere.front")], ["/replay", t("nowhere.record")]]);
    }
  }
  if (info && info.status === "over") {
    return wayOn(app, t("nowhere.over.title", { game: info.title }), t("nowhere.over.why"),
      [[`/replay/${id}`, t("nowhere.watch_replay")], [`/verify#table=${id}`, t("nowhere.verify")], ["/", t("nowhere.front_plain")]]);
  }
  wayOn(app, t("nowhere.seat.title"), t("nowhere.seat.why"), [["/", t("nowhere.front")]]);
}

/** A personal rejoin link: the seat comes back on this device (any device). */
async function rejoin(app, id, key) {
  try {
    const j = await api(`/api/tables/${id}/rejoin`, { method: "POST", body: { key } });
    seats.set(id, { token: j.token, seat: j.seat, rejoin: j.rejoin_url || null });  // each link works once: keep the new one
    history.replaceState(null, "", `/t/${id}`);
    return new TablePage(app, id, { token: j.token }).start();
  } catch (e) {
    clear(app).append(h("section", { class: "panel" }, h("h1", { text: t("table.rejoin.bad") }),
      h("p", { role: "alert", text: e.message }), h("p", {}, h("a", { href: "/", text: t("table.back_front") }))));
  }
}

const LOG_SHOWN = 8;  // the log's latest lines shown; the rest fold under "Earlier"

class TablePage {
  constructor(app, id, auth) {
    this.app = app;
    this.id = id;
    this.auth = auth;
    this.state = null;
    this.mirror = new Mirror();  // the state as the server's snapshots and deltas make it
    this.syncing = false;
    this.seq = null;
    this.ui = { selected: null, choice: null, hint: null, hintText: "", why: "" };
    this.lastEvent = null;
    this.toast = "";
    this.connStatus = "connecting";
    this.wasMyTurn = false;
    this.timer = null;
    this.focusHand = false;
    this.dismissed = 0;     // the last round whose score panel the player closed
    this.chatDraft = "";
  }

  start() {
    this.conn = new Conn(this.id, this.auth, {
      message: (m) => this.onMessage(m),
      status: (s, extra) => { this.connStatus = s; this.connExtra = extra; this.render(); },
    });
    this.conn.connect();
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    this.timer = setInterval(() => this.tick(), 250);
    this.render();
  }

  // A game that counts hints in points (its kit's HINT_POINTS): the expected score in the
  // game's currency (its page module may word it, e.g. chips) and the chance to win, and
  // the moves as good as the first.
  hintPoints(moves) {
    const best = moves[0], rules = this.state.table.rules, game = this.state.table.game;
    const value = num(Math.round(best.points * 100) / 100);
    const own = this.game && this.game.expectedWords ? this.game.expectedWords(rules, best.points) : null;
    const points = own || t((this.state.table.scoring || {}).lower_wins === false ? "table.hint.expected.higher" : "table.hint.expected.lower", { value });
    let text = t("table.hint.points", { points, chance: num(Math.round(100 * best.value)) });
    const same = moves.slice(1).filter((x) => x.equal);
    if (same.length) text += " " + t("table.hint.equal", { moves: list(same.map((x) => x.move.pass ? t("table.hint.move.pass") : cardName(game, x.move.play))) });
    return text;
  }

  get game() { return this.state ? GAMES[this.state.table.game] : null; }

  myName() {
    const s = this.state;
    return s && s.you !== null ? s.table.seats[s.you].name : null;
  }

  onMessage(m) {
    if (m.state || m.delta) {
      // The state is copied at once, in order; drawing may wait for the game's module.
      const prevSeq = this.seq;
      const prevRound = this.state ? this.state.round : null;
      if (!this.mirror.take(m)) {  // a version was missed: ask for the whole state
        if (!this.syncing) this.syncing = this.conn.send({ type: "sync" });
        return;
      }
      if (m.state) this.syncing = false;
      this.state = withSeatNames(withReasons(this.mirror.state));  // a copy: the mirror stays the server's
      this.seq = m.seq;
      this.receivedAt = performance.now();
      if (!GAMES[this.state.table.game]) {
        loadGame(this.state.table.game).then(() => this.shown(m, prevSeq, prevRound));
        return;
      }
      this.shown(m, prevSeq, prevRound);
    } else if (m.type === "error" && m.code === "sync_limit") {
      // the whole state was refused for now: ask again when the server says (no toast)
      setTimeout(() => { this.syncing = this.conn.send({ type: "sync" }); }, 1000 * (m.retry_after || 5));
    } else if (m.type === "error") {
      const words = errorWords(m.code, m.message, this.state, m.key, m.params);
      if (words === null) return;  // a double click: the first click already counted
      this.toast = words;
      announce(words);
      this.render();
    } else if (m.type === "hint") {
      const best = m.moves[0];
      const game = this.state.table.game;
      if (best) {
        this.ui.hint = best.move.play || null;
        const card = best.move.pass ? "" : cardName(game, best.move.play);
        this.ui.hintText = best.move.pass ? t("table.hint.pass")
          : best.move.take && best.move.take.length ? t("table.hint.collect", { card, cards: list(best.move.take.map((c) => cardName(game, c))) })
            : t("table.hint.play", { card });
        if (best.points !== undefined && best.points !== null) this.ui.hintText += " " + this.hintPoints(m.moves);
      } else this.ui.hintText = t("table.hint.none");
      announce(this.ui.hintText);
      this.render();
    } else if (m.type === "rematch") {
      const mine = seats.get(this.id);
      if (!m.move || !this.state || this.state.you === null) {  // spectators stay; they get a link
        this.rematchLink = m.url;
        this.render();
        return;
      }
      if (mine) {  // the same seat token holds the seat at the new table
        seats.set(m.table, { ...mine, rejoin: mine.rejoin ? mine.rejoin.replace(`/t/${this.id}#`, `/t/${m.table}#`) : null });
      }
      this.conn.stop();
      location.assign(m.url);
    } else if (m.type === "bye") {
      if (m.reconnect === false) { this.leave(has(`table.bye.why.${m.why}`) ? t(`table.bye.why.${m.why}`) : m.reason); return; }
      this.toast = t("table.bye.restart");
      this.render();
    }
  }

  /** Draw a state just taken (welcome, snapshot, update, state, presence or chat). */
  shown(m, prevSeq, prevRound) {
    if (m.type === "presence" || m.type === "chat") { this.render(); return; }
    const before = anim.measure(this.app);
    const f = this.state.finished;
    if (f && (!this.finished || f.round >= this.finished.round)) this.finished = f;
    if (m.seq !== prevSeq) { this.ui.hint = null; this.ui.hintText = ""; }
    if (this.myTurn() !== this.wasMyTurn) this.ui.why = "";  // a reason holds until the turn changes
    if (!this.myTurn()) { this.ui.selected = null; this.ui.choice = null; }
    if (m.type === "update" && m.event) {
      this.lastEvent = m.event;
      const text = describe(m.event, this.state);
      if (text) announce(text);
      if (m.event.kind === "move" && m.event.seat === this.state.you) this.toast = "";
    }
    if (m.type === "welcome") this.autostart();
    this.render();
    if (m.type === "update" && m.event) {
      const sweep = this.game.isSweep ? this.game.isSweep(m.event) : false;
      anim.move(this.app, m.event, before, sweep);
      if (m.event.kind === "deal" || (prevRound !== null && prevRound !== this.state.round)) anim.deal(this.app);
    } else if (m.type === "welcome") anim.deal(this.app);
    this.turnCue();
    if (this.state.table.status === "over") {  // your games' list (the front page's), kept here
      const lower = this.game.lowerWins ? this.game.lowerWins(this.state.table.rules) : false;
      const state = this.state;
      import("./history.js").then((m) => m.remember(state, lower)).catch(() => {});
    }
  }

  /** A table of you and computers (quick play or the custom form) starts without
   * asking: everyone is there and nobody else is coming. */
  autostart() {
    const s = this.state;
    if (s.table.status === "waiting" && s.you === s.table.host
        && s.table.seats.every((x, i) => x.claimed && (i === s.you || x.kind === "bot"))) {
      this.starting = true;  // the waiting room says so instead of offering Start
      this.send({ type: "start" });
    }
  }

  /** Why no card can be played while it is not this seat's turn: someone else's turn,
   * or the round or the game is over (a hand left at a round's end says that). */
  notNow() {
    const s = this.state;
    const cur = s.view ? s.view.current_player : null;
    if (s.table.status === "over") return t("notnow.game_over");
    if (cur === null || cur < 0 || (this.finished && this.finished.round >= s.round)) return t("notnow.round_over");
    return t("notnow.not_your_turn");
  }

  myTurn() {
    const s = this.state;
    return !!(s && s.view && s.table.status === "playing" && s.you !== null && s.view.current_player === s.you);
  }

  send(msg) {
    if (!this.conn.send(msg)) { this.toast = t("table.not_connected"); this.render(); }
  }

  play(move) {
    if (this.finished && this.finished.round < this.state.round) this.dismissed = this.finished.round;
    this.toast = "";
    this.ui.why = "";
    this.focusHand = true;
    this.send({ type: "move", seq: this.seq, move });
  }

  /** A tap on a card that cannot be played says why (phones have no hover). */
  explain(code, reason) {
    const game = this.state.table.game;
    this.ui.why = t("table.cannot", { card: cardName(game, code), reason: plainReason(game, reason || this.notNow()) });
    announce(this.ui.why);
    this.rerender(`.hand [data-card="${code}"]`);
  }

  // --- rendering -----------------------------------------------------------------------

  rerender(focusSelector) {
    this.render();
    if (focusSelector) {
      const el = this.app.querySelector(focusSelector);
      if (el && !el.disabled) el.focus();
    }
  }

  /** This device no longer holds the seat (its rejoin link was opened on another device,
   * or the seat was given up): nothing of the seat stays on the page -- no hand, no
   * "(you)", no chat -- only why, and the ways on. */
  leave(reason) {
    this.conn.stop();
    this.left = true;
    seats.forget(this.id);
    wayOn(this.app, t("table.bye.title"), t("table.bye.gone", { reason }),
      [["/", t("nowhere.front")], ["/replay", t("nowhere.record")]]);
  }

  render() {
    if (this.left) return;  // a clock tick or a late message draws nothing back
    const focus = document.activeElement;
    const focusKey = focus && focus.dataset && (focus.dataset.card ? `[data-card="${focus.dataset.card}"]`
      : focus.dataset.action ? `[data-action="${focus.dataset.action}"]` : focus.dataset.take !== undefined ? `[data-take="${focus.dataset.take}"]`
        : focus.dataset.chatInput !== undefined ? "[data-chat-input]" : null);
    const inHand = focus && focus.closest && focus.closest(".hand");
    const chatSel = focus && focus.dataset && focus.dataset.chatInput !== undefined ? [focus.selectionStart, focus.selectionEnd] : null;
    clear(this.app);
    if (!this.state) {
      this.app.append(h("p", { class: "loading", text: this.connStatus === "refused" ? t("table.refused") : t("table.connecting") }));
      return;
    }
    const s = this.state;
    const tb = s.table;
    document.getElementById("title").textContent = [tb.title, tb.rated ? t("table.title.rated") : "",
      s.round ? t("table.title.round", { round: num(s.round), rounds: num(s.rounds) }) : ""].filter(Boolean).join(" · ");
    document.title = [this.myTurn() ? t("table.doc.turn") : "", tb.title, "parlour"].filter(Boolean).join(" · ");
    const page = h("div", { class: `table-page game-${tb.game}${tb.seats.length >= 7 ? " many" : ""}` });
    page.append(this.felt(), this.side());
    this.app.append(page);
    let el = null;
    if (focusKey) el = this.app.querySelector(inHand ? `.hand ${focusKey}` : focusKey);
    if (!el && (this.focusHand || inHand) && (!focus || focus === document.body || !focus.isConnected)) {
      // After a play the card is gone: keep the keyboard in the hand.
      el = this.app.querySelector(".hand [data-legal=true]") || this.app.querySelector(".hand .card") || this.app.querySelector(".hand");
    }
    if (el) {
      el.focus({ preventScroll: true });
      if (chatSel && el.setSelectionRange) el.setSelectionRange(...chatSel);
    }
    if (this.focusHand && !this.myTurn()) this.focusHand = !!el;
  }

  banner() {
    const s = this.state;
    const bits = [];
    if (this.connStatus === "reconnecting") bits.push(h("p", { class: "conn warn", role: "status", text: t("table.conn.lost") }));
    s.table.seats.forEach((seat, i) => {
      if (seat.kind === "person" && seat.claimed && !seat.connected && !seat.auto && typeof seat.standin_left === "number" && s.table.status === "playing") {
        bits.push(h("p", { class: "conn away", role: "status", "data-away": i },
          ...around(t("table.away", { name: seat.name }), "{time}",
            h("span", { "data-countdown": i, "data-left": seat.standin_left, text: seconds(seat.standin_left) }))));
      }
    });
    if (this.toast) bits.push(h("p", { class: "toast", role: "alert", text: this.toast }));
    return bits;
  }

  felt() {
    const s = this.state;
    const felt = h("section", { class: "felt", "aria-label": t("table.felt") });
    felt.append(...this.banner());
    if (s.table.status === "waiting") { felt.append(this.waitingRoom()); return felt; }
    if (s.table.status === "expired") { felt.append(h("p", { class: "panel", text: t("table.expired") })); return felt; }
    if (!s.view) { felt.append(h("p", { class: "loading", text: t("table.dealing") })); return felt; }
    felt.append(this.statusLine());
    const ring = this.seatsRing();
    ring.append(h("div", { class: "center" }, this.game.center(this)));
    felt.append(ring);
    if (this.lastEvent && this.lastEvent.kind === "move" && this.lastEvent.round === s.round) felt.append(this.lastMove());
    const over = s.table.status === "over" ? this.gameOver()
      : this.finished && this.finished.round > this.dismissed ? this.roundOver() : null;
    if (over) felt.append(over);
    if (s.you !== null) felt.append(this.mine());
    else felt.append(h("p", { class: "spectating", text: t("table.watching") }));
    return felt;
  }

  statusLine() {
    const s = this.state;
    const cur = s.view.current_player;
    const whose = cur === null || cur < 0 ? "" : cur === s.you ? t("table.your_turn") : t("table.to_play", { name: s.table.seats[cur].name });
    const rules = h("button", { type: "button", class: "tool-in", "data-action": "rules", title: t("table.rules.title") }, t("table.rules"));
    // the rules dialog's module and words come when it is first opened
    rules.addEventListener("click", () => Promise.all([import("./rules.js"), more(`later-${s.table.game}`), style("rules")])
      .then(([m]) => m.openRulesDialog(s.table.game, rules)));
    return h("div", { class: "status-line" },
      h("h1", { class: "sr-only", text: s.table.title }),
      h("span", { class: "whose", text: whose }),
      ...this.game.statusExtras(s),
      // "deal sealed ✓" explains itself where it appears (a tap or Enter opens the why)
      s.commit ? h("details", { class: "commit", "data-sealed": "" }, h("summary", { text: t("table.sealed") }),
        h("p", { class: "sealed-why", text: t("table.sealed.why") })) : null,
      rules);
  }

  /** The seats around the table, in turn order, with you at the bottom. */
  seatsRing() {
    const s = this.state;
    const v = s.view;
    const n = s.table.seats.length;
    const me = s.you ?? 0;
    const ring = h("div", { class: `ring seats-ring n${n}`, "aria-label": t("table.ring") });
    s.table.seats.forEach((seat, i) => {
      const pos = (i - me + n) % n;
      const turn = v.current_player === i;
      const conn = seat.kind === "bot" ? "computer" : seat.connected ? "connected" : "disconnected";
      const label = t(seat.kind === "bot" ? "table.dot.computer_player" : seat.connected ? "table.dot.connected" : "table.dot.not_connected");
      ring.append(h("div", { class: `seat p${pos}${turn ? " turn" : ""}${i === s.you ? " me" : ""}${seat.connected ? "" : " off"}`, "data-seat": i,
        "aria-current": turn ? "true" : null, role: "group", "aria-label": turn ? t("table.seat.to_play", { name: seat.name }) : seat.name },
        h("div", { class: "seat-head" },
          h("span", { class: `dot ${conn}`, role: "img", "aria-label": label }),
          h("span", { class: "seat-name", text: i === s.you ? t("table.you_name", { name: seat.name }) : seat.name }),
          v.dealer === i ? h("span", { class: "badge", title: t("table.dealer.title"), text: t("table.dealer") }) : null,
          seat.kind === "bot" ? h("span", { class: "badge", text: levelName(seat.bot) }) : null,
          seat.auto ? h("span", { class: "badge warn", text: t("table.badge.auto") }) : null,
          seat.open ? h("span", { class: "badge warn", text: t("table.badge.open") }) : null),
        h("div", { class: "seat-body" },
          h("span", { class: "backs", "aria-hidden": "true" }, backs(v.hand_counts[i])),
          h("span", { class: "stat", text: tn("hand.cards", v.hand_counts[i]) }),
          ...this.game.seatExtras(s, i),
          s.deadline && s.deadline.seat === i ? h("span", { class: "clock", "data-clock": "1", text: "" }) : null),
        this.hostTools(i)));
    });
    return ring;
  }

  /** The host may open a seat held by the computer (or never connected) to a new person. */
  hostTools(i) {
    const s = this.state;
    const seat = s.table.seats[i];
    if (s.you === null || s.you !== s.table.host || i === s.you || seat.kind !== "person" || seat.open) return null;
    if (s.table.status !== "playing" || !(seat.auto || seat.never_connected)) return null;
    return h("button", { type: "button", class: "small-button", "data-action": "reopen", "data-seat": i,
      onclick: () => this.send({ type: "reopen", seat: i }) }, t("table.reopen"));
  }

  lastMove() {
    const e = this.lastEvent;
    const s = this.state;
    const game = s.table.game;
    const who = e.seat === s.you ? t("table.you") : s.table.seats[e.seat].name;
    if (e.move.pass) return h("div", { class: "last-move arrive", "aria-hidden": "true" }, t("table.last.pass", { name: who }));
    return h("div", { class: "last-move arrive", "aria-hidden": "true" },
      h("span", { text: who }),
      h("span", { class: "lm-cards" },
        h("span", { class: "lm-card", text: cardName(game, e.move.play) }),
        e.move.take && e.move.take.length ? h("span", { text: " " + t("table.last.takes", { cards: list(e.move.take.map((c) => cardName(game, c))) }) })
          : this.game.discardWord ? " " + this.game.discardWord() : ""));
  }

  mine() {
    const s = this.state;
    const my = this.myTurn();
    const seat = s.table.seats[s.you];
    const box = h("section", { class: `mine${my ? " turn" : ""}`, "aria-label": t("table.hand") });
    const cue = my ? t("table.your_turn") : s.table.status === "playing" && s.view.current_player >= 0 ? t("table.waiting_for", { name: s.table.seats[s.view.current_player].name }) : "";
    box.append(h("div", { class: "turn-cue", role: "status", text: cue }));
    if (seat.auto) {
      box.append(h("p", { class: "notice" }, t("table.auto"), " ",
        h("button", { type: "button", "data-action": "back", onclick: () => this.send({ type: "back" }) }, t("table.back"))));
    }
    const hand = h("div", { class: "hand", role: "toolbar", tabindex: "-1", "aria-label": t("table.cards", { count: num(s.view.hand.length) }) }, this.game.hand(this));
    box.append(hand);
    if (this.ui.why) box.append(h("p", { class: "why", "data-why": "", text: this.ui.why }));  // spoken once, by announce()
    const acts = h("div", { class: "actions" }, this.game.actions(this));
    const legal = s.view.legal || [];
    const forced = legal.length === 1 && legal[0].pass;  // nothing fits: no choice to hint at
    if (my && !forced && s.hints !== false) {
      acts.append(h("button", { type: "button", "data-action": "hint", onclick: () => this.send({ type: "hint", seq: this.seq }), title: t("table.hint.title") }, t("table.hint.button")));
    }
    if (this.ui.hintText) acts.append(h("span", { class: "hint-text", role: "status", text: this.ui.hintText }));
    box.append(acts);
    if (prefs.get("tips", true) && this.game.tip) {
      const tip = this.game.tip(s, this.ui);
      if (tip) box.append(h("p", { class: "tip" }, tip, " ", h("button", { type: "button", class: "link-button", "data-action": "tips-off", onclick: () => { prefs.set("tips", false); this.render(); } }, t("table.tips_off"))));
    }
    return box;
  }

  linkRow(label, url, action) {
    const input = h("input", { readonly: true, value: url, "aria-label": label, "data-link": action });
    return h("div", { class: "link-row" }, h("span", { class: "link-label", text: label }), input,
      h("button", { type: "button", "data-action": "copy-" + action, "aria-label": t(`copy.${action}`),  // named by what it copies
        onclick: () => { navigator.clipboard?.writeText(url).catch(() => {}); input.select(); } }, t("table.copy")));
  }

  freeSeats() {
    return this.state.table.seats.filter((x) => x.kind === "person" && (!x.claimed || x.open)).length;
  }

  waitingRoom() {
    const s = this.state;
    const tb = s.table;
    const origin = location.origin;
    const host = s.you !== null && s.you === tb.host;
    const free = this.freeSeats();
    return h("div", { class: "panel waiting" },
      h("h1", { text: free ? tn("table.waiting.free", free, { game: tb.title }) : t("table.waiting.all", { game: tb.title }) }),
      h("ol", { class: "seat-list" }, tb.seats.map((x, i) => h("li", { class: x.claimed ? "claimed" : "open" },
        h("span", { class: `dot ${x.kind === "bot" ? "computer" : x.connected ? "connected" : "disconnected"}`, role: "img", "aria-label": t(x.kind === "bot" ? "table.dot.computer" : x.connected ? "table.dot.connected" : "table.dot.not_connected") }),
        t("table.join.seat", { seat: num(i + 1), who: x.kind === "bot" ? t("table.join.computer", { level: levelName(x.bot) })
          : x.claimed ? (i === s.you ? t("table.you_name", { name: x.name }) : x.name) : t("table.waiting.seat") })))),
      free && s.links.invite ? this.linkRow(t("table.link.invite"), origin + s.links.invite, "invite") : null,
      this.linkRow(t("table.link.watch"), origin + s.links.watch, "watch"),
      tb.public ? h("p", { class: "muted", text: t("table.public") }) : null,
      tb.rated ? h("p", { class: "muted", "data-rated": "", text: t("table.rated") }) : null,
      this.starting ? h("p", { "data-starting": "", text: t("table.starting") })
      : host ? h("button", { type: "button", class: "primary", "data-action": "start", disabled: !!free,
        onclick: () => this.send({ type: "start" }) }, t(free ? "table.start.wait" : "table.start"))
        : h("p", { text: t("table.start.host") }));
  }

  roundOver() {
    const L = later(this);
    if (!L) return null;
    const s = this.state;
    const f = this.finished;
    const close = h("button", { type: "button", "data-action": "dismiss", onclick: () => { this.dismissed = f.round; this.render(); } }, t("table.close"));
    return h("div", { class: "round-over panel", role: "region", "aria-label": t("table.round.label", { round: num(f.round) }), "data-score-detail": String(f.round) },
      h("div", { class: "panel-head" }, h("h2", { text: t("table.round.title", { round: num(f.round) }) }), close),
      L.scoreDetail(s, f, this.game),
      s.round === f.round && s.table.status === "playing" ? h("p", { class: "muted", text: t("table.round.next") }) : null);
  }

  gameOver() {
    const L = later(this);
    return L ? L.gameOver(this, L) : null;
  }

  /** The people box, once another person sits here or a seat is free to invite to. */
  peopleBox() {
    const s = this.state;
    const seatsT = s.table.seats;
    const others = seatsT.some((x, i) => x.kind === "person" && x.claimed && i !== s.you);
    if (!others && !(s.you !== null && this.freeSeats())) return null;
    const L = later(this);
    return L ? L.peopleBox(this) : null;
  }

  side() {
    const s = this.state;
    // The latest lines in the box, the rest folded away above them: no box that scrolls,
    // so every line is reachable by keyboard and readable at its contrast.
    const lines = s.log.map((e) => describe(e, s)).filter(Boolean);
    const cut = Math.max(0, lines.length - LOG_SHOWN);
    const log = h("ol", { class: "log", "aria-label": t("table.log.label"), start: cut + 1 },
      lines.slice(cut).map((line) => h("li", { text: line })));
    const earlier = cut ? h("details", { class: "log-earlier", open: this.logOpen || null,
      ontoggle: (ev) => { this.logOpen = ev.target.open; } },
    h("summary", { text: t("log.earlier", { count: cut }) }),
    h("ol", { class: "log" }, lines.slice(0, cut).map((line) => h("li", { text: line })))) : null;
    const saved = seats.get(this.id);
    const origin = location.origin;
    const free = this.freeSeats();
    const aside = h("aside", { class: "side" },
      h("section", { class: "box" }, h("h2", { text: t("table.sheet") }), scoreSheet(s)),
      chatBox(this),
      this.peopleBox(),
      h("section", { class: "box" }, h("h2", { text: t("table.log") }), earlier, log),
      h("section", { class: "box links" }, h("h2", { text: t("table.links") }),
        s.you !== null && saved && saved.rejoin ? h("div", {},
          this.linkRow(t("table.link.rejoin"), saved.rejoin.startsWith("http") ? saved.rejoin : origin + saved.rejoin, "rejoin"),
          h("small", { class: "help", text: t("table.rejoin.keep") })) : null,
        free && s.links.invite ? h("p", {}, h("a", { href: s.links.invite, "data-link": "invite", text: t("table.link.invite") })) : null,
        h("p", {}, h("a", { href: s.links.watch, "data-link": "watch", text: t("table.link.watch") })),
        h("p", {}, h("a", { href: `/rules/${s.table.game}`, target: "_blank", text: t("table.rules.link") })),
        h("p", { class: "muted", text: t("table.keys") })));
    return aside;
  }

  // --- sound, clock, keys -------------------------------------------------------------

  turnCue() {
    const mine = this.myTurn();
    if (mine && !this.wasMyTurn) {
      announce(t("table.turn.announce"));
      notify("turn", t("table.turn.notify", { game: this.state.table.title }), `/t/${this.id}`);
      if (prefs.get("sound", true)) beep();
    }
    this.wasMyTurn = mine;
  }

  tick() {
    const s = this.state;
    if (!s) return;
    const gone = (performance.now() - this.receivedAt) / 1000;
    const el = this.app.querySelector("[data-clock]");
    if (s.deadline && el) {
      const left = Math.max(0, s.deadline.left - gone);
      el.textContent = timeLeft(left);
      el.classList.toggle("low", left < 10);
    }
    for (const c of this.app.querySelectorAll("[data-countdown]")) {
      c.textContent = seconds(Math.max(0, Number(c.dataset.left) - gone));
    }
  }

  onKey(ev) {
    if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || document.querySelector("dialog[open]")) return;
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

/** A sentence with an element in it: the words around `mark` (a {placeholder} the
 * catalog puts where the element goes, as each language orders it). */
function around(text, mark, el) {
  const at = text.indexOf(mark);
  return at < 0 ? [text, " ", el] : [text.slice(0, at), el, text.slice(at + mark.length)];
}

/** Seconds on a clock ("12 s"), rounded up. */
function seconds(s) { return t("table.time.seconds", { count: num(Math.ceil(s)) }); }

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

export { cardEl };

/** Time left on a turn's clock in words: seconds, or days and hours between visits. */
export function timeLeft(left) {
  if (left < 3600) return seconds(left);
  const hours = Math.ceil(left / 3600);
  if (hours < 48) return t("table.time.hours", { count: num(hours) });
  const days = Math.floor(hours / 24);
  return tn("table.time.days", days, { hours: num(hours % 24) });
}
