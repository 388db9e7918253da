// The page's router: the lobby at /, a table at /t/ID, the verifier at /verify.
import { prefs } from "./dom.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showVerify } from "./verify.js";

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
}

setupTools();
const app = document.getElementById("app");
const path = location.pathname;
const m = path.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/);
if (m) showTable(app, m[1]);
else if (path.startsWith("/verify")) showVerify(app);
else showLobby(app);
