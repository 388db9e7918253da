// Small DOM helpers: build elements without innerHTML (nothing from the server is
// ever parsed as HTML).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c.nodeType ? c : String(c));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function svgUse(id, cls) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", cls || "icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(ns, "use");
  use.setAttribute("href", "#" + id);
  svg.append(use);
  return svg;
}

export function announce(text) {
  const el = document.getElementById("announce");
  if (!el) return;
  el.textContent = "";
  setTimeout(() => { el.textContent = text; }, 30);
}

export async function api(path, options = {}) {
  const opts = { headers: { "Content-Type": "application/json" }, ...options };
  if (opts.body && typeof opts.body !== "string") opts.body = JSON.stringify(opts.body);
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    let msg = `HTTP ${res.status}`;
    if (data && data.message) msg = data.message;
    else if (data && Array.isArray(data.detail)) msg = data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    const err = new Error(msg);
    err.status = res.status;  // a page can tell "not there" (404) from other refusals
    throw err;
  }
  return data;
}

// A page links the style sheets of what it draws first (server/pages.py); a part that
// comes later (the end of a game, the rules dialog) fetches its own when it comes.
const sheets = {};

/** Link css/NAME.css once; resolves when it applies (or failed: unstyled beats nothing). */
export function style(name) {
  const href = `/static/css/${name}.css`;
  if (!sheets[name] && document.querySelector(`link[rel=stylesheet][href="${href}"]`)) sheets[name] = Promise.resolve();
  return (sheets[name] ||= new Promise((done) => {
    const link = h("link", { rel: "stylesheet", href, onload: done, onerror: done });
    document.head.append(link);
  }));
}

/** Fetch a file ahead into the browser's cache without applying it (what the next page links). */
export function prefetch(href) {
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h("link", { rel: "prefetch", href }));
}

/** A page that cannot show what was asked: a heading, why, and the ways on (links). */
export function wayOn(app, title, why, links) {
  clear(app).append(h("section", { class: "panel", "data-way-on": "" }, h("h1", { text: title }),
    h("p", { text: why }),
    h("ul", {}, links.map(([href, text]) => h("li", {}, h("a", { href, text }))))));
}

// Seat tokens live in localStorage, one per table; never in a URL.
export const seats = {
  get(table) {
    try { return JSON.parse(localStorage.getItem("parlour.seat." + table)); } catch { return null; }
  },
  set(table, value) { localStorage.setItem("parlour.seat." + table, JSON.stringify(value)); },
  forget(table) { localStorage.removeItem("parlour.seat." + table); },
};

export const prefs = {
  get(key, fallback) {
    const v = localStorage.getItem("parlour.pref." + key);
    return v === null ? fallback : v === "true";
  },
  set(key, value) { localStorage.setItem("parlour.pref." + key, String(value)); },
};
