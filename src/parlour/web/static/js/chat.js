// Table chat: short text lines, never markup (textContent only), quick phrases, and a
// per-player mute kept in this browser. Seated players talk at the table; spectators
// read the table's chat and talk among themselves in their own channel. Chat is not
// part of the game record, and a chat message never waits on a move.
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

// Quick phrases: each one's words are the catalog's chat.phrase.NAME, sent as the sender's
// language writes them (chat is text; the others read what was said).
export const PHRASES = ["hello", "good_luck", "well_played", "good_game", "thanks", "oops", "one_more"];
export const MAX_LENGTH = 200;

const MUTE_KEY = "parlour.muted";
export const muted = {
  all() { try { return new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]")); } catch { return new Set(); } },
  has(name) { return this.all().has(name); },
  toggle(name) {
    const s = this.all();
    if (s.has(name)) s.delete(name); else s.add(name);
    localStorage.setItem(MUTE_KEY, JSON.stringify([...s]));
  },
};

/** The chat box for the side bar. `page` gives state, send() and the draft text. */
export function chatBox(page) {
  const s = page.state;
  // A spectator without a name of their own is told apart by the number the server gave.
  const nameOf = (l) => l.name || (l.spectator ? t("chat.spectator_n", { n: l.spectator }) : "");
  // Muted names (this browser) and blocked players (their tag, at every table) are hidden.
  const lines = (s.chat || []).filter((l) => !muted.has(nameOf(l)) && !(l.who && page.blockedTags && page.blockedTags.has(l.who)));
  const mutedCount = (s.chat || []).length - lines.length;
  const list = h("ol", { class: "chat-lines", "aria-label": t("chat.lines"), "aria-live": "polite" },
    lines.map((l) => h("li", { class: `chat-line${l.channel === "watchers" ? " watchers" : ""}`, "data-chat-line": String(l.id) },
      h("b", { text: t("chat.said", { name: l.channel === "watchers" ? t("chat.watching_name", { name: nameOf(l) }) : nameOf(l) }) + " " }), h("span", { text: l.text }))));
  const input = h("input", { type: "text", maxlength: MAX_LENGTH, "data-chat-input": "", "aria-label": t("chat.input"),
    placeholder: t(s.you === null ? "chat.placeholder.watch" : "chat.placeholder.seat"), value: page.chatDraft || "" });
  const send = (text) => {
    text = text.trim();
    if (!text) return;
    page.send({ type: "chat", text });
    page.chatDraft = "";
    input.value = "";
  };
  input.addEventListener("input", () => { page.chatDraft = input.value; });
  input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); send(input.value); } });
  const others = [...new Set((s.chat || []).map(nameOf))].filter((n) => n !== page.myName());
  const mutes = others.length ? h("details", { class: "mutes" }, h("summary", { text: mutedCount ? tn("chat.mute.hidden", mutedCount) : t("chat.mute") }),
    others.map((n) => h("label", { class: "mute" }, h("input", { type: "checkbox", "data-mute": n, checked: muted.has(n),
      onchange: () => { muted.toggle(n); page.render(); } }), ` ${n}`))) : null;
  setTimeout(() => { list.scrollTop = list.scrollHeight; }, 0);
  return h("section", { class: "box chat" }, h("h2", { text: t(s.you === null ? "chat.title.watch" : "chat.title") }),
    list,
    h("div", { class: "phrases" }, PHRASES.map((p) => { const said = t(`chat.phrase.${p}`); return h("button", { type: "button", class: "phrase", "data-phrase": p, onclick: () => send(said) }, said); })),
    h("div", { class: "chat-send" }, input, h("button", { type: "button", "data-action": "chat-send", onclick: () => send(input.value) }, t("chat.send"))),
    mutes,
    s.you === null ? h("small", { class: "muted", text: t("chat.watchers_note") }) : null);
}
