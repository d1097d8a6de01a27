// The move list in the notation of RULES.md §5: numbered turns, South's in
// the first column and North's in the second. A game whose first turn is
// North's (one started from a position) begins "1... d6": its first row has
// an empty South cell. The simultaneous Choro opening takes a row alone.

import { sideName } from "./geom.js";
import { h } from "./ui.js";
import { t } from "./i18n.js";

/** notationLink puts a small link to the notation page (/notation) after the move list box, once. */
function notationLink(box) {
  const next = box.nextElementSibling;
  if ((next && next.classList.contains("moves-help")) || !box.parentNode) return;
  box.after(h("p", { class: "moves-help small" }, h("a", { href: "/notation#turns" }, t("notation.moves_link"))));
}

/**
 * rowsOfMoves lays out the server's move list (docs/API.md: the view's and
 * the replay's moves, [{number, side, text}] as the record writes them) as
 * numbered rows of the record: a row holds South's turn then North's, is
 * labelled "k..." when it starts with North, and the simultaneous opening
 * ("a6|d3", side "both") takes a row alone. Each row is {num, label, cells:
 * [{index, text, both} | null, …]}: two cells, or one for the opening. The
 * server says whose each turn is: the page does not work it out.
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
 * [{number, side, text}] as the record writes it), which the table shows;
 * empty, the words when there is no move yet; href(i), the
 * address a turn links to (a plain link, opened in the same tab unless the
 * reader asks for a new one); onPick(i), if given, is called instead of
 * following the link.
 */
export function renderMoves(box, turns, { current = turns.length - 1, first = "S", moves = [], empty = null, href = null, onPick = null } = {}) {
  box.textContent = "";
  notationLink(box);
  moves = moves || [];
  if (!moves.length) {
    box.appendChild(h("p", { class: "muted small" }, empty || t("moves.none", { side: sideName(first) || sideName("S") })));
    return;
  }
  const body = h("tbody");
  for (const row of rowsOfMoves(moves)) {
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
  box.appendChild(h("table", { "aria-label": t("moves.title") }, h("thead", { class: "sr-only" }, h("tr", {}, h("th", {}, t("moves.turn")), h("th", {}, sideName("S")), h("th", {}, sideName("N")))), body));
  const cur = box.querySelector("td.last");
  if (cur) {
    const top = cur.offsetTop - box.clientHeight / 2;
    box.scrollTop = Math.max(0, top);
  }
}
