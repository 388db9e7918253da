// Short motions that show what happened: a played card travels from its player's seat
// to the table, collected cards fly to the collector (a Guardian sweep takes them all
// at once, with a flash), and a new deal slides into the hand card by card. Positions
// are measured before and after the page is redrawn (FLIP); nothing waits for them.
const reduce = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Where every card on the table is now (call before redrawing). */
export function measure(root) {
  const at = new Map();
  for (const el of root.querySelectorAll(".center [data-card]")) {
    at.set(el.dataset.card, { rect: el.getBoundingClientRect(), node: el.cloneNode(true) });
  }
  return at;
}

function seatRect(root, seat) {
  const el = root.querySelector(`.seat[data-seat="${seat}"]`);
  return el ? el.getBoundingClientRect() : null;
}

function ghost(source, rect) {
  const g = source.cloneNode(true);
  g.removeAttribute("data-card");
  g.removeAttribute("data-legal");
  g.classList.add("ghost");
  g.setAttribute("aria-hidden", "true");
  Object.assign(g.style, { position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`,
    width: `${rect.width}px`, height: `${rect.height}px`, margin: "0", zIndex: 50, pointerEvents: "none" });
  document.body.append(g);
  return g;
}

/** Animate the move `event` after the redraw; `before` is measure() from before it. */
export function move(root, event, before, sweep) {
  if (reduce() || !event || event.kind !== "move" || event.move.pass) return;
  const from = seatRect(root, event.seat);
  const played = root.querySelector(`.center [data-card="${event.move.play}"]`);
  if (played && from) {
    const to = played.getBoundingClientRect();
    played.animate([
      { transform: `translate(${from.left + from.width / 2 - to.left - to.width / 2}px, ${from.top + from.height / 2 - to.top - to.height / 2}px) scale(.6)`, opacity: .3 },
      { transform: "none", opacity: 1 }], { duration: 380, easing: "cubic-bezier(.2,.8,.3,1)" });
  }
  const taken = event.move.take || [];
  if (!taken.length || !from) return;
  // The collected cards are gone from the table: fly copies from where they were.
  [...taken, event.move.play].forEach((code, k) => {
    const was = before.get(code);
    const node = code === event.move.play ? played : was && was.node;
    const rect = code === event.move.play ? (played && played.getBoundingClientRect()) : was && was.rect;
    if (!node || !rect) return;
    const g = ghost(node, rect);
    if (sweep) g.classList.add("sweep");
    const dx = from.left + from.width / 2 - rect.left - rect.width / 2;
    const dy = from.top + from.height / 2 - rect.top - rect.height / 2;
    const a = g.animate([
      { transform: "none", opacity: 1, offset: 0 },
      { transform: "translate(0, -12px) scale(1.08)", opacity: 1, offset: sweep ? .35 : .2 },
      { transform: `translate(${dx}px, ${dy}px) scale(.35)`, opacity: 0 }],
    { duration: sweep ? 700 : 520, delay: 120 + k * (sweep ? 25 : 60), easing: "ease-in", fill: "both" });
    a.onfinish = () => g.remove();
    setTimeout(() => g.remove(), 2000);
  });
  if (sweep) {
    const felt = root.querySelector(".felt");
    if (felt) felt.animate([{ boxShadow: "inset 0 0 0 0 rgba(255,230,140,.0)" }, { boxShadow: "inset 0 0 80px 10px rgba(255,230,140,.55)" }, { boxShadow: "inset 0 0 40px rgba(0,0,0,.45)" }], { duration: 700 });
  }
}

/** A new deal: the hand's cards slide in one after another. */
export function deal(root) {
  if (reduce()) return;
  root.querySelectorAll(".hand .card").forEach((el, k) => {
    el.animate([{ transform: "translateY(-120px) rotate(-8deg)", opacity: 0 }, { transform: "none", opacity: 1 }],
      { duration: 320, delay: k * 45, easing: "cubic-bezier(.2,.8,.3,1)", fill: "backwards" });
  });
}
