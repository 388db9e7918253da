// The verifier: check every deal commitment of a record (a finished table's, or a file
// you choose), round by round, on the server's /api/verify and again in this browser.
import { api, append, clear, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { checkReveal } from "./sheet.js";

// What the server's check of a round found, in words (server/verify.py's statuses).
const STATUS = {
  ok: "verify.status.ok",
  mismatch: "verify.status.mismatch",
  unrevealed: "verify.status.unrevealed",
  "no commitment": "verify.status.none",
  "bad deck": "verify.status.bad_deck",
};

// A record file's text as the record shown: a JSON object, the first of a JSON list, or
// the first line of JSON Lines (what `parlour tournament --out` writes). Returns
// { record, count }; throws an Error in plain words.
export function readRecordFile(text) {
  const notJson = new Error(t("verify.not_json"));
  let data;
  try { data = JSON.parse(text); } catch {
    const lines = text.split("\n").filter((l) => l.trim());
    if (lines.length < 2) throw notJson;
    try { data = lines.map((l) => JSON.parse(l)); } catch { throw notJson; }
  }
  if (Array.isArray(data)) {
    if (!data.length) throw new Error(t("verify.empty_list"));
    return { record: data[0], count: data.length };
  }
  return { record: data, count: 1 };
}

async function report(out, data) {
  clear(out);
  let res;
  try { res = await api("/api/verify", { method: "POST", body: data }); } catch (e) {
    out.append(h("p", { class: "error", role: "alert", text: e.message }));
    return;
  }
  const rows = await Promise.all(res.rounds.map(async (r, k) => {
    const rd = data.rounds[k];
    let local = "—";
    if (rd && rd.salt && rd.commit) local = (await checkReveal(rd)) ? "✓" : "✗";
    return h("tr", { class: r.status === "ok" ? "ok" : "bad" }, h("th", { scope: "row", text: String(r.round) }),
      h("td", { text: STATUS[r.status] ? t(STATUS[r.status]) : r.status }), h("td", { text: local }));
  }));
  // The commitments themselves are hashes: folded away, for whoever checks by hand.
  const hashes = res.rounds.filter((r) => r.commit);
  append(out, [
    h("p", { class: res.ok ? "verdict ok" : "verdict bad", role: "status",
      text: res.ok ? t("verify.ok") : t("verify.bad") }),
    res.record_error ? h("p", { class: "error", text: t("verify.record_error", { error: res.record_error }) }) : null,
    h("table", { class: "sheet verify" }, h("thead", {}, h("tr", {}, ["verify.col.round", "verify.col.server", "verify.col.browser"].map((k) => h("th", { scope: "col", text: t(k) })))),
      h("tbody", {}, rows)),
    hashes.length ? h("details", { class: "commitments" }, h("summary", { text: t("verify.commitments") }),
      h("ol", {}, hashes.map((r) => h("li", { value: String(r.round) }, h("span", { class: "mono", text: r.commit }))))) : null]);
}

export async function showVerify(app) {
  document.title = t("verify.tab");
  const out = h("div", { class: "verify-out" });
  const file = h("input", { type: "file", id: "record-file", accept: ".json,.jsonl,application/json" });
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (!f) return;
    let read;
    try { read = readRecordFile(await f.text()); } catch (e) {
      clear(out).append(h("p", { class: "error", role: "alert", text: e.message }));
      return;
    }
    await report(out, read.record);
    if (read.count > 1) {
      out.prepend(h("p", { class: "note", text: tn("verify.many_records", read.count) }));
    }
  });
  clear(app).append(h("section", { class: "panel verify-page" },
    h("h1", { text: t("verify.heading") }),
    h("p", { text: t("verify.intro") }),
    h("div", { class: "field" }, h("label", { for: "record-file", text: t("verify.file") }), file),
    out));
  const table = new URLSearchParams(location.hash.slice(1)).get("table");
  if (table !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(table)) {
    out.append(h("p", { class: "error", role: "alert", text: t("verify.bad_link") }));
  } else if (table) {
    try { await report(out, await api(`/api/tables/${encodeURIComponent(table)}/record`)); } catch (e) {
      out.append(h("p", { class: "error", role: "alert", text: e.message }));
    }
  }
}
