// A replay player: steps through a game in the server's replay format
// {ruleset, start, actions: [{action, by, events, position}]} with the board
// animation, play/pause, a slider and keyboard arrows. Used by the replay page
// and by the demo boards of the rules pages.

import { Board, SPEEDS } from "./board.js";
import { groupTurns, parsePosition, sideName } from "./geom.js";
import { describeAny } from "./lockstep.js";
import { h } from "./ui.js";
import { t } from "./i18n.js";

/**
 * icon draws the play (a triangle) or pause (two bars) symbol as SVG, so
 * that it shows in every font, emoji or not.
 */
function icon(pause) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 10 10");
  svg.setAttribute("class", `icon ${pause ? "pause" : "play"}`);
  svg.setAttribute("aria-hidden", "true");
  const shapes = pause ? [["rect", { x: 1.5, y: 1, width: 2.5, height: 8 }], ["rect", { x: 6, y: 1, width: 2.5, height: 8 }]] : [["path", { d: "M2 1 L9 5 L2 9 Z" }]];
  for (const [name, attrs] of shapes) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    svg.appendChild(e);
  }
  return svg;
}

/**
 * Player drives a Board from a replay. host receives the board and the
 * controls; opts: label, speed() returning a speed name, onChange(ply),
 * caption(ply, step) returning extra words for a step, documentKeys (the
 * arrow keys step wherever the focus is, for a page with one player).
 */
export class Player {
  constructor(host, opts = {}) {
    this.opts = opts;
    this.data = null;
    this.ply = 0;
    this.playing = false;
    this.busy = false;
    const boardBox = h("div", { class: "board-scroll" });
    this.board = new Board(boardBox, { label: opts.label || t("player.board") });
    this.first = h("button", { class: "btn small", type: "button", "aria-label": t("player.first"), onclick: () => this.go(0) }, "«");
    this.prev = h("button", { class: "btn small", type: "button", "aria-label": t("player.prev"), onclick: () => this.go(this.ply - 1) }, "‹");
    this.playBtn = h("button", { class: "btn small primary", type: "button", "aria-label": t("player.play"), onclick: () => this.toggle() }, icon(false), " ", t("player.play"));
    this.next = h("button", { class: "btn small", type: "button", "aria-label": t("player.next"), onclick: () => this.step() }, "›");
    this.last = h("button", { class: "btn small", type: "button", "aria-label": t("player.last"), onclick: () => this.go(this.length()) }, "»");
    this.slider = h("input", { type: "range", min: 0, max: 0, value: 0, "aria-label": t("player.ply"), oninput: () => this.go(Number(this.slider.value)) });
    this.out = h("output", {}, "0 / 0");
    this.caption = h("p", { class: "caption", "aria-live": "polite" });
    const bar = h("div", { class: "replay-bar" }, this.first, this.prev, this.playBtn, this.next, this.last, this.slider, this.out);
    if (opts.documentKeys) {
      // The page's one player: its keys work wherever the focus is, but in
      // a field (the slider steps by itself).
      document.addEventListener("keydown", (e) => {
        const tag = (e.target && e.target.tagName) || "";
        if (e.ctrlKey || e.metaKey || e.altKey || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
        this.key(e);
      });
    } else {
      bar.addEventListener("keydown", (e) => this.key(e));
      boardBox.addEventListener("keydown", (e) => this.key(e));
    }
    host.append(boardBox, bar, this.caption);
  }

  length() {
    return this.data ? this.data.actions.length : 0;
  }

  /** load shows a replay at ply (0: the start). */
  load(data, ply = 0) {
    this.data = data;
    this.board.setRules(data);
    this.slider.max = String(this.length());
    this.turns = groupTurns(data.actions);
    this.go(Math.max(0, Math.min(ply, this.length())));
  }

  /** firstToMove is the side of the replay's first turn: its start's side to move. */
  firstToMove() {
    return this.data ? this.positionAt(0).toMove : "S";
  }

  positionAt(k) {
    return parsePosition(k === 0 ? this.data.start : this.data.actions[k - 1].position);
  }

  lastMove(k) {
    if (k === 0) return null;
    const evs = this.data.actions[k - 1].events || [];
    const sows = evs.filter((e) => e.kind === "sow");
    if (!sows.length) return null;
    return { from: sows[0].from, to: sows[sows.length - 1].to };
  }

  /** turnIndex returns the index of the turn holding action k-1, or -1. */
  turnIndex(k) {
    if (k === 0) return -1;
    return this.turns.findIndex((t) => k - 1 >= t.first && k - 1 < t.first + t.actions.length);
  }

  /** go shows ply k at once (no animation). */
  go(k) {
    if (!this.data) return;
    k = Math.max(0, Math.min(k, this.length()));
    if (this.busy) this.board.skip();
    this.ply = k;
    const pos = this.positionAt(k);
    this.board.set(pos, [], this.lastMove(k));
    this.update();
  }

  /** step animates the next action; it resolves when the animation ends. */
  async step() {
    if (!this.data || this.busy || this.ply >= this.length()) return;
    this.busy = true;
    const k = this.ply;
    const act = this.data.actions[k];
    this.ply = k + 1;
    this.update();
    const speed = this.opts.speed ? this.opts.speed() : "normal";
    const ok = await this.board.animate(act.events || [], SPEEDS[speed] ?? SPEEDS.normal);
    this.busy = false;
    if (ok && this.ply === k + 1) this.board.matches(this.positionAt(k + 1).rows);
    if (this.ply === k + 1 || !ok) this.board.set(this.positionAt(this.ply), [], this.lastMove(this.ply));
  }

  toggle() {
    if (this.playing) {
      this.playing = false;
      this.update();
      return;
    }
    if (this.ply >= this.length()) this.go(0);
    this.playing = true;
    this.update();
    this.run();
  }

  async run() {
    while (this.playing && this.ply < this.length()) {
      await this.step();
      await new Promise((r) => setTimeout(r, 350));
    }
    this.playing = false;
    this.update();
  }

  key(e) {
    if (e.key === "ArrowRight") { e.preventDefault(); this.step(); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); this.go(this.ply - 1); }
    else if (e.key === "Home") { e.preventDefault(); this.go(0); }
    else if (e.key === "End") { e.preventDefault(); this.go(this.length()); }
    else if (e.key === "Escape") this.board.skip();
  }

  update() {
    const n = this.length();
    this.slider.value = String(this.ply);
    this.out.textContent = `${this.ply} / ${n}`;
    this.playBtn.textContent = "";
    this.playBtn.append(icon(this.playing), " ", this.playing ? t("player.pause") : t("player.play"));
    this.playBtn.setAttribute("aria-label", this.playing ? t("player.pause") : t("player.play"));
    this.prev.disabled = this.first.disabled = this.ply === 0;
    this.next.disabled = this.last.disabled = this.ply >= n;
    let text = t("player.start", { side: sideName(this.positionAt(0).toMove) });
    if (this.ply > 0) {
      const a = this.data.actions[this.ply - 1];
      text = t("player.action", { side: sideName(a.by), action: a.action, events: describeAny(this.data, a.events) || t("player.no_stones_move") });
      if (!a.turn_end && a.pending) text += " " + t("player.mid_turn", { side: sideName(a.by), pending: a.pending });
    }
    const extra = this.opts.caption ? this.opts.caption(this.ply, this.ply > 0 ? this.data.actions[this.ply - 1] : null) : "";
    this.caption.textContent = "";
    if (extra) this.caption.append(h("b", {}, extra), " ");
    this.caption.append(text);
    if (this.opts.onChange) this.opts.onChange(this.ply);
  }
}
