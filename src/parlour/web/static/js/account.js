// The account page at /account (the header's link and whoAmI live in who.js): a
// guest's name, signing in and up with a password or a passkey, signing out (here or everywhere), your games to take back without the link, changing the
// password, downloading your data and deleting the account. The server keeps the
// session in an HttpOnly cookie: nothing here ever sees it.
import { api, clear, h } from "./dom.js";
import { lang, t, tn } from "./i18n.js";
import { whoAmI } from "./who.js";

const passkeysWork = () => typeof window.PublicKeyCredential === "function"
  && typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function";

async function passkeySignUp(name) {
  const o = await api("/api/passkeys/options", { method: "POST", body: { purpose: "register", name: name || null } });
  const made = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(o.options) });
  return api("/api/passkeys", { method: "POST", body: { id: o.id, credential: made.toJSON() } });
}

async function passkeySignIn() {
  const o = await api("/api/passkeys/options", { method: "POST", body: { purpose: "sign-in" } });
  const got = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(o.options) });
  return api("/api/session/passkey", { method: "POST", body: { id: o.id, credential: got.toJSON() } });
}

function field(id, label, attrs = {}) {
  return h("div", { class: "field" }, h("label", { for: id, text: label }), h("input", { id, ...attrs }));
}

/** A button that runs ``act`` and shows its error, in words, in ``error``. */
function action(name, text, error, act, cls = "") {
  const b = h("button", { type: "button", class: cls, "data-action": name, text });
  b.addEventListener("click", async () => {
    b.disabled = true;
    error.textContent = "";
    try {
      await act();
    } catch (e) {
      error.textContent = e.name === "NotAllowedError" ? t("account.passkey_unused") : e.message;
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

function done() { location.assign("/account"); }

function signedOut(app, me) {
  const error = h("p", { class: "error", role: "alert" });
  const value = (id) => document.getElementById(id).value;
  const creds = () => ({ name: value("account-name").trim(), password: value("account-password") });
  const guest = me.known ? h("section", { class: "panel" },
    h("h2", { text: t("account.guest.title") }),
    h("p", { text: t("account.guest.intro") }),
    field("guest-name", t("account.guest.name"), { maxlength: 24, value: me.name || "", autocomplete: "nickname" }),
    (() => {
      const err = h("p", { class: "error", role: "alert" });
      return h("div", {}, action("guest-name", t("account.guest.save"), err, async () => {
        await api("/api/me", { method: "PATCH", body: { name: value("guest-name").trim() } });
        localStorage.setItem("parlour.name", value("guest-name").trim());
        done();
      }), err);
    })()) : null;
  const passkeys = passkeysWork() ? h("div", { class: "field inline" },
    action("passkey-sign-in", t("account.passkey_sign_in"), error, async () => { await passkeySignIn(); done(); }),
    action("passkey-sign-up", t("account.passkey_sign_up"), error, async () => { await passkeySignUp(value("account-name").trim()); done(); }))
    : h("p", { class: "help", text: t("account.no_passkeys") });
  return [guest, h("section", { class: "panel" },
    h("h2", { text: t("account.sign.title") }),
    h("p", { text: t("account.sign.intro") }),
    field("account-name", t("account.sign.name"), { maxlength: 24, autocomplete: "username", value: me.guest ? "" : me.name }),
    field("account-password", t("account.sign.password"), { type: "password", maxlength: 256, autocomplete: "current-password" }),
    h("div", { class: "field inline" },
      action("sign-in", t("account.sign_in"), error, async () => { await api("/api/session", { method: "POST", body: creds() }); done(); }, "primary"),
      action("sign-up", t("account.sign_up"), error, async () => { await api("/api/accounts", { method: "POST", body: creds() }); done(); })),
    passkeys, error)];
}

function signedIn(me) {
  const error = h("p", { class: "error", role: "alert" });
  const value = (id) => document.getElementById(id).value;
  const out = async (path) => { await api(path, { method: "DELETE" }); location.assign("/"); };
  return [h("section", { class: "panel" },
    h("h2", { text: t("account.signed_in", { name: me.name }) }),
    h("p", { text: me.passkeys ? tn(me.password ? "account.have_both" : "account.have_passkeys", me.passkeys)
      : t("account.have_password") }),
    h("div", { class: "field inline" },
      action("sign-out", t("account.sign_out"), error, () => out("/api/session")),
      action("sign-out-everywhere", t("account.sign_out_everywhere"), error, () => out("/api/sessions")),
      passkeysWork() ? action("add-passkey", t("account.add_passkey"), error, async () => { await passkeySignUp(null); done(); }) : null),
    error),
  me.password ? h("section", { class: "panel" },
    h("h2", { text: t("account.password.title") }),
    field("old-password", t("account.password.old"), { type: "password", autocomplete: "current-password" }),
    field("new-password", t("account.password.new"), { type: "password", autocomplete: "new-password" }),
    (() => {
      const err = h("p", { class: "error", role: "alert" });
      return h("div", {}, action("change-password", t("account.password.title"), err, async () => {
        await api("/api/me/password", { method: "POST", body: { password: value("old-password"), new_password: value("new-password") } });
        err.textContent = t("account.password.changed");
      }), err);
    })()) : null];
}

function yourData(me) {
  const err = h("p", { class: "error", role: "alert" });
  const confirm = me.password
    ? field("delete-password", t("account.delete.password"), { type: "password", autocomplete: "current-password" })
    : me.guest ? null : field("delete-confirm", t("account.delete.confirm"), { maxlength: 24 });
  return h("section", { class: "panel" },
    h("h2", { text: t("account.data.title") }),
    h("p", {}, h("a", { href: "/api/me/export", download: "parlour-my-data.json", "data-action": "export", text: t("account.data.export") })),
    h("p", { text: me.guest ? t("account.data.forget_guest") : t("account.data.delete_account") }),
    confirm,
    action("delete-account", me.guest ? t("account.forget_me") : t("account.delete"), err, async () => {
      const body = me.password ? { password: document.getElementById("delete-password").value }
        : me.guest ? {} : { confirm: document.getElementById("delete-confirm").value };
      await api("/api/me", { method: "DELETE", body });
      location.assign("/");
    }, "warn"), err);
}

const day = (ts) => new Date(ts * 1000).toLocaleDateString(lang, { dateStyle: "medium", numberingSystem: "latn" });

/** Your passkeys: each with its label and dates (never an id), renamed or removed here. */
async function yourPasskeys() {
  let keys;
  try { keys = (await api("/api/passkeys")).passkeys; } catch { return null; }
  const err = h("p", { class: "error", role: "alert" });
  const list = h("ul", { class: "passkeys" });
  const change = async (k, method, body) => {
    err.textContent = "";
    try { draw((await api(`/api/passkeys/${encodeURIComponent(k.id)}`, { method, body })).passkeys); } catch (e) { err.textContent = e.message; }
  };
  const row = (k) => {
    const label = h("input", { maxlength: 40, value: k.label, "aria-label": t("account.passkeys.label"), "data-passkey-input": "", hidden: true });
    const save = h("button", { type: "button", "data-action": "save-passkey", text: t("account.passkeys.save"), hidden: true,
      onclick: () => change(k, "PATCH", { label: label.value }) });
    const rename = h("button", { type: "button", "data-action": "rename-passkey", text: t("account.passkeys.rename"),
      onclick: () => { label.hidden = save.hidden = false; rename.hidden = true; label.focus(); } });
    const used = k.used ? t("account.passkeys.used", { date: day(k.used) }) : t("account.passkeys.unused");
    return h("li", { "data-passkey-row": k.id },
      h("strong", { "data-passkey-label": "", text: k.label }), " ",
      h("span", { class: "help", "data-passkey-dates": "", text: `${t("account.passkeys.created", { date: day(k.created) })} · ${used}` }), " ",
      label, save, rename,
      h("button", { type: "button", class: "warn", "data-action": "remove-passkey", text: t("account.passkeys.remove"), onclick: () => change(k, "DELETE") }));
  };
  const draw = (items) => {
    clear(list).append(...(items.length ? items.map(row) : [h("li", { text: t("account.passkeys.none") })]));
  };
  draw(keys);
  return h("section", { class: "panel", "data-passkeys": "" }, h("h2", { text: t("account.passkeys.title") }), list, err);
}

async function yourTables() {
  let rows = [];
  try { rows = await api("/api/me/tables"); } catch { rows = []; }
  if (!rows.length) return null;
  return h("section", { class: "panel", "data-my-tables": "" },
    h("h2", { text: t("account.tables.title") }),
    h("ul", {}, rows.map((r) => h("li", {},
      h("a", { href: r.url, "data-my-table": r.table, text: t(r.status === "playing" ? "account.tables.playing" : "account.tables.waiting", { game: r.title, name: r.name }) })))));
}

/** The account page (/account). */
export async function showAccount(app) {
  const me = await whoAmI(true);
  document.title = t("account.tab");
  const parts = me.guest ? signedOut(app, me) : signedIn(me);
  clear(app).append(h("div", { class: "account" },
    h("h1", { text: me.guest ? t("account.you") : me.name }),
    ...parts, me.guest ? null : await yourPasskeys(), await yourTables(), me.known ? yourData(me) : null,
    h("p", {}, h("a", { href: "/", text: t("nowhere.front_plain") }))));
}
