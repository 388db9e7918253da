// The replay page: a finished table (/replay/ID) or a record file (/replay, upload),
// step by step forward and back, jump to a round, every hand shown, and a review of a
// chosen seat's moves valued by the hints engine (moves where the value dropped are
// marked, as chess sites mark inaccuracies). Keys: ←/→ step, Home/End round start/end.
// Each round comes as its deal's whole state and then one delta a move (delta.js), so a
// long record is sent in its own size; a step's state is rebuilt from the nearest kept
// one (every CHECKPOINT steps) by applying the deltas after it.
import { cardEl, cardName, sortHand } from "./cards.js";
import { applyDelta } from "./delta.js";
import { api, clear, h, wayOn } from "./dom.js";
import { list, num, t, tn } from "./i18n.js";
import { readRecordFile } from "./verify.js";
import { scoreDetail } from "./score.js";
import { seatName } from "./seatname.js";
import { levelName } from "./words.js";

export async function showReplay(app, table) {
  document.title = t("replay.tab");
  if (!table) return uploadPage(app);
  let data;
  try { data = await api(`/api/tables/${table}/replay`); } catch (e) {
    if (e.status === 404) {
      return wayOn(app, t("nowhere.game.title"), t("nowhere.table.why"), [["/replay", t("nowhere.record_instead")], ["/", t("nowhere.front_plain")]]);
    }
    return wayOn(app, t("nowhere.replay.title"), e.status === 409 ? t("nowhere.replay.why") : e.message,
      [[`/t/${table}`, t("nowhere.to_table")], ["/", t("nowhere.front_plain")]]);
  }
  new Replay(app, data, { table }).start();
}

function uploadPage(app) {
  const out = h("div");
  const file = h("input", { type: "file", id: "replay-file", accept: ".json,.jsonl,application/json", "data-action": "upload" });
  const error = h("p", { class: "error", role: "alert" });
  const note = h("p", { class: "note" });
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (!f) return;
    error.textContent = "";
    note.textContent = "";
    let rec, count;
    try { ({ record: rec, count } = readRecordFile(await f.text())); } catch (e) { error.textContent = e.message; return; }
    try {
      const data = await api("/api/replay", { method: "POST", body: rec });
      if (count > 1) note.textContent = tn("replay.many_records", count);
      new Replay(out, data, { record: rec }).start();
    } catch (e) { error.textContent = e.message; }
  });
  clear(app).append(h("section", { class: "panel" }, h("h1", { text: t("replay.upload.title") }),
    h("p", { text: t("replay.upload.intro") }),
    h("div", { class: "field" }, h("label", { for: "replay-file", text: t("replay.upload.file") }), file), error, note), out);
}

const CHECKPOINT = 64;

/** A move in the review's words: "Leaf 6", "Leaf 6 takes Star 2 and Scout", "Pass". */
function reviewedMove(game, move) {
  if (move.pass) return t("replay.review.pass");
  const card = cardName(game, move.play);
  return move.take && move.take.length
    ? t("replay.review.takes", { card, cards: list(move.take.map((c) => cardName(game, c))) }) : card;
}

/** A chance as this language writes a percentage. */
function pct(x) {
  return new Intl.NumberFormat(document.documentElement.lang || "en", { style: "percent", numberingSystem: "latn" }).format(Math.round(x * 100) / 100);
}

/** The states of one round's steps, rebuilt from its deltas on demand. */
class Steps {
  constructor(rd) {
    this.rd = rd;
    this.kept = new Map([[0, structuredClone(rd.steps[0].state)]]);
    this.at = 0;
    this.state = structuredClone(rd.steps[0].state);
  }

  get(step) {
    if (step < this.at) {  // back: from the nearest kept state at or before it
      const from = Math.floor(step / CHECKPOINT) * CHECKPOINT;
      this.state = structuredClone(this.kept.get(from));
      this.at = from;
    }
    while (this.at < step) {
      this.at += 1;
      applyDelta(this.state, structuredClone(this.rd.steps[this.at].delta));
      if (this.at % CHECKPOINT === 0 && !this.kept.has(this.at)) this.kept.set(this.at, structuredClone(this.state));
    }
    return { ...this.state, event: this.rd.steps[step].event };
  }
}

class Replay {
  constructor(root, data, source) {
    this.root = root;
    // a computer seat's room-given name ("Bot 2", as the record keeps it) in the reader's language
    const bots = data.bots || {};
    this.data = { ...data, seats: data.seats.map((n, i) => seatName(n, !!bots[String(i)])) };
    this.source = source;
    this.round = 0;
    this.step = 0;
    this.reviews = {};
    this.reviewSeat = 0;
    this.busy = false;
    this.steps = this.data.rounds.map((rd) => new Steps(rd));
  }

  async start() {
    this.mod = await import(`./games/${encodeURIComponent(this.data.game)}.js`);
    document.title = t("replay.title_tab", { title: this.data.title });
    document.addEventListener("keydown", (ev) => {
      if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
      if (ev.key === "ArrowRight") { this.go(1); ev.preventDefault(); }
      else if (ev.key === "ArrowLeft") { this.go(-1); ev.preventDefault(); }
      else if (ev.key === "Home") { this.step = 0; this.render(); }
      else if (ev.key === "End") { this.step = this.rd.steps.length - 1; this.render(); }
    });
    this.render();
  }

  get rd() { return this.data.rounds[this.round]; }

  names() {
    return this.data.seats.map((n, i) => (this.data.bots[String(i)] ? t("replay.computer_seat", { name: n, level: levelName(this.data.bots[String(i)]) }) : n));
  }

  go(delta) {
    const last = this.rd.steps.length - 1;
    let s = this.step + delta;
    if (s < 0 && this.round > 0) { this.round -= 1; s = this.rd.steps.length - 1; }
    else if (s > last && this.round < this.data.rounds.length - 1) { this.round += 1; s = 0; }
    this.step = Math.max(0, Math.min(s, this.rd.steps.length - 1));
    this.render(true);
  }

  describe(ev) {
    const names = this.data.seats;
    const game = this.data.game;
    if (!ev) return "";
    if (ev.kind === "deal") return t("replay.ev.deal", { round: num(ev.round), name: names[ev.dealer] });
    if (ev.move.pass) return t("replay.ev.pass", { name: names[ev.seat] });
    const card = cardName(game, ev.move.play);
    if (ev.move.take && ev.move.take.length) {
      return t("replay.ev.take", { name: names[ev.seat], card, cards: list(ev.move.take.map((c) => cardName(game, c))) });
    }
    return t("replay.ev.play", { name: names[ev.seat], card });
  }

  async review() {
    const key = `${this.round}:${this.reviewSeat}`;
    if (this.reviews[key] || this.busy) return;
    this.busy = true;
    this.render();
    const body = { round: this.round + 1, seat: this.reviewSeat };
    if (this.source.table) body.table = this.source.table; else body.record = this.source.record;
    try { this.reviews[key] = await api("/api/review", { method: "POST", body }); } catch (e) { this.reviewError = e.message; }
    this.busy = false;
    this.render();
  }

  render(keepFocus) {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.action : null;
    const d = this.data;
    const rd = this.rd;
    const st = this.steps[this.round].get(this.step);
    const game = d.game;
    const names = this.names();
    const ctx = { state: { view: st.view, table: { game, rules: d.rules }, you: null, reasons: {} }, ui: {} };
    const rounds = h("nav", { class: "round-tabs", "aria-label": t("replay.rounds") }, d.rounds.map((r, k) => h("button", {
      type: "button", "data-action": "round", "data-round": k + 1, "aria-current": k === this.round ? "true" : null,
      class: k === this.round ? "primary" : "", onclick: () => { this.round = k; this.step = 0; this.render(); } }, t("replay.round", { n: num(k + 1) }))));
    const controls = h("div", { class: "replay-controls" },
      h("button", { type: "button", "data-action": "start-of-round", onclick: () => { this.step = 0; this.render(); } }, t("replay.start")),
      h("button", { type: "button", "data-action": "prev", "aria-label": t("replay.back.label"), onclick: () => this.go(-1) }, t("replay.back")),
      h("span", { class: "step", "data-step": this.step, text: t("replay.step", { step: num(this.step), last: num(rd.steps.length - 1) }) }),
      h("button", { type: "button", "data-action": "next", "aria-label": t("replay.forward.label"), class: "primary", onclick: () => this.go(1) }, t("replay.forward")),
      h("button", { type: "button", "data-action": "end-of-round", onclick: () => { this.step = rd.steps.length - 1; this.render(); } }, t("replay.end")));
    const hands = h("div", { class: "replay-hands" }, st.hands.map((hand, i) => h("section", {
      class: `replay-seat${st.current === i ? " turn" : ""}${st.event && st.event.seat === i ? " moved" : ""}`, "data-seat": i },
      h("h2", { class: "seat-title", text: `${names[i]} · ${tn("hand.cards", hand.length)}` }),
      h("div", { class: "card-row" }, sortHand(hand).map((c) => cardEl(game, c, {
        cls: `tiny${st.event && st.event.kind === "move" && rd.steps[this.step + 1] && rd.steps[this.step + 1].event.move.play === c && rd.steps[this.step + 1].event.seat === i ? " next-play" : ""}` }))),
      ...(this.mod.seatExtras ? this.mod.seatExtras({ ...ctx.state, totals: d.totals }, i) : []))));
    const over = this.step === rd.steps.length - 1 && rd.detail;
    const reviewKey = `${this.round}:${this.reviewSeat}`;
    const rev = this.reviews[reviewKey];
    const seatSel = h("select", { id: "review-seat", "aria-label": t("replay.review.whose") },
      d.seats.map((n, i) => h("option", { value: i, selected: i === this.reviewSeat, text: n })));
    seatSel.addEventListener("change", () => { this.reviewSeat = Number(seatSel.value); this.render(); });
    const reviewBox = h("section", { class: "box review" }, h("h2", { text: t("replay.review.title") }),
      h("p", { class: "muted", text: t("replay.review.intro") }),
      h("div", { class: "field inline" }, h("label", { for: "review-seat", text: t("replay.review.player") }), seatSel,
        h("button", { type: "button", "data-action": "review", disabled: this.busy || !!rev, onclick: () => this.review() }, this.busy ? t("replay.review.thinking") : t("replay.review.go"))),
      this.reviewError ? h("p", { class: "error", role: "alert", text: this.reviewError }) : null,
      rev ? h("ol", { class: "review-list" }, rev.moves.map((m) => h("li", {
        "data-review": m.step, class: m.dropped ? "dropped" : "", "data-dropped": m.dropped ? "true" : "false" },
      h("button", { type: "button", class: "link-button", onclick: () => { this.step = m.step; this.render(); } },
        reviewedMove(game, m.move)),
      m.value === null ? h("span", { class: "muted", text: ` ${t("replay.review.only")}` })
        : h("span", { text: ` ${pct(m.value)} · ` + (m.dropped ? t("replay.review.dropped", {
          best: m.best.pass ? t("replay.review.passing") : cardName(game, m.best.play), value: pct(m.best_value) }) : t("replay.review.good")) }))))
        : null);
    clear(this.root).append(h("div", { class: "replay-page" },
      h("header", { class: "replay-head" }, h("h1", { text: t("replay.heading", { title: d.title }) }),
        h("p", { class: "muted", text: t("replay.summary", { names: list(names), totals: d.totals.map(num).join(", ") }) })),
      rounds, controls,
      h("p", { class: "replay-event", role: "status", text: this.describe(st.event) }),
      h("div", { class: `felt replay-felt game-${game}` }, h("div", { class: "center" }, this.mod.center(ctx))),
      hands,
      over ? h("div", { class: "round-over panel", "data-score-detail": rd.round }, h("h2", { text: t("replay.score", { round: num(rd.round) }) }),
        scoreDetail({ table: { game, seats: d.seats.map((n) => ({ name: n })) }, you: null, scores: d.scores }, { round: rd.round, detail: rd.detail }, this.mod)) : null,
      reviewBox));
    if (keepFocus || focused) {
      const el = this.root.querySelector(`[data-action="${focused || "next"}"]`);
      if (el) el.focus({ preventScroll: true });
    }
  }
}
