// Games played on the offline page are kept in localStorage as records
// (RULES.md §5, written by the engine's Recorder) until the server has taken
// them: syncRecords posts each one to POST /api/records and removes it only
// after the server answered 201. A record the server refuses for what it is
// (400, 413) is kept, marked with the server's reason, and not sent again.

import { post } from "./http.js";
import { errorText } from "./ui.js";

const PENDING = "matombo.offline.pending";
const SYNCED = "matombo.offline.synced";
const KEEP_SYNCED = 20;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function read(key) {
  const s = storage();
  if (!s) return [];
  try {
    const v = JSON.parse(s.getItem(key) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function write(key, list) {
  const s = storage();
  if (!s) throw new Error("this browser keeps no local storage: the game cannot be saved");
  s.setItem(key, JSON.stringify(list));
}

/** pending lists the records not yet in the archive: {key, record, saved, refused?}. */
export function pending() {
  return read(PENDING);
}

/** synced lists the records the archive has taken, newest first: {key, id, url, saved}. */
export function synced() {
  return read(SYNCED);
}

/** saveRecord keeps a game's record until the server has it; it returns its key. */
export function saveRecord(record, key = "") {
  const list = read(PENDING);
  const k = key || `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const at = list.findIndex((p) => p.key === k);
  const item = { key: k, record, saved: new Date().toISOString() };
  if (at >= 0) list[at] = item;
  else list.push(item);
  write(PENDING, list);
  return k;
}

/** dropRecord forgets a pending record that has not been sent (a game taken up again). */
export function dropRecord(key) {
  update(key, () => null);
}

// update changes the pending record key by f (re-reading the list: another
// tab may have changed it meanwhile).
function update(key, f) {
  const list = read(PENDING);
  const at = list.findIndex((p) => p.key === key);
  if (at < 0) return;
  const next = f(list[at]);
  if (next) list[at] = next;
  else list.splice(at, 1);
  write(PENDING, list);
}

async function syncAll() {
  const out = { sent: 0, left: 0, error: "" };
  for (const item of pending()) {
    if (item.refused) continue;
    try {
      const res = await post("/api/records", item.record, { text: true });
      const done = read(SYNCED);
      done.unshift({ key: item.key, id: res.id, url: res.url, saved: item.saved });
      write(SYNCED, done.slice(0, KEEP_SYNCED));
      update(item.key, () => null);
      out.sent++;
    } catch (err) {
      out.error = errorText(err);
      if (err.status === 400 || err.status === 413) {
        update(item.key, (p) => ({ ...p, refused: out.error }));
        continue;
      }
      break; // offline, rate-limited or a server fault: all wait for the next try
    }
  }
  out.left = pending().length;
  return out;
}

/**
 * syncRecords sends the pending records to the archive and resolves with
 * {sent, left, error}. Tabs take turns (Web Locks), so no record is sent
 * twice at once.
 */
export function syncRecords() {
  if (navigator.locks && navigator.locks.request) {
    return navigator.locks.request("matombo-offline-sync", syncAll);
  }
  return syncAll();
}
