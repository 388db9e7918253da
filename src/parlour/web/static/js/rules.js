// "How to play": the game's page module writes the page (howToPlay()); the site shows it
// at /rules/NAME and, at the table, in a dialog over the game (the game goes on).
import { api, clear, h } from "./dom.js";
import { more, t } from "./i18n.js";

async function content(game) {
  const mod = await import(`./games/${encodeURIComponent(game)}.js`);
  if (!mod.howToPlay) throw new Error(game);  // no rules page: said below in words
  return mod.howToPlay();
}

export async function showRules(app, game) {
  let nodes;
  try { nodes = await content(game); } catch {
    clear(app).append(h("section", { class: "panel" }, h("h1", { text: t("howto.no_game") }),
      h("p", {}, h("a", { href: "/", text: t("nowhere.front_plain") }))));
    return;
  }
  document.title = `${nodes[0].textContent} · parlour`;
  clear(app).append(h("article", { class: "panel rules-page" }, nodes,
    h("p", {}, h("a", { class: "button primary", href: "/", text: t("howto.play_now") }))));
  const found = await rulings(game);
  if (!found) return;
  app.querySelector(".rules-page").append(found);
  // a link to one ruling (/rules/fanti#FA-6) opens at it, now that it is on the page
  if (location.hash.length > 1) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

/** The rulings the page cites, each under its id (an anchor: /rules/NAME#FA-6). They are
 * the project's reference text, in English whatever the page's language. */
async function rulings(game) {
  let list;
  try { list = await api(`/api/rulings/${encodeURIComponent(game)}`); } catch { return null; }
  const section = h("section", { id: "rulings", class: "rulings" },
    h("h2", { text: t("howto.rulings") }),
    h("dl", { lang: "en", dir: "ltr" }, list.flatMap((r) => [
      h("dt", { id: r.id }, h("a", { href: "#" + r.id, text: r.id }), " " + r.title),
      h("dd", { text: r.text })])));
  return section;
}

/** The rules in a dialog over the table; Escape or Close returns to the game. */
export async function openRulesDialog(game, opener) {
  await more("rules");  // a table page's words leave the rules out (server/pages.py)
  let dlg = document.getElementById("rules-dialog");
  if (dlg) dlg.remove();
  const close = h("button", { type: "button", class: "close", "data-action": "close-rules", text: t("howto.close") });
  dlg = h("dialog", { id: "rules-dialog", class: "rules-dialog", "aria-label": t("howto.dialog") },
    h("div", { class: "dialog-bar" }, close), h("article", { class: "rules-page" }, await content(game)));
  close.addEventListener("click", () => dlg.close());
  dlg.addEventListener("close", () => { dlg.remove(); if (opener) opener.focus(); });
  document.body.append(dlg);
  dlg.showModal();
  close.focus();
}
