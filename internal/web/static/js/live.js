// The live socket of a game: /api/games/{id}/ws (docs/API.md), reconnected
// with backoff. An update carries what changed since the view the server
// sent last (its base ply): LiveGame applies it to the view it holds and
// hands on the whole view; after a gap it asks for the full view.

// KEPT are the fields of a game's view that stay the same for its life: an
// update leaves them out (the server's change.go lists the same).
const KEPT = ["ruleset", "ruleset_title", "game", "size", "mode", "created", "first_to_move",
  "special_holes", "sides", "simultaneous_opening"];

/**
 * applyChange returns the view that the update msg makes of view, the view
 * at its base ply: the kept fields of view, the fields of the update, and
 * the turns and moves of view before msg.turns_from followed by the
 * update's. It has no record (updates leave it out).
 */
export function applyChange(view, msg) {
  const v = {};
  for (const k of KEPT) if (k in view) v[k] = view[k];
  Object.assign(v, msg.game);
  const from = msg.turns_from || 0;
  v.turns = (view.turns || []).slice(0, from).concat(msg.game.turns || []);
  v.moves = (view.moves || []).slice(0, from).concat(msg.game.moves || []);
  return v;
}

/**
 * LiveGame keeps a WebSocket to /api/games/{id}/ws open, reconnecting with
 * backoff (0.5 s doubling to 15 s, with jitter). Callbacks: onMessage(msg),
 * with msg.game always a whole view; onStatus("live"|"connecting"|"offline").
 * ply() is the ply the page shows: a hello names it, so that the state
 * answering carries the events since.
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
    this.view = null; // the latest view, that updates change
    this.asking = false; // a hello asked for the full view after a gap
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
      this.view = null;
      this.asking = false;
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
      if (!msg || msg.type === "pong") return;
      if (msg.type === "state") {
        this.view = msg.game;
        this.asking = false;
      } else if (msg.type === "update" && msg.base === undefined) {
        if (!this.view || msg.game.ply >= this.view.ply) this.view = msg.game;
      } else if (msg.type === "update") {
        if (!this.view || !msg.game || this.view.ply !== msg.base) {
          // A gap: the full view, with the events since the page's ply.
          if (!this.asking) this.asking = this.send({ type: "hello", token: this.token || "", ply: this.ply() });
          return;
        }
        this.view = applyChange(this.view, msg);
        msg = { type: "update", game: this.view, events: msg.events };
      }
      this.onMessage(msg);
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
