// The SVG board: four rows of N holes, stones drawn and counted, heads marked,
// legal holes highlighted, keyboard focus, and lap-by-lap animation of the
// server's events (RULES.md §1: rows d, c, b, a from the top as South sees them).
//
// Two layouts, chosen by the PORTRAIT media query and redrawn when it changes
// (rotation, resize):
//   - landscape (desktops, phones held sideways): the rows run across, the
//     viewer's own two rows at the bottom, column 1 on the viewer's left;
//   - portrait (phones held upright): the landscape picture turned a quarter
//     turn anticlockwise, so that sowing keeps its sense on the screen (still
//     anticlockwise) and the board fits the width with big holes, scrolling
//     up and down. The rows become columns: the opponent's two on the left,
//     one's own two on the right (South's view: d c | b a, so North's left and
//     South's right), column 1 at the bottom. Labels are not turned: the row
//     letters stand above and below the columns, the column numbers beside.
// Hole names, counts and keyboard arrows follow the drawn layout: an arrow
// moves to the nearest legal hole on the screen in its direction.

import { cloneBoard, countOf, parseHole, sowPath, stones } from "./geom.js";
import { t } from "./i18n.js";
import { animateLockstep, isLockstep } from "./lockstep.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 64;
const PIT = 27;
const ML = 30; // margin for the row letters
const MT = 26; // margin for the column numbers
const GAP = 16; // gap between North's and South's halves
const MAX_DRAWN = 10;
const PL = 28; // portrait: margin on each side for the column numbers
const PORTRAIT_MAX = 400; // portrait: widest board, in CSS px (a hole of about 65 px)

/** PORTRAIT is the media query of the upright layout. */
export const PORTRAIT = "(orientation: portrait) and (max-width: 700px)";

const media = (q) => (typeof window !== "undefined" && window.matchMedia ? window.matchMedia(q) : null);
const reducedMotion = () => { const m = media("(prefers-reduced-motion: reduce)"); return !!(m && m.matches); };

// Classes other pages put on holes (game.js: the hint), kept across a relayout.
const KEPT = ["hint"];

/** SPEEDS maps a speed setting to the delay of one dropped stone, in ms. */
export const SPEEDS = { slow: 260, normal: 130, fast: 45, instant: 0 };

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

// Stone offsets inside a pit: a sunflower spiral, so any count up to MAX_DRAWN looks like a heap.
const OFFSETS = Array.from({ length: MAX_DRAWN }, (_, i) => {
  const r = i === 0 ? 0 : 6.2 * Math.sqrt(i + 0.3);
  const a = i * 2.39996;
  return [r * Math.cos(a), r * Math.sin(a)];
});

function holeSeed(hole) {
  let h = 7;
  for (const ch of hole) h = (h * 31 + ch.charCodeAt(0)) % 997;
  return h;
}

// scrollPlan decides a scroll along one axis for follow: los and his are the
// holes' near and far edges (the first hole's first), from and to the view's.
// It returns null when they are well inside, else {delta, inside}: the scroll
// that centres them (the first alone when they cannot all be shown) and
// whether they are still in view now.
function scrollPlan(los, his, from, to, margin) {
  let lo = Math.min(...los);
  let hi = Math.max(...his);
  const room = to - from;
  if (hi - lo > room) {
    lo = los[0];
    hi = his[0];
  }
  const m = Math.min(margin, Math.max(0, (room - (hi - lo)) / 2));
  if (lo >= from + m && hi <= to - m) return null;
  return { delta: (lo + hi) / 2 - (from + to) / 2, inside: lo >= from && hi <= to };
}

/**
 * Board draws a position and lets the player pick legal holes.
 * Options: label (accessible name), onPick(hole) when a legal hole is chosen,
 * onRefuse(hole) when another one is.
 */
export class Board {
  constructor(host, opts = {}) {
    this.host = host;
    this.onPick = opts.onPick || null;
    this.onRefuse = opts.onRefuse || null; // a hole that is not legal was chosen
    this.label = opts.label || t("board.label");
    this.flipped = false;
    this.board = null; // {size, rows, heads}
    this.legal = new Set();
    this.last = null; // {from, to}
    this.holes = new Map(); // hole name -> {g, x, y}
    this.skipping = false;
    this.animating = false;
    this.focusHole = null;
    this.zoom = 1;
    this.special = new Set();
    this.rules = { special_holes: [], sides: {} };
    this.layoutQuery = media(PORTRAIT);
    this.portrait = !!(this.layoutQuery && this.layoutQuery.matches);
    this.layoutDue = false; // a relayout waits for the running animation
    if (this.layoutQuery) this.layoutQuery.addEventListener("change", () => this.relayout());
  }

  /** relayout redraws the board in the layout the screen now asks for. */
  relayout() {
    const p = !!(this.layoutQuery && this.layoutQuery.matches);
    if (p === this.portrait && !this.layoutDue) return;
    this.portrait = p;
    if (!this.board || !this.svg) return;
    if (this.animating) {
      this.layoutDue = true;
      return;
    }
    this.layoutDue = false;
    const focused = this.svg.contains(document.activeElement) ? this.focusHole : null;
    const kept = [];
    for (const [name, h] of this.holes) for (const c of KEPT) if (h.g.classList.contains(c)) kept.push([name, c]);
    this.build();
    for (const [name, c] of kept) this.mark(name, c, true);
    if (focused && this.holes.has(focused)) this.holes.get(focused).g.focus();
  }

  /**
   * setRules takes the rule facts of a view (docs/API.md): its special_holes,
   * marked as the holes that may sow clockwise, and its sides, whose loops
   * the sowing animations follow.
   */
  setRules(rules) {
    this.rules = { special_holes: (rules && rules.special_holes) || [], sides: (rules && rules.sides) || {} };
    this.special = new Set(this.rules.special_holes);
    if (this.svg) this.refresh();
  }

  /** setZoom scales the board (1: fit the column; more: bigger holes, scrolled sideways). */
  setZoom(z) {
    this.zoom = Math.max(1, Math.min(3, z));
    this.sizeSVG();
  }

  sizeSVG() {
    if (!this.svg) return;
    const n = this.board.size;
    if (this.portrait) {
      // Upright: as wide as the column allows (no sideways scrolling), up
      // and down as long as the board; zoom may widen it, inside its own box.
      this.svg.style.width = `${100 * this.zoom}%`;
      this.svg.style.minWidth = this.zoom > 1 ? `${Math.round(PORTRAIT_MAX * this.zoom)}px` : "0";
      this.svg.style.maxWidth = this.zoom > 1 ? "none" : `${PORTRAIT_MAX}px`;
      return;
    }
    const w = ML + n * CELL + 10;
    // Small boards fill the column; big ones keep a minimum hole size and scroll.
    this.svg.style.width = `${100 * this.zoom}%`;
    this.svg.style.minWidth = `${Math.round((n * 32 + 40) * this.zoom)}px`;
    this.svg.style.maxWidth = this.zoom > 1 ? "none" : `${Math.round(w * 1.45)}px`;
  }

  /** setFlip turns the board 180° (North's view) and redraws. */
  setFlip(f) {
    if (this.flipped === !!f) return;
    this.flipped = !!f;
    if (this.board) this.build();
  }

  /** set draws a board {size, rows, heads} with its legal holes and last move. */
  set(board, legalHoles = [], last = null) {
    const rebuild = !this.board || this.board.size !== board.size || !this.svg;
    this.board = cloneBoard(board);
    this.legal = new Set(legalHoles);
    this.last = last;
    if (rebuild) this.build();
    else this.refresh();
  }

  build() {
    const n = this.board.size;
    const up = this.portrait;
    const w = up ? 2 * PL + 4 * CELL + GAP : ML + n * CELL + 10;
    const h = up ? MT * 2 + n * CELL : MT * 2 + 4 * CELL + GAP;
    this.host.textContent = "";
    const svg = el("svg", {
      viewBox: `0 0 ${w} ${h}`,
      class: up ? "board portrait" : "board",
      "data-layout": up ? "portrait" : "landscape",
      role: "group",
      "aria-label": this.label,
    });
    const defs = el("defs", {}, svg);
    const wood = el("linearGradient", { id: "wood", x1: 0, y1: 0, x2: 0.15, y2: 1 }, defs);
    el("stop", { offset: "0", class: "w1" }, wood);
    el("stop", { offset: "0.55", class: "w2" }, wood);
    el("stop", { offset: "1", class: "w1" }, wood);
    const pit = el("radialGradient", { id: "pit", cx: 0.5, cy: 0.42, r: 0.6 }, defs);
    el("stop", { offset: "0", class: "p1" }, pit);
    el("stop", { offset: "1", class: "p2" }, pit);
    const tones = [["#f1ede6", "#a59d90"], ["#d9d2c4", "#8c8476"], ["#e8dccb", "#9b8a73"]];
    tones.forEach(([a, b], i) => {
      const g = el("radialGradient", { id: `stone${i}`, cx: 0.35, cy: 0.32, r: 0.75 }, defs);
      el("stop", { offset: "0", "stop-color": a }, g);
      el("stop", { offset: "1", "stop-color": b }, g);
    });
    if (up) {
      el("rect", { class: "frame", x: PL - 8, y: MT - 8, width: 4 * CELL + GAP + 16, height: n * CELL + 16, rx: 18 }, svg);
      const midX = PL + 2 * CELL + GAP / 2;
      el("line", { class: "divider", x1: midX, x2: midX, y1: MT, y2: MT + n * CELL }, svg);
    } else {
      el("rect", { class: "frame", x: ML - 8, y: MT - 8, width: n * CELL + 16, height: 4 * CELL + GAP + 16, rx: 18 }, svg);
      const midY = MT + 2 * CELL + GAP / 2;
      el("line", { class: "divider", x1: ML, x2: ML + n * CELL, y1: midY, y2: midY }, svg);
    }

    // The rows in landscape order, top to bottom (portrait: left to right).
    const rowsTop = this.flipped ? ["a", "b", "c", "d"] : ["d", "c", "b", "a"];
    this.holes.clear();
    for (let c = 1; c <= n; c++) {
      const [x, y] = this.at(0, c);
      const label = (lx, ly) => { el("text", { class: "label", x: lx, y: ly }, svg).textContent = String(c); };
      if (up) {
        label(PL / 2 - 2, y);
        label(w - PL / 2 + 2, y);
      } else {
        label(x, MT / 2 - 2);
        label(x, h - MT / 2 + 2);
      }
    }
    rowsTop.forEach((row, ri) => {
      const [rx, ry] = this.at(ri, 1);
      if (up) {
        el("text", { class: "label", x: rx, y: MT / 2 - 2 }, svg).textContent = row;
        el("text", { class: "label", x: rx, y: h - MT / 2 + 2 }, svg).textContent = row;
      } else {
        el("text", { class: "label", x: ML / 2 - 4, y: ry }, svg).textContent = row;
      }
      for (let c = 1; c <= n; c++) {
        const name = row + c;
        const [x, y] = this.at(ri, c);
        const g = el("g", { class: "hole", "data-hole": name, role: "button", tabindex: -1 }, svg);
        el("circle", { class: "pit", cx: x, cy: y, r: PIT }, g);
        el("circle", { class: "ring", cx: x, cy: y, r: PIT + 3 }, g);
        const stones = el("g", { class: "stones" }, g);
        const crown = el("path", {
          class: "crown",
          d: `M${x - 30} ${y - 19} l5 -9 l4 6 l4 -8 l4 8 l4 -6 l5 9 z`,
        }, g);
        const count = el("text", { class: "count", x: x + 20, y: y + 21 }, g);
        const spin = el("text", { class: "special-mark hidden", x: x - 21, y: y + 22, "aria-hidden": "true" }, g);
        spin.textContent = "↻";
        g.addEventListener("click", () => this.pick(name));
        g.addEventListener("focus", () => { this.focusHole = name; });
        this.holes.set(name, { g, x, y, stones, count, crown, spin });
      }
    });
    this.hand = el("g", { class: "hidden", "aria-hidden": "true" }, svg);
    el("circle", { class: "hand", r: 13 }, this.hand);
    this.handText = el("text", { class: "hand-text" }, this.hand);
    svg.addEventListener("keydown", (e) => this.key(e));
    this.svg = svg;
    this.sizeSVG();
    this.host.appendChild(svg);
    this.refresh();
  }

  // at returns the centre [x, y] of the hole in column c of the ri-th row
  // from the top of the landscape picture (ri 0..3), in the current layout.
  at(ri, c) {
    const along = this.flipped ? this.board.size - c : c - 1; // 0: landscape's left
    const across = ri * CELL + CELL / 2 + (ri >= 2 ? GAP : 0); // 0: landscape's top
    if (this.portrait) return [PL + across, MT + (this.board.size - 1 - along) * CELL + CELL / 2];
    return [ML + along * CELL + CELL / 2, MT + across];
  }

  /** refresh redraws every hole from the current model. */
  refresh() {
    for (const name of this.holes.keys()) this.drawHole(name);
    this.updateTabStops();
  }

  drawHole(name) {
    const h = this.holes.get(name);
    if (!h) return;
    const n = countOf(this.board, name);
    const head = this.board.heads.includes(name);
    const legal = this.legal.has(name);
    h.g.classList.toggle("legal", legal);
    h.g.classList.toggle("head", head);
    h.crown.classList.toggle("hidden", !head);
    const special = this.special.has(name);
    h.spin.classList.toggle("hidden", !special);
    h.g.classList.toggle("last-from", !!this.last && this.last.from === name);
    h.g.classList.toggle("last-to", !!this.last && this.last.to === name);
    h.count.textContent = String(n);
    h.count.classList.toggle("zero", n === 0);
    const parts = [name, stones(n)];
    if (head) parts.push(t("board.head"));
    if (special) parts.push(t("board.special"));
    if (legal) parts.push(t("board.legal"));
    h.g.setAttribute("aria-label", parts.join(t("common.comma")));
    h.g.setAttribute("aria-disabled", legal ? "false" : "true");
    const drawn = Math.min(n, MAX_DRAWN);
    const have = h.stones.childNodes.length;
    if (have === drawn) return;
    const seed = holeSeed(name);
    const rot = (seed % 360) * (Math.PI / 180);
    for (let i = have; i < drawn; i++) {
      const [ox, oy] = OFFSETS[i];
      const x = h.x + ox * Math.cos(rot) - oy * Math.sin(rot);
      const y = h.y + ox * Math.sin(rot) + oy * Math.cos(rot);
      el("circle", { class: "stone", cx: x.toFixed(1), cy: y.toFixed(1), r: 7, fill: `url(#stone${(seed + i) % 3})` }, h.stones);
    }
    while (h.stones.childNodes.length > drawn) h.stones.lastChild.remove();
  }

  updateTabStops() {
    const legal = [...this.legal].filter((x) => this.holes.has(x));
    let target = this.focusHole && this.legal.has(this.focusHole) ? this.focusHole : legal[0];
    for (const [name, h] of this.holes) h.g.setAttribute("tabindex", name === target ? "0" : "-1");
    if (!target) this.focusHole = null;
  }

  pick(name) {
    if (this.animating) return;
    if (!this.legal.has(name)) {
      if (this.onRefuse) this.onRefuse(name);
      return;
    }
    if (!this.onPick) return;
    this.focusHole = name;
    this.onPick(name);
  }

  /** focusFirst puts keyboard focus on a legal hole. */
  focusFirst() {
    const t = [...this.holes.entries()].find(([, h]) => h.g.getAttribute("tabindex") === "0");
    if (t) t[1].g.focus();
  }

  key(e) {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const cur = this.focusHole && this.holes.get(this.focusHole);
    if (dirs[e.key]) {
      e.preventDefault();
      const [dx, dy] = dirs[e.key];
      const next = this.nearest(cur, dx, dy);
      if (next) {
        this.focusHole = next;
        this.updateTabStops();
        this.holes.get(next).g.focus();
      }
    } else if ((e.key === "Enter" || e.key === " ") && this.focusHole) {
      e.preventDefault();
      this.pick(this.focusHole);
    }
  }

  // nearest finds the legal hole nearest to cur in direction (dx, dy), wrapping round.
  nearest(cur, dx, dy) {
    const legal = [...this.legal].filter((x) => this.holes.has(x)).map((x) => [x, this.holes.get(x)]);
    if (!legal.length) return null;
    if (!cur) return legal[0][0];
    let best = null;
    let bestScore = Infinity;
    for (const [name, h] of legal) {
      const ax = h.x - cur.x;
      const ay = h.y - cur.y;
      const along = ax * dx + ay * dy;
      if (along <= 0) continue;
      const across = Math.abs(ax * dy) + Math.abs(ay * dx);
      const score = along + across * 3;
      if (score < bestScore) { bestScore = score; best = name; }
    }
    if (best) return best;
    // Wrap: the farthest hole the other way, on the nearest line.
    for (const [name, h] of legal) {
      const ax = h.x - cur.x;
      const ay = h.y - cur.y;
      const along = -(ax * dx + ay * dy);
      const across = Math.abs(ax * dy) + Math.abs(ay * dx);
      const score = -along + across * 3;
      if (along > 0 && score < bestScore) { bestScore = score; best = name; }
    }
    return best;
  }

  /**
   * matches reports whether the drawn board has the counts of rows; when it
   * does not, the animation went wrong: it counts the miss in the page's
   * data-desync attribute (the tests read it) and warns.
   */
  matches(rows) {
    const same = ["a", "b", "c", "d"].every((r) => rows[r].every((n, i) => this.board.rows[r][i] === n));
    if (!same) {
      const d = document.body.dataset;
      d.desync = String(Number(d.desync || 0) + 1);
      console.warn("matombo: the animation ended on another board than the server's");
    }
    return same;
  }

  /** skip finishes the running animation at once. */
  skip() {
    this.skipping = true;
    if (this.wake) this.wake();
  }

  sleep(ms) {
    if (this.skipping || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.wake = null; resolve(); }, ms);
      this.wake = () => { clearTimeout(t); this.wake = null; resolve(); };
    });
  }

  mark(name, cls, on) {
    const h = this.holes.get(name);
    if (h) h.g.classList.toggle(cls, on);
  }

  /**
   * follow keeps the holes being sown in view (two in Choro's lockstep
   * opening; when they cannot both be shown, the first): when they come
   * within a hole and a half of the edge of the viewport, or of the board's
   * own sideways scroll (less when they only just fit), the page scrolls to
   * bring them to the middle, smoothly unless the user prefers reduced
   * motion; when they are already out of view, at once. A board the reader
   * scrolled right out of view is left alone, and nothing moves while an
   * animation is being skipped.
   */
  follow(names) {
    if (this.skipping || !this.svg) return;
    const rects = names.map((x) => this.holes.get(x)).filter(Boolean).map((h) => h.g.getBoundingClientRect());
    if (!rects.length) return;
    const vh = window.innerHeight;
    const vw = document.documentElement.clientWidth || window.innerWidth;
    const whole = this.svg.getBoundingClientRect();
    if (whole.bottom <= 0 || whole.top >= vh) return;
    const box = this.host.getBoundingClientRect();
    const margin = 1.5 * rects[0].height;
    const v = scrollPlan(rects.map((r) => r.top), rects.map((r) => r.bottom), 0, vh, margin);
    const h = scrollPlan(rects.map((r) => r.left), rects.map((r) => r.right), Math.max(0, box.left), Math.min(vw, box.right), margin);
    if (!v && !h) return;
    const smooth = !reducedMotion() && (!v || v.inside) && (!h || h.inside);
    const behavior = smooth ? "smooth" : "instant";
    if (v) window.scrollBy({ top: v.delta, behavior });
    if (h) this.host.scrollBy({ left: h.delta, behavior });
  }

  // sowing marks the hole a stone was just dropped into (the tests read it) and follows it.
  sowing(name) {
    if (this.sown && this.sown !== name) this.mark(this.sown, "sowing", false);
    this.sown = name;
    if (name) {
      this.mark(name, "sowing", true);
      this.follow([name]);
    }
  }

  showHand(name, n) {
    const h = this.holes.get(name);
    if (!h || this.skipping) return;
    this.hand.classList.toggle("hidden", n <= 0);
    this.hand.setAttribute("transform", `translate(${h.x - 22} ${h.y - 22})`);
    this.handText.textContent = String(n);
  }

  /**
   * animate plays a list of server events {kind, from, to, stones, clockwise}
   * on the drawn board, lap by lap, at the given drop delay (ms). onStep(event)
   * is called before each event. It resolves true when the events matched the
   * board, false when they did not (the caller then draws the server's board).
   */
  async animate(events, delay, onStep = null) {
    this.animating = true;
    document.body.dataset.animating = "1"; // the browser tests read it
    this.skipping = delay <= 0;
    const saved = this.legal;
    this.legal = new Set();
    this.refresh();
    let ok = true;
    try {
      for (let i = 0; i < events.length; i++) {
        const e = events[i];
        if (onStep) onStep(e);
        if (isLockstep(e)) {
          // A simultaneous Choro opening: its events are sown together.
          let j = i;
          while (j < events.length && isLockstep(events[j])) j++;
          const run = events.slice(i, j);
          i = j - 1;
          if (await animateLockstep(this, run, delay)) continue;
        } else if (await this.step(e, delay)) {
          continue;
        }
        ok = false;
        const d = document.body.dataset;
        d.desync = String(Number(d.desync || 0) + 1);
        console.warn("matombo: an event did not fit the board", e);
        break;
      }
    } finally {
      this.hand.classList.add("hidden");
      for (const h of this.holes.values()) h.g.classList.remove("active", "taken", "sowing");
      this.sown = null;
      this.animating = false;
      delete document.body.dataset.animating;
      this.skipping = false;
      this.legal = saved;
      if (this.layoutDue) this.relayout();
    }
    return ok;
  }

  async step(e, delay) {
    const b = this.board;
    const rows = b.rows;
    const at = (name) => parseHole(name);
    const add = (name, k) => {
      const p = at(name);
      rows[p.row][p.col - 1] += k;
      this.drawHole(name);
    };
    if (!at(e.from) || !at(e.to)) return false;
    if (e.kind === "sow") {
      if (countOf(b, e.from) !== e.stones) return false;
      const path = sowPath(this.rules, e.from, e.stones, !!e.clockwise);
      if (path[path.length - 1] !== e.to) return false;
      const per = e.stones > 0 ? Math.min(delay, 2600 / e.stones) : delay;
      this.mark(e.from, "active", true);
      if (!this.skipping) {
        // Laps drawn stone by stone, counted for the tests.
        const d = document.body.dataset;
        d.laps = String(Number(d.laps || 0) + 1);
      }
      add(e.from, -e.stones);
      this.showHand(e.from, e.stones);
      this.follow([e.from]);
      await this.sleep(per * 2);
      let left = e.stones;
      for (const h of path) {
        add(h, 1);
        left--;
        this.showHand(h, left);
        this.sowing(h);
        await this.sleep(per);
      }
      this.sowing(null);
      this.mark(e.from, "active", false);
      this.hand.classList.add("hidden");
      this.mark(e.to, "active", true);
      await this.sleep(per * 2);
      this.mark(e.to, "active", false);
      return true;
    }
    if (e.kind === "take" || e.kind === "move") {
      if (countOf(b, e.from) < e.stones) return false;
      this.mark(e.from, "taken", true);
      this.follow(e.kind === "move" ? [e.from, e.to] : [e.from]);
      await this.sleep(delay * 3);
      add(e.from, -e.stones);
      if (e.kind === "move") add(e.to, e.stones);
      await this.sleep(delay * 2);
      this.mark(e.from, "taken", false);
      return true;
    }
    if (e.kind === "lap-limit") {
      this.mark(e.to, "taken", true);
      this.follow([e.to]);
      await this.sleep(delay * 4);
      this.mark(e.to, "taken", false);
      return true;
    }
    return true;
  }
}
