// The move list in the notation of RULES.md §5: numbered turns, South's in
// the first column and North's in the second. A game whose first turn is
// North's (one started from a position) begins "1... d6": its first row has
// an empty South cell. The simultaneous Choro opening takes a row alone.

import { actionHole, owner, sideName } from "./geom.js";
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
 * "1. a3 d6 …". Options: current, the index of the turn to highlight (-1 for
 * none, default the last); first, the side of the first turn ("S" or "N"),
 * for the words of an empty list; moves, the server's move list (docs/API.md:
 * [{number, side, text}] as the record writes it), used when given; opening
 * as for moveRows; empty, the words when there is no move yet; href(i), the
 * address a turn links to (a plain link, opened in the same tab unless the
 * reader asks for a new one); onPick(i), if given, is called instead of
 * following the link.
 */
export function renderMoves(box, turns, { current = turns.length - 1, first = "S", moves = null, opening = false, empty = null, href = null, onPick = null } = {}) {
  box.textContent = "";
  if (!(moves || turns).length) {
    box.appendChild(h("p", { class: "muted small" }, empty || `No moves yet. ${sideName(first) || "South"} moves first.`));
    return;
  }
  const body = h("tbody");
  for (const row of moveRows(turns, { moves, opening })) {
    const tr = h("tr", {}, h("th", { scope: "row" }, row.label));
    for (const c of row.cells.length === 1 && row.cells[0].both ? row.cells : [row.cells[0], row.cells[1]]) {
      if (!c) {
        tr.appendChild(h("td", { class: "empty" }));
        continue;
      }
      const j = c.index;
      const cell = h("td", { class: j === current ? "last" : "", colspan: c.both ? 2 : null });
      if (href || onPick) {
        const a = h("a", { href: href ? href(j) : "#", "data-turn": j }, c.text);
        if (onPick) {
          a.addEventListener("click", (e) => {
            if (e.ctrlKey || e.metaKey || e.shiftKey || e.button === 1) return; // a new tab, if asked for
            e.preventDefault();
            onPick(j);
          });
        }
        cell.appendChild(a);
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
