// The HTTP and WebSocket client of the matombo API (see the server's contract).

/** ApiError carries the server's message, code and HTTP status. */
export class ApiError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** request sends a JSON (or text) request and returns the decoded JSON answer. */
export async function request(method, path, { body = undefined, token = "", text = false } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Seat ${token}`;
  const csrf = csrfToken(); // a logged-in player's session token for CSRF (see account.js)
  if (csrf && method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = csrf;
  let payload;
  if (body !== undefined) {
    if (text) {
      headers["Content-Type"] = "text/plain; charset=utf-8";
      payload = body;
    } else {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
  }
  let res;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: "same-origin" });
  } catch (err) {
    throw new ApiError("cannot reach the server; check your connection", "network", 0);
  }
  const type = res.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const msg = data && data.error ? data.error : `the server answered ${res.status}`;
    throw new ApiError(msg, data && data.code ? data.code : "http", res.status);
  }
  return data;
}

/** csrfToken returns the CSRF token of the session (cookie matombo_csrf), or "". */
export function csrfToken() {
  const m = /(?:^|;\s*)matombo_csrf=([^;]*)/.exec(document.cookie || "");
  return m ? decodeURIComponent(m[1]) : "";
}

export const get = (path, opts) => request("GET", path, opts);
export const post = (path, body, opts = {}) => request("POST", path, { ...opts, body });

// Seat tokens live in localStorage under matombo.seat.<id> (and, for games on
// one device, both seats under matombo.seats.<id>).

function store() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** saveSeat remembers a game's seat token. */
export function saveSeat(id, token) {
  const s = store();
  if (s && token) s.setItem(`matombo.seat.${id}`, token);
}

/** seatToken returns the remembered token of a game, or "". */
export function seatToken(id) {
  const s = store();
  return (s && s.getItem(`matombo.seat.${id}`)) || "";
}

/** saveLocalSeats remembers both seats of a game played on one device. */
export function saveLocalSeats(id, tokens) {
  const s = store();
  if (s && tokens) s.setItem(`matombo.seats.${id}`, JSON.stringify(tokens));
}

/** localSeats returns {S, N} tokens of a one-device game, or null. */
export function localSeats(id) {
  const s = store();
  try {
    const v = s && s.getItem(`matombo.seats.${id}`);
    return v ? JSON.parse(v) : null;
  } catch {
    return null;
  }
}

/** saveInvite / invite keep a friend game's invite link for its creator. */
export function saveInvite(id, url) {
  const s = store();
  if (s && url) s.setItem(`matombo.invite.${id}`, url);
}

export function invite(id) {
  const s = store();
  return (s && s.getItem(`matombo.invite.${id}`)) || "";
}

/** saveTeamInvite / teamInvite keep the link for the creator's team mates. */
export function saveTeamInvite(id, url) {
  const s = store();
  if (s && url) s.setItem(`matombo.team.${id}`, url);
}

export function teamInvite(id) {
  const s = store();
  return (s && s.getItem(`matombo.team.${id}`)) || "";
}

/** setting / saveSetting keep small user preferences. */
export function setting(name, fallback) {
  const s = store();
  const v = s && s.getItem(`matombo.pref.${name}`);
  return v === null || v === undefined ? fallback : v;
}

export function saveSetting(name, value) {
  const s = store();
  if (s) s.setItem(`matombo.pref.${name}`, String(value));
}

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
      ws.send(JSON.stringify({ type: "hello", token: this.token || "", ply: this.ply() }));
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

/** openCreated stores the seats of a newly created (or joined) game and goes to it. */
export function openCreated(res) {
  if (!res || !res.id) throw new Error("the server did not return a game");
  if (res.token) saveSeat(res.id, res.token);
  if (res.tokens) saveLocalSeats(res.id, res.tokens);
  if (res.invite) saveInvite(res.id, res.invite);
  if (res.team_invite) saveTeamInvite(res.id, res.team_invite);
  location.assign(`/game/${encodeURIComponent(res.id)}`);
}
