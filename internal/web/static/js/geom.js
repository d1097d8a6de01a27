// Board geometry and notation helpers (RULES.md §1 and §5), shared by every
// page. The rules themselves are the server's: which holes are special, each
// side's rows and sowing loop come with every view as its rule facts
// (docs/API.md, "Rule facts"); the helpers here that need them take the view
// (or any object with its special_holes and sides) as rules.

import { t } from "./i18n.js";

export const ROWS_TOP_DOWN = ["d", "c", "b", "a"];

/** ownerOf returns the side ("S" or "N") whose loop holds hole, or "". */
export function ownerOf(rules, hole) {
  const sides = (rules && rules.sides) || {};
  for (const side of Object.keys(sides)) {
    if ((sides[side].loop || []).includes(hole)) return side;
  }
  return "";
}

/** parseHole splits "a12" into {row: "a", col: 12}, or returns null. */
export function parseHole(s) {
  const m = /^([abcd])([1-9][0-9]?)$/.exec(s);
  return m ? { row: m[1], col: Number(m[2]) } : null;
}

/**
 * sowPath lists the holes a lap of `stones` from `from` drops into, in
 * order, along the sower's loop of the rules (anticlockwise, or backwards
 * when clockwise); [] when the rules have no loop through from.
 */
export function sowPath(rules, from, stones, clockwise) {
  const side = ownerOf(rules, from);
  const l = side ? rules.sides[side].loop : [];
  let i = l.indexOf(from);
  const out = [];
  if (i < 0) return out;
  for (let k = 0; k < stones; k++) {
    i = clockwise ? (i - 1 + l.length) % l.length : (i + 1) % l.length;
    out.push(l[i]);
  }
  return out;
}

/**
 * parsePosition reads a RULES.md §5 position into
 * {size, rows: {d,c,b,a}, heads: [...], toMove, opening}; it throws on bad text.
 */
export function parsePosition(text) {
  const parts = String(text).trim().split(/\s+/);
  if (parts.length < 2) throw new TextError("position.error.parts");
  const rowTexts = parts[0].split("/");
  if (rowTexts.length !== 4) throw new TextError("position.error.rows");
  const rows = {};
  const heads = [];
  let size = 0;
  rowTexts.forEach((rt, i) => {
    const row = ROWS_TOP_DOWN[i];
    const cells = rt.split(",");
    if (size && cells.length !== size) throw new TextError("position.error.lengths");
    size = cells.length;
    rows[row] = cells.map((c, j) => {
      let t = c;
      if (t.endsWith("*")) {
        heads.push(row + (j + 1));
        t = t.slice(0, -1);
      }
      if (!/^[0-9]+$/.test(t)) throw new TextError("position.error.count", { hole: row + (j + 1) });
      return Number(t);
    });
  });
  const toMove = parts[1];
  if (toMove !== "S" && toMove !== "N") throw new TextError("position.error.side");
  return { size, rows, heads, toMove, opening: parts.includes("opening") };
}

/** countOf reads a hole's count from a board {rows}. */
export function countOf(board, hole) {
  const h = parseHole(hole);
  return h ? board.rows[h.row][h.col - 1] : 0;
}

/** cloneBoard copies a board's rows and heads. */
export function cloneBoard(b) {
  return {
    size: b.size,
    rows: { d: [...b.rows.d], c: [...b.rows.c], b: [...b.rows.b], a: [...b.rows.a] },
    heads: [...(b.heads || [])],
  };
}

/**
 * actionHole maps an action string to the hole it is played on and its kind:
 * "a3" -> {hole:"a3", kind:"hole"}, "a3cw" -> cw, "xd5" -> take, "stop" -> {hole:null, kind:"stop"}.
 */
export function actionHole(a) {
  if (a === "stop") return { hole: null, kind: "stop" };
  let m = /^x([abcd][0-9]+)$/.exec(a);
  if (m) return { hole: m[1], kind: "take" };
  m = /^([abcd][0-9]+)cw$/.exec(a);
  if (m) return { hole: m[1], kind: "cw" };
  if (parseHole(a)) return { hole: a, kind: "hole" };
  return { hole: null, kind: "other" };
}

/** sideName names a side in words. */
export function sideName(p) {
  return p === "S" ? t("side.S") : p === "N" ? t("side.N") : "";
}

/** gameOf returns the game name of a ruleset string ("tsoro size=8" -> "tsoro"). */
export function gameOf(ruleset) {
  return String(ruleset || "").trim().split(/\s+/)[0] || "";
}

/** familyOf maps a game to its rules page: tsoro, nsolo or choro. */
export function familyOf(game) {
  if (game === "nsolo" || game === "choro") return game;
  return "tsoro";
}

/** stones writes "1 stone" / "3 stones" in the page's language. */
export function stones(n) {
  return t("common.stones", { count: n });
}

/**
 * TextError is an error said by a catalog key and its placeholders (ui.js's
 * errorText shows it in the page's language).
 */
export class TextError extends Error {
  constructor(key, vars = {}) {
    super(key);
    this.key = key;
    this.vars = vars;
  }
}

/**
 * describeEvents puts one action's events into short plain words, for the
 * screen-reader announcements and the rules demos.
 */
export function describeEvents(events) {
  const out = [];
  let laps = 0;
  for (const e of events) {
    if (e.kind === "sow") {
      laps++;
      const key = `events.${laps > 1 ? "relay" : "sow"}${e.clockwise ? "_cw" : ""}`;
      out.push(t(key, { count: e.stones, from: e.from, to: e.to }));
    } else if (e.kind === "take") {
      out.push(t("events.take", { count: e.stones, from: e.from }));
    } else if (e.kind === "move") {
      out.push(t("events.capture", { count: e.stones, from: e.from, to: e.to }));
    } else if (e.kind === "lap-limit") {
      out.push(t("events.lap_limit", { to: e.to }));
    }
  }
  return out.join(t("common.list_sep"));
}

/**
 * groupTurns splits a flat list of actions with "by" into turns: after each
 * action with turn_end (the replay format), else when the side changes. The
 * simultaneous Choro opening is one turn of both sides (by of its first).
 */
export function groupTurns(actions) {
  const turns = [];
  let cur = null;
  const ends = actions.some((a) => a.turn_end !== undefined);
  actions.forEach((a, i) => {
    if (!cur || (ends ? cur.ended : cur.by !== a.by)) {
      cur = { by: a.by, actions: [], first: i };
      turns.push(cur);
    }
    cur.actions.push(a.action);
    cur.ended = !!a.turn_end;
  });
  return turns;
}

/**
 * sortActions orders written actions for people: by hole, row a to d and
 * then column by number (a2 before a10), a hole's clockwise sowing after its
 * plain one, "stop" last.
 */
export function sortActions(actions) {
  const key = (a) => {
    const { hole, kind } = actionHole(a);
    const p = hole ? parseHole(hole) : null;
    if (!p) return [kind === "stop" ? 9 : 8, 0, 0, a];
    return [0, "abcd".indexOf(p.row), p.col, kind === "cw" ? 1 : 0];
  };
  return [...actions].sort((x, y) => {
    const a = key(x);
    const b = key(y);
    for (let i = 0; i < a.length; i++) {
      if (a[i] < b[i]) return -1;
      if (a[i] > b[i]) return 1;
    }
    return 0;
  });
}
