// The operator's moderation page: reports (with the table's chat and whether the
// game's record is attached), and mute / suspend / ban / lift / close, each logged.
// The operator secret is asked once and kept for this tab only (sessionStorage).
import { api, clear, h } from "./dom.js";
import { has, lang, setupPicker, t } from "./i18n.js";
import { setupTheme } from "./theme.js";

setupPicker();
setupTheme();
const app = document.getElementById("app");
const KEY = "parlour.operator";

function call(path, options = {}) {
  const secret = sessionStorage.getItem(KEY) || "";
  return api(path, { ...options, headers: { "Content-Type": "application/json", Authorization: `Bearer ${secret}` } });
}

function when(at) { return new Date(at * 1000).toLocaleString(lang, { numberingSystem: "latn" }); }

/** How long a sanction holds: "until <date>" or "for good". */
function until(at) { return at ? t("admin.until", { date: when(at) }) : t("admin.for_good"); }

/** An action's or sanction's name ("mute", "ban", ...) in words, or as sent. */
function sanction(action) { return has(`admin.action.${action}`) ? t(`admin.action.${action}`) : action; }

/** A report's status ("open", "closed") in words, or as sent. */
function status(s) { return has(`admin.status.${s}`) ? t(`admin.status.${s}`) : s; }

function signIn(message) {
  const input = h("input", { type: "password", id: "operator-secret", autocomplete: "current-password" });
  const form = h("form", { class: "panel", "aria-label": t("admin.secret") },
    h("div", { class: "field" }, h("label", { for: "operator-secret", text: t("admin.secret") }), input),
    h("p", { class: "error", role: "alert", text: message || "" }),
    h("button", { type: "submit", class: "primary", "data-action": "operator-sign-in", text: t("admin.open") }));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); sessionStorage.setItem(KEY, input.value); show(); });
  clear(app).append(h("h1", { text: t("admin.heading") }), form);
  input.focus();
}

function actions(r, refresh) {
  const why = h("input", { type: "text", "aria-label": t("admin.reason_for", { id: r.id }), placeholder: t("admin.reason"), maxlength: 400 });
  const hours = h("input", { type: "number", min: 0, step: "any", "aria-label": t("admin.hours.label"), placeholder: t("admin.hours") });
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
  const buttons = ["mute", "suspend", "ban", "unmute", "unsuspend", "unban"]
    .map((a) => h("button", { type: "button", "data-admin": a, onclick: act(a, r.target), text: t(`admin.do.${a}`) }));
  buttons.push(h("button", { type: "button", "data-admin": "close", onclick: act("close", String(r.id)), text: t("admin.do.close") }));
  return h("div", { class: "admin-actions" }, why, hours, ...buttons, out);
}

async function show() {
  let reports, log;
  try {
    [reports, log] = await Promise.all([call("/api/admin/reports?status=all"), call("/api/admin/log")]);
  } catch (e) { signIn(e.message); return; }
  const refresh = () => show();
  const list = h("ol", { class: "admin-reports" }, reports.map((r) => {
    const held = Object.entries(r.sanctions).map(([k, v]) => `${sanction(k)} ${until(v.until)}`).join(", ");
    return h("li", { class: "panel", "data-report": r.id },
      h("h2", { text: t("admin.report", { id: r.id, name: r.target_name || t("admin.a_guest") }) }),
      h("p", { class: "muted", text: `${when(r.at)} · ${status(r.status)} · ${t("admin.player", { id: r.target })}${held ? " · " + held : ""}` }),
      h("p", { text: r.reason }),
      r.table_id ? h("p", { class: "muted", text: t(r.record ? "admin.table_record" : "admin.table", { id: r.table_id, status: r.table_status ? status(r.table_status) : t("admin.deleted") }) }) : null,
      r.record ? h("a", { href: `/replay/${r.table_id}`, text: t("admin.replay") }) : null,
      r.chat.length ? h("ul", { class: "admin-chat" }, r.chat.map((l) => h("li", { text: `${l.name}: ${l.text}` }))) : null,
      actions(r, refresh));
  }));
  clear(app).append(h("h1", { text: t("admin.heading") }),
    reports.length ? list : h("p", { class: "muted", text: t("admin.no_reports") }),
    h("h2", { text: t("admin.log") }),
    h("ul", { class: "admin-log", "data-admin-log": "" }, log.map((a) =>
      h("li", { text: `${when(a.at)} · ${a.actor}: ${sanction(a.action)} ${a.target} (${until(a.until)}): ${a.reason}` }))));
}

show();
