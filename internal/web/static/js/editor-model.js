// The board editor's position: a board {size, rows, heads}, the side to move
// and Choro's opening flag, written in the notation of RULES.md §5. The
// edits change counts and marks only; whether the result is a position of
// the ruleset is the engine's to say (GET /api/position/check).

import { ROWS_TOP_DOWN, parseHole, parsePosition } from "./geom.js";

/** fromText reads a position into the editor's model; it throws on text it cannot draw. */
export function fromText(text) {
  const p = parsePosition(text);
  return { board: { size: p.size, rows: p.rows, heads: p.heads }, toMove: p.toMove, opening: p.opening };
}

/** toText writes the model as a position: rows d/c/b/a, heads marked *, the side, " opening". */
export function toText(m) {
  const rows = ROWS_TOP_DOWN.map((r) => m.board.rows[r].map((n, i) => `${n}${m.board.heads.includes(r + (i + 1)) ? "*" : ""}`).join(","));
  return `${rows.join("/")} ${m.toMove}${m.opening ? " opening" : ""}`;
}

/** emptied returns the model with every hole empty and no head marked. */
export function emptied(m) {
  const n = m.board.size;
  const rows = {};
  for (const r of ROWS_TOP_DOWN) rows[r] = new Array(n).fill(0);
  return { ...m, board: { size: n, rows, heads: [] } };
}

/**
 * edit applies a tool to a hole: {tool: "add"} one stone more, "remove"
 * one fewer (never below none), "set" n stones, "head" marks or unmarks
 * the hole as a head. It changes m and returns it.
 */
export function edit(m, hole, { tool, n = 0 }) {
  const p = parseHole(hole);
  if (!p || p.col > m.board.size) return m;
  const row = m.board.rows[p.row];
  const i = p.col - 1;
  if (tool === "add") row[i] += 1;
  else if (tool === "remove") row[i] = Math.max(0, row[i] - 1);
  else if (tool === "set") row[i] = Math.max(0, Math.floor(Number(n) || 0));
  else if (tool === "head") {
    const heads = m.board.heads;
    const k = heads.indexOf(hole);
    if (k >= 0) heads.splice(k, 1);
    else heads.push(hole);
  }
  return m;
}

