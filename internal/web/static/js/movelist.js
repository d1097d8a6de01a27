// The move list in the notation of RULES.md §5: numbered turns, South then North.

import { actionHole, owner } from "./geom.js";
import { h } from "./ui.js";

/**
 * turnSide says who plays a turn from its written actions: "S" or "N" by the
 * hole of its first action (every turn starts on the mover's own side), or
 * "SN" for the simultaneous Choro opening, which holds a choice of each.
 */
export function turnSide(turn) {
  const sides = new Set();
  for (const a of turn) {
    const { hole, kind } = actionHole(a);
    if (hole && kind !== "take") sides.add(owner(hole));
  }
  if (sides.size === 2) return "SN";
  const first = actionHole(turn[0] || "").hole;
  return first ? owner(first) : "S";
}

/**
 * moveRows lays turns out as numbered rows of the record (RULES.md §5): a
 * row holds South's turn then North's; "k..." when it starts with North;
 * the simultaneous opening takes a row alone, written "a6|d3". opts.opening
 * marks the first turn as the simultaneous opening still being chosen (its
 * written text then stands for the choices). Each row is {num, label,
 * cells: [{index, text} | null, …]}: two cells, or one for the opening.
 */
export function moveRows(turns, opts = {}) {
  if (opts.moves) return rowsOfMoves(opts.moves);
  const rows = [];
  let row = null;
  turns.forEach((t, i) => {
    const side = i === 0 && opts.opening ? "SN" : turnSide(t);
    if (side === "SN") {
      row = { cells: [{ index: i, text: t.join("|"), both: true }] };
      rows.push(row);
      row = null;
      return;
    }
    if (side === "S" || !row || row.cells[1]) {
      row = { cells: side === "S" ? [{ index: i, text: t.join(",") }] : [null, { index: i, text: t.join(",") }] };
      rows.push(row);
      return;
    }
    row.cells[1] = { index: i, text: t.join(",") };
  });
  rows.forEach((r, k) => {
    r.num = k + 1;
    r.label = r.cells[0] ? `${k + 1}.` : `${k + 1}...`;
  });
  return rows;
}

/**
 * rowsOfMoves lays out the server's move list (docs/API.md: the view's and
 * the replay's moves, [{number, side, text}] as the record writes them) as
 * moveRows does.
 */
export function rowsOfMoves(moves) {
  const rows = [];
  moves.forEach((m, i) => {
    const cell = { index: i, text: m.text, both: m.side === "both" };
    const last = rows[rows.length - 1];
    if (m.side === "N" && last && last.num === m.number && last.cells[0] && !last.cells[0].both && !last.cells[1]) {
      last.cells[1] = cell;
      return;
    }
    rows.push({ num: m.number, cells: cell.both ? [cell] : m.side === "N" ? [null, cell] : [cell] });
  });
  for (const r of rows) r.label = r.cells[0] ? `${r.num}.` : `${r.num}...`;
  return rows;
}

/**
 * renderMoves draws turns (arrays of written actions) into box as a table
 * "1. a3 d6 …". current is the index of the turn to highlight (-1 for none);
 * onPick(i), if given, makes each turn a button; opts as for moveRows
 * (opts.moves: the server's move list, used when given), opts.empty: the
 * words when there is no move yet.
 */
export function renderMoves(box, turns, current = turns.length - 1, onPick = null, opts = {}) {
  box.textContent = "";
  if (!(opts.moves || turns).length) {
    box.appendChild(h("p", { class: "muted small" }, opts.empty || "No moves yet. South moves first."));
    return;
  }
  const body = h("tbody");
  for (const row of moveRows(turns, opts)) {
    const tr = h("tr", {}, h("th", { scope: "row" }, row.label));
    for (const c of row.cells.length === 1 && row.cells[0].both ? row.cells : [row.cells[0], row.cells[1]]) {
      if (!c) {
        tr.appendChild(h("td"));
        continue;
      }
      const j = c.index;
      const cell = h("td", { class: j === current ? "last" : "", colspan: c.both ? 2 : null });
      if (onPick) {
        cell.appendChild(h("a", { href: "#", "data-turn": j, onclick: (e) => { e.preventDefault(); onPick(j); } }, c.text));
      } else {
        cell.textContent = c.text;
      }
      if (j === current) cell.setAttribute("aria-current", "step");
      tr.appendChild(cell);
    }
    body.appendChild(tr);
  }
  box.appendChild(h("table", { "aria-label": "Moves" }, h("thead", { class: "sr-only" }, h("tr", {}, h("th", {}, "Turn"), h("th", {}, "South"), h("th", {}, "North"))), body));
  const cur = box.querySelector("td.last");
  if (cur) {
    const top = cur.offsetTop - box.clientHeight / 2;
    box.scrollTop = Math.max(0, top);
  }
}

/** recordText writes turns as a numbered record line: "1. a3 d6 2. a7,stop", "1. a6|d3 2... c4". */
export function recordText(turns, opts = {}) {
  const out = [];
  for (const row of moveRows(turns, opts)) {
    out.push(row.label);
    for (const c of row.cells) if (c) out.push(c.text);
  }
  return out.join(" ");
}
