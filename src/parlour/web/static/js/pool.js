// "Play people": wait in the pairing pool of a game and table size until other people
// are found, then go to the new table. While waiting the page shows how many wait and
// play; after a minute it offers computer players for the empty seats instead.
import { api, clear, h, seats } from "./dom.js";
import { num, t, tn } from "./i18n.js";

function goTo(joined) {
  seats.set(joined.table, { token: joined.token, seat: joined.seat, rejoin: joined.rejoin_url || null });
  location.assign(`/t/${joined.table}`);
}

/** The button and, once pressed, the waiting box in its place. */
export function playPeople(g, players, name) {
  const box = h("div", { class: "pool", "data-pool": g.name, "aria-live": "polite" });
  const button = h("button", { type: "button", class: "big", "data-action": "play-people", "data-game": g.name,
    text: t("pool.play") });
  const note = h("small", { class: "help", text: tn("pool.note", players) });
  const error = h("p", { class: "error", role: "alert" });
  let ticket = null;
  let stopped = false;
  let shown = {}; // the counts on the page: the server answers as soon as they change

  function reset() {
    ticket = null;
    clear(box).append(button, note, error);
    button.disabled = false;
  }

  function show(st) {
    shown = { waiting: st.waiting, playing: st.playing };
    const waitLine = h("p", { "data-pool-status": st.status, text: st.status === "waiting"
      ? tn("pool.looking", players - 1, { seconds: num(Math.round(st.waited)) })
      : t("pool.found") });
    const counts = h("p", { class: "muted", "data-pool-counts": "",
      text: t("pool.counts", { waiting: tn("pool.people", st.waiting), playing: tn("pool.people", st.playing), game: g.title, players: num(players) }) });
    const stop = h("button", { type: "button", "data-action": "pool-leave", text: t("pool.stop") });
    stop.addEventListener("click", async () => {
      stopped = true;
      try { await api("/api/pool/leave", { method: "POST", body: { ticket } }); } catch { /* gone anyway */ }
      reset();
    });
    const parts = [waitLine, counts];
    if (st.fill) {
      const fill = h("button", { type: "button", class: "primary", "data-action": "pool-fill",
        text: t("pool.fill") });
      fill.addEventListener("click", async () => {
        fill.disabled = true;
        try {
          const out = await api("/api/pool/fill", { method: "POST", body: { ticket } });
          if (out.joined) { stopped = true; goTo(out.joined); }
        } catch (e) { error.textContent = e.message; fill.disabled = false; }
      });
      parts.push(h("p", { class: "help", text: t("pool.fill.help") }), fill);
    }
    clear(box).append(...parts, stop, error);
  }

  async function wait() {
    while (ticket && !stopped) {
      let st;
      try {
        st = await api("/api/pool/wait", { method: "POST", body: { ticket, ...shown } });
      } catch (e) {
        error.textContent = e.message;
        await new Promise((r) => setTimeout(r, 3000));
        continue;
      }
      if (stopped) return;
      if (st.joined) { show(st); goTo(st.joined); return; }
      if (st.status !== "waiting") { reset(); error.textContent = t("pool.gone"); return; }
      show(st);
    }
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    error.textContent = "";
    stopped = false;
    try {
      const st = await api("/api/pool", { method: "POST", body: { game: g.name, players, name: name() } });
      ticket = st.ticket;
      show(st);
      wait();
    } catch (e) { error.textContent = e.message; button.disabled = false; }
  });
  addEventListener("pagehide", () => {
    if (ticket && !stopped) navigator.sendBeacon?.("/api/pool/leave", new Blob([JSON.stringify({ ticket, wait: false })], { type: "application/json" }));
  });
  reset();
  return box;
}
