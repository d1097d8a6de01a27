// The board editor's board: the shared SVG board (board.js, with its
// portrait layout for phones held upright) where every hole can be chosen,
// by a tap or from the keyboard. A chosen hole is handed to the page, which
// applies its tool (add, remove, set, head); keys on a focused hole apply
// a tool at once: + and - add and remove a stone, 0 to 9 set the count,
// Delete empties the hole, h marks or unmarks a head.

import { Board } from "./board.js";
import { ROWS_TOP_DOWN, countOf } from "./geom.js";

/** KEYS maps the keys of a focused hole to an edit {tool, n}. */
const KEYS = { "+": { tool: "add" }, "=": { tool: "add" }, "-": { tool: "remove" }, Delete: { tool: "set", n: 0 }, Backspace: { tool: "set", n: 0 }, h: { tool: "head" }, H: { tool: "head" } };

/**
 * EditorBoard is a Board whose holes are all pickable. Options: label,
 * onEdit(hole, edit) with edit {tool, n} from a key, or null for a tap
 * or Enter (the page's current tool), and describe(hole, count, head,
 * special), the accessible name of a hole.
 */
export class EditorBoard extends Board {
  constructor(host, opts = {}) {
    super(host, { label: opts.label, onPick: (hole) => opts.onEdit(hole, null) });
    this.onEdit = opts.onEdit;
    this.describe = opts.describe || ((hole) => hole);
    host.addEventListener("keydown", (e) => this.editKey(e));
  }

  /** show draws the edited board {size, rows, heads}: every hole may be chosen. */
  show(board) {
    const all = [];
    for (const row of ROWS_TOP_DOWN) for (let c = 1; c <= board.size; c++) all.push(row + c);
    this.set(board, all);
  }

  drawHole(name) {
    super.drawHole(name);
    const h = this.holes.get(name);
    if (!h) return;
    // Every hole is "legal" to the board; the editor names holes its own way.
    h.g.setAttribute("aria-label", this.describe(name, countOf(this.board, name), this.board.heads.includes(name), this.special.has(name)));
    h.g.removeAttribute("aria-disabled");
  }

  editKey(e) {
    const hole = this.focusHole;
    if (!hole || !this.holes.has(hole) || e.ctrlKey || e.metaKey || e.altKey) return;
    let edit = KEYS[e.key] || null;
    if (!edit && /^[0-9]$/.test(e.key)) edit = { tool: "set", n: Number(e.key) };
    if (!edit) return;
    e.preventDefault();
    this.onEdit(hole, edit);
  }

  /** focusHoleNamed puts keyboard focus on a hole, if drawn. */
  focusHoleNamed(name) {
    const h = this.holes.get(name);
    if (!h) return;
    this.focusHole = name;
    this.updateTabStops();
    h.g.focus();
  }
}
