// The move list in the notation of RULES.md §5: numbered turns, South's in
// the first column and North's in the second. A game whose first turn is
// North's (one started from a position) begins "1... d6": its first row has
// an empty South cell.

import { sideName } from "./geom.js";
import { h } from "./ui.js";

/**
 * moveCells places turns in the rows of the list: it returns one entry per
 * turn, {row, col, number}, where col 0 is South's column and 1 North's, for
 * a game whose first turn is first's ("S" or "N").
 */
export function moveCells(count, first = "S") {
  const off = first === "N" ? 1 : 0;
  const out = [];
  for (let j = 0; j < count; j++) {
    const slot = j + off;
    out.push({ row: Math.floor(slot / 2), col: slot % 2, number: Math.floor(slot / 2) + 1 });
  }
  return out;
}

/**
 * renderMoves draws turns (arrays of written actions) into box as a table
 * "1. a3 d6 …". Options: current, the index of the turn to highlight (-1 for
 * none, default the last); first, the side of the first turn ("S" or "N");
 * href(i), the address a turn links to (a plain link, opened in the same
 * tab); onPick(i), if given, is called instead of following the link.
 */
export function renderMoves(box, turns, { current = turns.length - 1, first = "S", href = null, onPick = null } = {}) {
  box.textContent = "";
  if (!turns.length) {
    box.appendChild(h("p", { class: "muted small" }, `No moves yet. ${sideName(first) || "South"} moves first.`));
    return;
  }
  const cells = moveCells(turns.length, first);
  const rows = [];
  cells.forEach((c, j) => {
    if (!rows[c.row]) rows[c.row] = { number: c.number, cells: [null, null] };
    rows[c.row].cells[c.col] = j;
  });
  const body = h("tbody");
  for (const r of rows) {
    const tr = h("tr", {}, h("th", { scope: "row" }, `${r.number}.`));
    for (const j of r.cells) {
      if (j === null) {
        tr.appendChild(h("td", { class: "empty" }));
        continue;
      }
      const text = turns[j].join(",");
      const cell = h("td", { class: j === current ? "last" : "" });
      if (href || onPick) {
        const a = h("a", { href: href ? href(j) : "#", "data-turn": j }, text);
        if (onPick) a.addEventListener("click", (e) => {
          if (e.ctrlKey || e.metaKey || e.shiftKey || e.button === 1) return; // a new tab, if asked for
          e.preventDefault();
          onPick(j);
        });
        cell.appendChild(a);
      } else {
        cell.textContent = text;
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
