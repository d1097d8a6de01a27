// Small DOM helpers shared by the pages.

import { sideName } from "./geom.js";

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
  let t = $("#toast");
  if (!t) {
    t = h("div", { id: "toast", class: "toast hidden", role: "status" });
    document.body.appendChild(t);
  }
  t.textContent = msg;
  t.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.add("hidden"), ms);
}

/** copyText copies to the clipboard, falling back to selecting an input. */
export async function copyText(text, input = null) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Copied to the clipboard");
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      toast("Press Ctrl+C (or ⌘C) to copy");
    }
    return false;
  }
}

/** resultText says a finished game's result in words. */
export function resultText(result, reason, you = "") {
  if (result === "draw") return { title: "Draw", detail: reasonText(reason, result) };
  if (result !== "S" && result !== "N") return { title: "Game in progress", detail: "" };
  let title = `${sideName(result)} wins`;
  if (you === result) title = "You win";
  else if (you) title = "You lose";
  return { title, detail: reasonText(reason, result) };
}

function reasonText(reason, result) {
  const loser = result === "S" ? "North" : result === "N" ? "South" : "";
  switch (reason) {
    case "no legal action":
      return `${loser} has no legal move.`;
    case "repetition":
      return result === "draw" ? "The position repeated." : "The position repeated; adjudicated on stones held.";
    case "turn limit":
      return "The 2,000-turn limit was reached; adjudicated on stones held.";
    case "resigned":
      return `${loser} resigned.`;
    default:
      return reason ? `${reason[0].toUpperCase()}${reason.slice(1)}.` : "";
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
  if (!p) return "open seat";
  if (p.kind === "ai") return `Computer · level ${p.level}`;
  if (seated === false) return "open seat";
  return givenName(p) || "Player";
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
  if (box) box.textContent = err && err.message ? err.message : String(err);
}
