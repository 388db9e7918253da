// The page's words in the chosen language. The server names the language in
// <html lang dir> and the URL of its catalog (one language's "web" and "game" words,
// versioned, cached for a year) in data-catalog; this module fetches it once, before any
// module that imports it runs (top-level await), so nothing is drawn in the wrong words.
// Plurals by Intl.PluralRules (keys "name#one", "name#other"...), numbers by
// Intl.NumberFormat with Latin digits, as Python does with Babel (parlour.i18n).
const root = document.documentElement;
export const lang = root.lang || "en";
export const rtl = root.dir === "rtl";
const COOKIE = "parlour_lang";

async function load(url) {
  for (let i = 0; url && i < 2; i++) {
    try {
      const res = await fetch(url);
      if (res.ok) return await res.json();
    } catch { /* once more, then English words from nothing: see below */ }
  }
  return { web: {}, game: {} };
}

const words = await load(root.dataset.catalog);
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang, { numberingSystem: "latn" });

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name) =>
    name in params ? String(params[name]) : m);
}

function look(domain, key, params) {
  let text = words[domain] && words[domain][key];
  if (text === undefined) {
    // Never show a key: a missing word is a bug, said in the console, not on the page.
    console.error(`i18n: no text for ${domain}:${key}`);
    text = "";
  }
  return fill(text, params);
}

function pick(domain, key, count) {
  const d = words[domain] || {};
  const exact = `${key}#${plurals.select(count)}`;
  return exact in d ? exact : `${key}#other`;
}

/** A word of the page ("web" catalog), with {name} placeholders filled from params. */
export function t(key, params) { return look("web", key, params); }

/** The plural form of key for count ({count} is the number, formatted). */
export function tn(key, count, params) {
  return look("web", pick("web", key, count), { count: num(count), ...params });
}

/** A word of the games ("game" catalog: card names, scores, rules). */
export function tg(key, params) { return look("game", key, params); }

/** The plural form of a "game" catalog key. */
export function tgn(key, count, params) {
  return look("game", pick("game", key, count), { count: num(count), ...params });
}

/** More words for this page (the rules dialog at a table: bundle "rules"), merged in. */
export async function more(bundle) {
  const extra = await load(`/i18n/${encodeURIComponent(lang === "en-XA" ? "en-XA" : code())}/${bundle}/latest.json`);
  for (const d of Object.keys(extra)) words[d] = { ...extra[d], ...(words[d] || {}) };
}

/** The catalog's language code (the folder's name: "zh" where <html lang> says "zh-Hans"). */
function code() { return (root.dataset.catalog || "/i18n/en/").split("/")[2]; }

/** Whether a key exists (for words a server code may or may not have). */
export function has(key, domain = "web") { return Boolean(words[domain] && key in words[domain]); }

/** A number the way this language writes it (Latin digits). */
export function num(x) { return numbers.format(x); }

/** A list the way this language joins it ("a, b and c"). */
export function list(items) {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items.map(String));
}

/** The header's language picker: remember the choice for a year and redraw the page. */
export function setupPicker() {
  const pick = document.getElementById("lang");
  if (!pick) return;
  pick.addEventListener("change", () => {
    document.cookie = `${COOKIE}=${encodeURIComponent(pick.value)}; path=/; max-age=31536000; samesite=lax`;
    location.reload();
  });
}
