// The HTTP client of the matombo API (docs/API.md): JSON requests and the
// errors they answer.

/**
 * ApiError carries the server's message, code and HTTP status, and the
 * typed fields some errors add (suggest_ruleset: a record import that plays
 * under another ruleset).
 */
export class ApiError extends Error {
  constructor(message, code, status, fields = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.suggestRuleset = (fields && typeof fields.suggest_ruleset === "string" && fields.suggest_ruleset) || "";
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
    throw new ApiError(msg, data && data.code ? data.code : "http", res.status, data && typeof data === "object" ? data : {});
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
