// The live socket of a game: /api/games/{id}/ws (docs/API.md), reconnected
// with backoff.

/**
 * LiveGame keeps a WebSocket to /api/games/{id}/ws open, reconnecting with
 * backoff (0.5 s doubling to 15 s, with jitter). Callbacks: onMessage(msg),
 * onStatus("live"|"connecting"|"offline").
 */
export class LiveGame {
  constructor(id, token, { onMessage, onStatus, ply = () => 0 }) {
    this.id = id;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.ply = ply;
    this.delay = 500;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
    this.connect();
    this.onVisible = () => {
      if (document.visibilityState === "visible" && !this.ws && !this.closed) {
        clearTimeout(this.timer);
        this.connect();
      }
    };
    document.addEventListener("visibilitychange", this.onVisible);
  }

  connect() {
    if (this.closed) return;
    this.onStatus("connecting");
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 500;
      ws.send(JSON.stringify({ type: "hello", token: this.token || "", ply: this.ply(), presence: true })); // presence: presence.js
      this.onStatus("live");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && msg.type !== "pong") this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.ws === ws) this.ws = null;
      if (!this.closed) this.retry();
    });
    ws.addEventListener("error", () => { /* close follows */ });
  }

  retry() {
    this.onStatus("offline");
    const wait = this.delay * (0.75 + Math.random() * 0.5);
    this.delay = Math.min(this.delay * 2, 15000);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** send writes a message when the socket is open; it reports whether it could. */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** close stops the connection for good. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.ws) this.ws.close();
  }
}
