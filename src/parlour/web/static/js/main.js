// The page's router: the front page at /, a table at /t/ID, the rules at /rules/GAME,
// replays at /replay and /replay/ID, the verifier at /verify, a game's leaderboard at
// /leaderboard/GAME, a player's profile at /u/NAME and your account at /account.
import { api, prefs, wayOn } from "./dom.js";
import { setupCardStyle } from "./gamewords.js";
import { setupPicker, t } from "./i18n.js";
import { setupTheme } from "./theme.js";
import { enabled as notifying, supported as canNotify, turnOff, turnOn } from "./notify.js";
import { setupAccount } from "./who.js";

function setupTools() {
  const four = document.getElementById("four-colour");
  const sound = document.getElementById("sound");
  const apply = () => {
    const on = prefs.get("four-colour", false);
    document.body.classList.toggle("four-colour", on);
    four.setAttribute("aria-pressed", String(on));
    sound.setAttribute("aria-pressed", String(prefs.get("sound", true)));
  };
  four.addEventListener("click", () => { prefs.set("four-colour", !prefs.get("four-colour", false)); apply(); });
  sound.addEventListener("click", () => { prefs.set("sound", !prefs.get("sound", true)); apply(); });
  apply();
  // "Tell me when it is my turn": the browser's permission is asked here, on this click only.
  const bell = document.getElementById("notify");
  if (!canNotify()) { bell.hidden = true; return; }
  const show = () => bell.setAttribute("aria-pressed", String(notifying()));
  bell.addEventListener("click", async () => {
    if (notifying()) turnOff();
    else if (await turnOn() === "denied") bell.title = t("page.notify.blocked");
    show();
  });
  show();
}

// While this tab is visible its player counts as online ("players online", friends'
// marks): a small heartbeat, as often as the server says (server/presence.py).
function heartbeat() {
  let every = 40;
  const beat = () => {
    if (document.visibilityState === "visible") {
      api("/api/here", { method: "POST" }).then((r) => { every = (r && r.every) || every; }).catch(() => {});
    }
    setTimeout(beat, every * 1000);
  };
  beat();
}

setupTools();
setupPicker();
setupTheme();
setupCardStyle();
setupAccount();
heartbeat();
// The installable app's worker: keeps the static files for offline use (never a table's
// state or an /api answer) and shows notifications (server/webapp.py, notify.js).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
const app = document.getElementById("app");
const path = location.pathname;
const table = path.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/);
const rules = path.match(/^\/rules\/([a-z0-9_-]+)\/?$/);
const replay = path.match(/^\/replay(?:\/([A-Za-z0-9_-]+))?\/?$/);
const board = path.match(/^\/leaderboard\/([a-z0-9_-]+)\/?$/);
const profile = path.match(/^\/u\/([^/]+)\/?$/);
if (table) import("./table.js").then((m) => m.showTable(app, table[1]));
else if (rules) import("./rules.js").then((m) => m.showRules(app, rules[1]));
else if (replay) import("./replay.js").then((m) => m.showReplay(app, replay[1] || null));
else if (board) import("./players.js").then((m) => m.showLeaderboard(app, board[1]));
else if (profile) import("./players.js").then((m) => m.showProfile(app, decodeURIComponent(profile[1])));
else if (/^\/account\/?$/.test(path)) import("./account.js").then((m) => m.showAccount(app));
else if (path.startsWith("/verify")) import("./verify.js").then((m) => m.showVerify(app));
else if (path === "/" || path === "/index.html") import("./lobby.js").then((m) => m.showLobby(app));
else notFound(app);

/** A path the room does not have: say so, and offer the ways on. */
function notFound(where) {
  document.title = t("nowhere.page.tab");
  wayOn(where, t("nowhere.page.title"), t("nowhere.page.why"), [["/", t("nowhere.front")], ["/replay", t("nowhere.record")]]);
}
