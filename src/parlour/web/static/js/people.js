// People at a table and your friends: follow, block or report the person in a seat;
// invite a player you follow to a free seat here; and, on the front page, who of the
// players you follow is online and the tables they invited you to. Blocked players'
// chat lines (tagged by the server) are hidden at every table.
import { whoAmI } from "./who.js";
import { api, h, seats } from "./dom.js";
import { t } from "./i18n.js";

/** Your follows and blocks, read once per page (then page.render() again). */
function load(page) {
  if (page.social !== undefined) return page.social;
  page.social = null;
  Promise.all([api("/api/friends"), api("/api/blocks")]).then(([friends, blocks]) => {
    page.social = { following: friends.following, blocked: blocks };
    page.blockedTags = new Set(blocks.map((b) => b.tag));
    page.render();
  }).catch(() => { page.social = { following: [], blocked: [] }; });
  return null;
}

async function act(page, path, body, note) {
  // The answer is kept on the page: the box is drawn again (moves, the lists read again).
  try {
    const out = await api(path, { method: "POST", body });
    page.peopleNote = out.message || t("people.done");
    page.social = undefined;  // read again
    load(page);
  } catch (e) { page.peopleNote = e.message; }
  note.textContent = page.peopleNote;
}

/** The side-bar box of a table page. */
export function peopleBox(page) {
  const s = page.state;
  const social = load(page);
  const tb = s.table;
  const note = h("p", { class: "muted", role: "status", text: page.peopleNote || "" });
  const others = tb.seats.map((x, i) => [x, i]).filter(([x, i]) => x.kind === "person" && x.claimed && i !== s.you);
  const rows = others.map(([x, i]) => {
    const reason = h("input", { type: "text", maxlength: 500, "aria-label": t("profile.actions.why", { name: x.name }), placeholder: t("profile.actions.what") });
    const report = h("details", { class: "report" }, h("summary", { "data-action": "report", "data-seat": i, text: t("profile.actions.report") }),
      reason, h("button", { type: "button", "data-action": "report-send", onclick: () => {
        if (reason.value.trim()) act(page, "/api/reports", { table: page.id, seat: i, reason: reason.value.trim() }, note);
      } }, t("profile.actions.send")));
    return h("li", { "data-person": i },
      h("span", { class: "seat-name", text: x.name }),
      h("button", { type: "button", "data-action": "follow", "data-seat": i, onclick: () => act(page, "/api/follows", { table: page.id, seat: i }, note) }, t("profile.actions.follow")),
      h("button", { type: "button", "data-action": "block", "data-seat": i, onclick: () => act(page, "/api/blocks", { table: page.id, seat: i }, note) }, t("profile.actions.block")),
      report);
  });
  const mine = seats.get(page.id);
  const free = tb.seats.some((x) => x.kind === "person" && !x.claimed);
  let invite = null;
  if (s.you !== null && mine && free && social && social.following.length) {
    const sel = h("select", { "aria-label": t("people.invite.select"), "data-invite-select": "" },
      social.following.map((f) => h("option", { value: f.tag, text: f.online ? t("people.online_name", { name: f.name }) : f.name })));
    invite = h("div", { class: "invite-friend" }, sel,
      h("button", { type: "button", "data-action": "invite-friend", onclick: () => act(page, "/api/invites", { table: page.id, token: mine.token, tag: sel.value }, note) }, t("people.invite")));
  }
  if (!rows.length && !invite) return null;
  return h("section", { class: "box people" }, h("h2", { text: t("people.title") }),
    rows.length ? h("ul", { class: "people-list" }, rows) : null, invite, note);
}

/** The front page's friends panel: who you follow (online first) and invitations. */
export async function friendsPanel(known) {
  let data = known;
  if (!data) try { data = await api("/api/friends"); } catch { return null; }
  if (!data.following.length && !data.invites.length) return null;
  return h("section", { class: "panel friends", "aria-labelledby": "friends-title" },
    h("h2", { id: "friends-title", text: t("people.friends") }),
    data.invites.length ? h("ul", { class: "invites" }, data.invites.map((i) => h("li", { "data-invite": i.table },
      `${t("people.invited", { name: i.from, game: i.title })} `, h("a", { class: "button primary", href: i.url, text: t("people.take") })))) : null,
    data.following.length ? h("ul", { class: "following" }, data.following.map((f) => h("li", { "data-friend": f.tag },
      h("span", { class: `dot ${f.online ? "connected" : "disconnected"}`, role: "img", "aria-label": f.online ? t("people.dot.online") : t("people.dot.offline") }),
      ` ${f.online ? t("people.online_name", { name: f.name }) : f.name}`))) : null);
}


/** A profile's own controls (/u/NAME of an account that is not you): follow or stop,
 *  block or unblock, and report (POST /api/reports by name: the server attaches the
 *  last game you shared). Null on your own profile and on a guest's. */
export async function profileActions(p) {
  const me = await whoAmI();
  if (p.guest || (!me.guest && me.name.toLowerCase() === p.name.toLowerCase())) return null;
  let following = false, blocked = false;
  try {
    const [friends, blocks] = await Promise.all([api("/api/friends"), api("/api/blocks")]);
    following = friends.following.some((f) => f.name === p.name);
    blocked = blocks.some((b) => b.name === p.name);
  } catch { /* shown as not yet followed or blocked: the server says otherwise */ }
  const note = h("p", { class: "muted", role: "status" });
  const send = async (path, body) => {
    try { note.textContent = (await api(path, { method: "POST", body })).message || ""; return true; } catch (e) { note.textContent = e.message; return false; }
  };
  const toggle = (action, on, words) => {
    const b = h("button", { type: "button", "data-action": action, "aria-pressed": String(on), text: on ? words[1] : words[0] });
    b.addEventListener("click", async () => {
      const path = `/api/${action === "follow" ? "follows" : "blocks"}${on ? "/remove" : ""}`;
      if (await send(path, { name: p.name })) { on = !on; b.textContent = on ? words[1] : words[0]; b.setAttribute("aria-pressed", String(on)); }
    });
    return b;
  };
  const W = (key, params) => t(`profile.actions.${key}`, params);
  const reason = h("input", { type: "text", maxlength: 500, "aria-label": W("why", { name: p.name }), placeholder: W("what") });
  const report = h("details", { class: "report" }, h("summary", { "data-action": "report", text: W("report") }),
    h("small", { class: "help", text: W("about") }), reason,
    h("button", { type: "button", "data-action": "report-send", onclick: () => {
      if (reason.value.trim()) send("/api/reports", { name: p.name, reason: reason.value.trim() });
    } }, W("send")));
  return h("section", { class: "profile-actions", "aria-label": W("heading"), "data-profile-actions": "" },
    toggle("follow", following, [W("follow"), W("unfollow")]), toggle("block", blocked, [W("block"), W("unblock")]), report, note);
}
