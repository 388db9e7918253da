// The operator's moderation page: reports (with the table's chat and whether the
// game's record is attached), and mute / suspend / ban / lift / close, each logged.
// The operator secret is asked once and kept for this tab only (sessionStorage).
import { api, clear, h } from "./dom.js";
import { setupPicker } from "./i18n.js";

setupPicker();
const app = document.getElementById("app");
const KEY = "parlour.operator";

function call(path, options = {}) {
  const secret = sessionStorage.getItem(KEY) || "";
  return api(path, { ...options, headers: { "Content-Type": "application/json", Authorization: `Bearer ${secret}` } });
}

function when(at) { return new Date(at * 1000).toLocaleString(); }

function signIn(message) {
  const input = h("input", { type: "password", id: "operator-secret", autocomplete: "current-password" });
  const form = h("form", { class: "panel", "aria-label": "Operator secret" },
    h("div", { class: "field" }, h("label", { for: "operator-secret", text: "Operator secret" }), input),
    h("p", { class: "error", role: "alert", text: message || "" }),
    h("button", { type: "submit", class: "primary", "data-action": "operator-sign-in", text: "Open" }));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); sessionStorage.setItem(KEY, input.value); show(); });
  clear(app).append(h("h1", { text: "Moderation" }), form);
  input.focus();
}

function actions(r, refresh) {
  const why = h("input", { type: "text", "aria-label": `Reason for report ${r.id}`, placeholder: "Reason (the player is shown it)", maxlength: 400 });
  const hours = h("input", { type: "number", min: 0, step: "any", "aria-label": "Hours (empty: until lifted)", placeholder: "hours" });
  const out = h("p", { class: "muted", role: "status" });
  const act = (action, target) => async () => {
    out.textContent = "";
    try {
      const body = { action, target, reason: why.value.trim() };
      if (hours.value && ["mute", "suspend", "ban"].includes(action)) body.hours = Number(hours.value);
      await call("/api/admin/actions", { method: "POST", body });
      refresh();
    } catch (e) { out.textContent = e.message; }
  };
  const buttons = [["mute", "Mute"], ["suspend", "Suspend"], ["ban", "Ban"], ["unmute", "Unmute"], ["unsuspend", "Unsuspend"], ["unban", "Unban"]]
    .map(([a, label]) => h("button", { type: "button", "data-admin": a, onclick: act(a, r.target), text: label }));
  buttons.push(h("button", { type: "button", "data-admin": "close", onclick: act("close", String(r.id)), text: "Close report" }));
  return h("div", { class: "admin-actions" }, why, hours, ...buttons, out);
}

async function show() {
  let reports, log;
  try {
    [reports, log] = await Promise.all([call("/api/admin/reports?status=all"), call("/api/admin/log")]);
  } catch (e) { signIn(e.message); return; }
  const refresh = () => show();
  const list = h("ol", { class: "admin-reports" }, reports.map((r) => {
    const held = Object.entries(r.sanctions).map(([k, v]) => `${k} ${v.until ? "until " + when(v.until) : "for good"}`).join(", ");
    return h("li", { class: "panel", "data-report": r.id },
      h("h2", { text: `Report ${r.id}: ${r.target_name || "a guest"}` }),
      h("p", { class: "muted", text: `${when(r.at)} · ${r.status} · player ${r.target}${held ? " · " + held : ""}` }),
      h("p", { text: r.reason }),
      r.table_id ? h("p", { class: "muted", text: `Table ${r.table_id}: ${r.table_status || "deleted"}${r.record ? ", the game's record is attached" : ""}` }) : null,
      r.record ? h("a", { href: `/replay/${r.table_id}`, text: "Replay the game" }) : null,
      r.chat.length ? h("ul", { class: "admin-chat" }, r.chat.map((l) => h("li", { text: `${l.name}: ${l.text}` }))) : null,
      actions(r, refresh));
  }));
  clear(app).append(h("h1", { text: "Moderation" }),
    reports.length ? list : h("p", { class: "muted", text: "No reports." }),
    h("h2", { text: "Every action" }),
    h("ul", { class: "admin-log", "data-admin-log": "" }, log.map((a) =>
      h("li", { text: `${when(a.at)} · ${a.actor}: ${a.action} ${a.target} (${a.until ? "until " + when(a.until) : "for good"}): ${a.reason}` }))));
}

show();
