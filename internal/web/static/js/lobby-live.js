// The lobby's live socket (/api/lobby/ws, docs/API.md) and the keys of the
// challenges this browser posted: each key is the creator's seat token in
// the game its challenge becomes, so it stays in this browser only.

const KEYS = "matombo.lobby.keys";

function store() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** lobbyKeys returns this browser's challenges: {id: key}. */
export function lobbyKeys() {
  const s = store();
  try {
    const v = s && JSON.parse(s.getItem(KEYS) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

function saveKeys(keys) {
  const s = store();
  if (s) s.setItem(KEYS, JSON.stringify(keys));
}

/** saveLobbyKey remembers the key of a challenge this browser posted. */
export function saveLobbyKey(id, key) {
  saveKeys({ ...lobbyKeys(), [id]: key });
}

/** dropLobbyKey forgets a challenge that left the lobby. */
export function dropLobbyKey(id) {
  const keys = lobbyKeys();
  delete keys[id];
  saveKeys(keys);
}

/**
 * LobbySocket keeps the lobby's socket open, reconnecting with backoff
 * (0.5 s doubling to 15 s), and says hello with this browser's keys.
 * Callbacks: onMessage(msg), onStatus("live"|"connecting"|"offline").
 */
export class LobbySocket {
  constructor({ onMessage, onStatus }) {
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.delay = 500;
    this.ws = null;
    this.connect();
  }

  connect() {
    this.onStatus("connecting");
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/lobby/ws`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 500;
      this.hello();
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
      this.retry();
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

  /** hello (again) names this browser's challenges to the server. */
  hello() {
    this.send({ type: "hello", keys: Object.values(lobbyKeys()) });
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }
}
