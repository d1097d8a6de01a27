// The analysis board's tree of moves: the line played (a game's, or the
// first one played on the board) and the variations that branch off it,
// action by action, and its rendering as a move list in record notation,
// variations indented under the action they branch from.

import { t } from "./i18n.js";
import { h } from "./ui.js";

/**
 * Node is one action of the tree (the root has none): by, the side that
 * played it; turnEnd, whether a turn starts after it; view and evaluation,
 * the server's answers once fetched; mark, a review's judgement of the
 * turn it ends.
 */
export class Node {
  constructor(parent, action, by = "", turnEnd = false) {
    this.parent = parent;
    this.action = action;
    this.by = by;
    this.turnEnd = turnEnd;
    this.children = [];
    this.view = null;
    this.evaluation = null;
    this.mark = "";
    this.review = null; // the review's turn this node starts (at a turn start)
  }

  /** path is the actions from the root to this node. */
  path() {
    const out = [];
    for (let n = this; n.parent; n = n.parent) out.push(n.action);
    return out.reverse();
  }

  /** child returns the child of action, adding it last if new. */
  child(action, by = "", turnEnd = false) {
    let c = this.children.find((x) => x.action === action);
    if (!c) {
      c = new Node(this, action, by, turnEnd);
      this.children.push(c);
    }
    return c;
  }

  /** depth is the number of actions from the root. */
  depth() {
    let d = 0;
    for (let n = this; n.parent; n = n.parent) d++;
    return d;
  }

  /** end follows the first children to the end of the line. */
  end() {
    let n = this;
    while (n.children.length) n = n.children[0];
    return n;
  }

  /** sibling returns the variation beside this one (dir -1 or 1), or this. */
  sibling(dir) {
    if (!this.parent) return this;
    const s = this.parent.children;
    const i = s.indexOf(this) + dir;
    return i >= 0 && i < s.length ? s[i] : this;
  }

  /** line is the nodes from the root to the end of this node's line. */
  line() {
    const out = [];
    for (let n = this; n; n = n.parent) out.unshift(n);
    let n = this;
    while (n.children.length) {
      n = n.children[0];
      out.push(n);
    }
    return out;
  }
}

/** turnStartsAt reports whether node n's action starts a turn (the root's turnEnd is set: a position starts a turn). */
export function turnStartsAt(n) {
  return !!(n.parent && n.parent.turnEnd);
}

/**
 * numbering returns the move number label of the turn that node n starts,
 * counting turns from the root whose side to move is first ("S" or "N"):
 * "12." for South's, "12..." for North's.
 */
function numberOf(n, first) {
  let turns = 0;
  for (let p = n.parent; p; p = p.parent) if (p.parent && p.turnEnd) turns++;
  // turns before n's: the first side's turn is number 1
  const offset = first === "N" ? 1 : 0;
  const num = Math.floor((turns + offset) / 2) + 1;
  return { num, south: n.by !== "N" };
}

/**
 * renderTree draws the tree of root into box: the main line, and each
 * variation indented under the action it replaces. current is highlighted;
 * onPick(node) is called when an action is chosen.
 */
export function renderTree(box, root, current, first, onPick) {
  box.textContent = "";
  if (!root.children.length) {
    box.append(h("p", { class: "muted small" }, t("analysis.no_moves")));
    return;
  }
  const out = h("div", { class: "line" });
  renderLine(out, root.children[0], current, first, onPick, true);
  box.append(out);
  const cur = box.querySelector("a[aria-current]");
  if (cur) box.scrollTop = Math.max(0, cur.offsetTop - box.clientHeight / 2);
}

// renderLine writes the line from node n on into el: each action, with the
// move number before a turn's first action (and after a variation), the
// other children of each node as variations.
function renderLine(el, n, current, first, onPick, fresh) {
  let needNumber = fresh;
  let firstHere = true;
  for (; n; n = n.children[0]) {
    const starts = turnStartsAt(n);
    if (starts || needNumber) {
      if (!firstHere) el.append(" ");
      const { num, south } = numberOf(n, first);
      if (starts && (south || needNumber)) el.append(h("span", { class: "num" }, south ? `${num}.` : `${num}...`), " ");
      else if (!starts) el.append(h("span", { class: "num" }, "…"));
    } else {
      // The simultaneous Choro opening's two choices are one turn: "a6|d3".
      el.append(n.by && n.parent.by && n.by !== n.parent.by ? "|" : ",");
    }
    needNumber = false;
    firstHere = false;
    const node = n;
    const a = h("a", { href: "#", "data-path": n.path().join(","), onclick: (e) => { e.preventDefault(); onPick(node); } }, n.action);
    if (n === current) a.setAttribute("aria-current", "step");
    el.append(a);
    if (n.mark) el.append(h("span", { class: `mark ${n.mark}`, title: t(`review.judgement.${n.mark}`) }, MARKS[n.mark] || ""));
    const alts = n.parent ? n.parent.children.slice(1) : [];
    if (n.parent && n.parent.children[0] === n && alts.length) {
      for (const alt of alts) {
        const v = h("span", { class: "var" });
        renderLine(v, alt, current, first, onPick, true);
        el.append(v);
      }
      needNumber = true;
    }
  }
}

/** MARKS are the signs of the review's judgements. */
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
