// Small DOM helpers shared by the pages.

import { TextError, sideName } from "./geom.js";
export { TextError };
import { t } from "./i18n.js";

/** h builds an element: h("a", {href: "/"}, "text", child...). */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, "");
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

/** $ finds one element by selector. */
export const $ = (sel, root = document) => root.querySelector(sel);

let toastTimer = null;

/** toast shows a short message at the bottom of the screen. */
export function toast(msg, ms = 2600) {
  let box = $("#toast");
  if (!box) {
    box = h("div", { id: "toast", class: "toast hidden", role: "status" });
    document.body.appendChild(box);
  }
  box.textContent = msg;
  box.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.add("hidden"), ms);
}

/** copyText copies to the clipboard, falling back to selecting an input. */
export async function copyText(text, input = null) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("ui.copied"));
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      toast(t("ui.copy_by_hand"));
    }
    return false;
  }
}

/** resultText says a finished game's result in words. */
export function resultText(result, reason, you = "") {
  if (result === "draw") return { title: t("result.draw"), detail: reasonText(reason, result) };
  if (result !== "S" && result !== "N") return { title: t("result.in_progress"), detail: "" };
  let title = t("result.side_wins", { side: sideName(result) });
  if (you === result) title = t("result.you_win");
  else if (you) title = t("result.you_lose");
  return { title, detail: reasonText(reason, result) };
}

function reasonText(reason, result) {
  const loser = result === "S" ? sideName("N") : result === "N" ? sideName("S") : "";
  switch (reason) {
    case "no legal action":
      return t("result.reason.no_legal_move", { side: loser });
    case "repetition":
      return result === "draw" ? t("result.reason.repetition_draw") : t("result.reason.repetition");
    case "turn limit":
      return t("result.reason.turn_limit");
    case "resigned":
      return t("result.reason.resigned", { side: loser });
    default:
      return reason ? t("result.reason.other", { reason }) : "";
  }
}

/** givenName is the name a human player gave, or "" for the default side names. */
export function givenName(p) {
  if (!p || p.kind !== "human" || !p.name || p.name === "South" || p.name === "North") return "";
  return p.name;
}

/**
 * playerText names a seat: "Computer · level 3", a given name, "Player", or
 * "open seat" for a human seat nobody has taken yet (seated false).
 */
export function playerText(p, seated = true) {
  if (!p) return t("player.open_seat");
  if (p.kind === "ai") return t("player.computer_level", { level: p.level });
  if (seated === false) return t("player.open_seat");
  return givenName(p) || t("player.player");
}

/** when formats an ISO time as a short local date and time. */
export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** pageId returns the last path segment (the game id of /game/{id}, /replay/{id}). */
export function pageId() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[1] || "");
}

/** fail shows an error in a page's main area. */
export function fail(where, err) {
  const box = typeof where === "string" ? $(where) : where;
  if (box) box.textContent = errorText(err);
}

// CODE_KEYS are the API's error codes (docs/API.md) whose words the
// catalogs carry: the page shows those, never the server's English. The
// other codes (bad_request, conflict, forbidden, not_found) name what was
// wrong only in the server's sentence, which is shown in a translated frame.
const CODE_KEYS = {
  network: "error.network",
  rate_limited: "error.rate_limited",
  internal: "error.internal",
  unavailable: "error.unavailable",
  too_large: "error.too_large",
  misdirected: "error.misdirected",
  unsupported_media_type: "error.unsupported",
  method_not_allowed: "error.unsupported",
  unauthorized: "error.unauthorized",
};

// FRAMES are the translated frames of the server's sentence, by code.
const FRAMES = {
  bad_request: "error.refused",
  conflict: "error.conflict",
  forbidden: "error.forbidden",
  not_found: "error.not_found",
  engine: "error.engine",
};

/**
 * errorText says an error in the page's language: an API error (http.js's
 * ApiError) by its code, the server's own sentence (in English) inside a
 * translated frame where only the sentence says what was wrong; an error
 * of the page itself by its message key (err.key, err.vars) when it has one.
 */
export function errorText(err) {
  if (!err) return t("error.unknown");
  if (err.key) return t(err.key, err.vars || {});
  if (err.code && CODE_KEYS[err.code]) return t(CODE_KEYS[err.code]);
  if (err.code && FRAMES[err.code] && err.message) return t(FRAMES[err.code], { message: err.message });
  if (err.code && err.message) return t("error.server", { message: err.message });
  return err.message ? t("error.other", { message: err.message }) : t("error.unknown");
}


