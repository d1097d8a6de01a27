// The puzzles page's memory on this device (localStorage): the player's
// Glicko-2 puzzle rating, the puzzles tried, the game chosen, and this
// browser's attempt id. The server keeps nothing of a puzzle player but
// the attempts counted in the puzzles' ratings (one per puzzle and
// attempt id); it computes the rating update (POST
// /api/puzzles/{preset}/{id}/result).

const RATING_KEY = "matombo.puzzles.rating";
const TRIED_KEY = "matombo.puzzles.tried";
const PRESET_KEY = "matombo.puzzles.preset";
const ATTEMPT_KEY = "matombo.puzzles.attempt";
const MAX_TRIED = 3000;

function store() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function read(key, fallback) {
  const s = store();
  try {
    const v = s && JSON.parse(s.getItem(key) || "null");
    return v === null ? fallback : v;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  const s = store();
  try {
    if (s) s.setItem(key, JSON.stringify(value));
  } catch {
    // A full or refused store: the rating lives for this page only.
  }
}

/** rating returns the player's {rating, rd, volatility}, or null before the first puzzle. */
export function rating() {
  const r = read(RATING_KEY, null);
  if (!r || !(r.rating > 0) || !(r.rd > 0) || !(r.volatility > 0)) return null;
  return { rating: r.rating, rd: r.rd, volatility: r.volatility };
}

/** saveRating keeps the player's rating and counts the puzzle solved or not. */
export function saveRating(r, solved) {
  const old = read(RATING_KEY, {}) || {};
  write(RATING_KEY, { rating: r.rating, rd: r.rd, volatility: r.volatility, solved: (old.solved || 0) + (solved ? 1 : 0), failed: (old.failed || 0) + (solved ? 0 : 1) });
}

/** record returns how many puzzles the player solved and failed. */
export function record() {
  const r = read(RATING_KEY, {}) || {};
  return { solved: r.solved || 0, failed: r.failed || 0 };
}

/** tried returns the ids of the puzzles tried, as a Set. */
export function tried() {
  const list = read(TRIED_KEY, []);
  return new Set(Array.isArray(list) ? list : []);
}

/** markTried adds a puzzle to those tried (the oldest are forgotten past MAX_TRIED). */
export function markTried(id) {
  const list = [...tried()].filter((x) => x !== id);
  list.push(id);
  write(TRIED_KEY, list.slice(-MAX_TRIED));
}

/** preset returns the game last chosen, or fallback. */
export function preset(fallback) {
  return read(PRESET_KEY, fallback) || fallback;
}

export function savePreset(name) {
  write(PRESET_KEY, name);
}

/** attempt returns this browser's attempt id (32 random hex digits), made once. */
export function attempt() {
  const old = read(ATTEMPT_KEY, "");
  if (typeof old === "string" && /^[0-9a-f]{32}$/.test(old)) return old;
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const id = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  write(ATTEMPT_KEY, id);
  return id;
}
