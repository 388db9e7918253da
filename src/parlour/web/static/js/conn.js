// The WebSocket to the server: hello first (the token travels in the message, never in
// the URL), then messages both ways; on a lost connection it reconnects by itself with
// exponential backoff (100 ms doubling up to 5 s) and gets the full state again.

export class Conn {
  constructor(table, auth, handlers) {
    this.table = table;
    this.auth = auth;
    this.handlers = handlers;
    this.attempt = 0;
    this.stopped = false;
    this.lastSeq = null;
    this.ws = null;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      ws.send(JSON.stringify({ type: "hello", table: this.table, ...this.auth, seq: this.lastSeq }));
      this.handlers.status("open");
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (typeof msg.seq === "number") this.lastSeq = msg.seq;
      this.handlers.message(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws || this.stopped) return;
      if (ev.code === 1008) { this.handlers.status("refused", ev.reason); return; }
      const delay = Math.min(5000, 100 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
      this.attempt += 1;
      this.handlers.status("reconnecting", Math.round(delay));
      setTimeout(() => { if (!this.stopped) this.connect(); }, delay);
    });
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }
}
