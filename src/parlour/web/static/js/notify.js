// System notifications: "tell me when it is my turn". The browser's permission is asked
// only when the player turns this on (the header's Notify button); then notify() shows a
// notification for their turn, an invitation or a pairing found -- for a turn only while
// the page is not in view (in view, the page itself says so). Other modules call
//   import { notify } from "./notify.js";
//   notify("invite", "Anna invites you to her Fanti table", "/t/ID");
// kind: "turn" | "invite" | "pairing"; words: one plain sentence; url: where a click goes.
// It returns whether a notification was shown. With Web Push on (the server's web_push
// setting), turning on also subscribes this browser, so a closed browser hears of its
// turn too (server/push.py, the service worker's "push" handler).
import { api, prefs } from "./dom.js";
import { t } from "./i18n.js";

const TITLES = { turn: "notify.turn", invite: "notify.invite", pairing: "notify.pairing" };

export function supported() { return "Notification" in window; }

/** Whether notifications are on: chosen here and allowed by the browser. */
export function enabled() {
  return supported() && prefs.get("notify", false) && Notification.permission === "granted";
}

/** Turn notifications on: asks the browser's permission (the only place that does). */
export async function turnOn() {
  if (!supported()) return "unsupported";
  const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  prefs.set("notify", answer === "granted");
  if (answer === "granted") subscribePush().catch(() => {});
  return answer;
}

export function turnOff() {
  prefs.set("notify", false);
  unsubscribePush().catch(() => {});
}

export function notify(kind, words, url) {
  if (!enabled()) return false;
  if (kind === "turn" && document.visibilityState === "visible" && document.hasFocus()) return false;
  const n = new Notification(TITLES[kind] ? t(TITLES[kind]) : "parlour", {
    body: words, tag: `${kind}:${url || ""}`, icon: "/static/icons/icon-192.png",
  });
  n.addEventListener("click", () => {
    window.focus();
    if (url && location.pathname !== url) location.assign(url);
    n.close();
  });
  return true;
}

// --- Web Push (a closed browser) ------------------------------------------------------

function keyBytes(b64url) {
  const raw = atob(b64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - b64url.length % 4) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function subscribePush() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return;
  const info = await api("/api/push/key");
  if (!info.enabled) return;
  const reg = await navigator.serviceWorker.ready;
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(info.key) });
  await api("/api/push/subscriptions", { method: "POST", body: sub.toJSON() });
}

async function unsubscribePush() {
  if (!("serviceWorker" in navigator)) return;
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = reg && reg.pushManager ? await reg.pushManager.getSubscription() : null;
  if (!sub) return;
  await api("/api/push/subscriptions", { method: "DELETE", body: { endpoint: sub.endpoint } }).catch(() => {});
  await sub.unsubscribe();
}
