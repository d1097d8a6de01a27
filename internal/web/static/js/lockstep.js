// The lockstep animation of Choro's simultaneous opening (RULES.md §3.4,
// opening=simultaneous): both players' openings are sown together, one
// stone a step each. The server's events of that opening carry `step`
// (1-based): a lap's step is the step of its first drop, and it drops one
// stone a step from then on; a capture's step is the step of its judging,
// after both drops of that step. Within a step South's events come first.

import { countOf, describeEvents, ownerOf, parseHole, sideName, sowPath } from "./geom.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/** isLockstep tells whether an event belongs to a lockstep opening. */
export function isLockstep(e) {
  return Number(e && e.step) > 0;
}

/** sideOf returns the player an event of the opening belongs to: the owner of the lap's hole, or of the hole a capture goes into. */
export function sideOf(rules, e) {
  return ownerOf(rules, e.kind === "sow" ? e.from : e.to);
}

// hand draws a player's stones in hand during the lockstep sowing.
function hand(board, side) {
  const g = document.createElementNS(SVG, "g");
  g.setAttribute("class", `hidden lockstep-hand hand-${side}`);
  g.setAttribute("aria-hidden", "true");
  const c = document.createElementNS(SVG, "circle");
  c.setAttribute("class", "hand");
  c.setAttribute("r", "13");
  const t = document.createElementNS(SVG, "text");
  t.setAttribute("class", "hand-text");
  g.append(c, t);
  board.svg.appendChild(g);
  return {
    show(name, n) {
      const h = board.holes.get(name);
      if (!h || board.skipping) return;
      g.classList.toggle("hidden", n <= 0);
      g.setAttribute("transform", `translate(${h.x - 22} ${h.y - 22})`);
      t.textContent = String(n);
    },
    remove() { g.remove(); },
  };
}

/**
 * animateLockstep plays the events of a simultaneous opening on board (a
 * Board) step by step, at delay ms a step (shortened so that a long opening
 * takes some seconds at most). It resolves true when the events fitted the
 * drawn board, false at the first one that did not.
 */
export async function animateLockstep(board, events, delay) {
  const b = board.board;
  const laps = [];
  const judged = new Map(); // step -> events judged in it, in order
  let last = 0;
  for (const e of events) {
    if (!parseHole(e.from) || !parseHole(e.to)) return false;
    if (e.kind === "sow") {
      const path = sowPath(board.rules, e.from, e.stones, !!e.clockwise);
      if (path[path.length - 1] !== e.to) return false;
      laps.push({ e, side: ownerOf(board.rules, e.from), path, dropped: 0 });
      last = Math.max(last, e.step + e.stones - 1);
    } else {
      if (!judged.has(e.step)) judged.set(e.step, []);
      judged.get(e.step).push(e);
      last = Math.max(last, e.step);
    }
  }
  const per = last > 0 ? Math.min(delay, 9000 / last) : delay;
  const add = (name, k) => {
    const p = parseHole(name);
    b.rows[p.row][p.col - 1] += k;
    board.drawHole(name);
  };
  const hands = { S: hand(board, "S"), N: hand(board, "N") };
  const active = { S: null, N: null };
  let sown = []; // the holes marked "sowing"
  const d = document.body.dataset;
  try {
    for (let step = 1; step <= last; step++) {
      let lifted = false;
      for (const side of ["S", "N"]) {
        const lap = laps.find((l) => l.side === side && l.e.step === step);
        if (!lap) continue;
        if (countOf(b, lap.e.from) !== lap.e.stones) return false;
        if (active[side]) board.mark(active[side].e.from, "active", false);
        add(lap.e.from, -lap.e.stones);
        board.mark(lap.e.from, "active", true);
        hands[side].show(lap.e.from, lap.e.stones);
        active[side] = lap;
        lifted = true;
        if (!board.skipping) d.laps = String(Number(d.laps || 0) + 1);
      }
      if (lifted) await board.sleep(per * 2);
      let drops = 0;
      for (const side of ["S", "N"]) {
        const lap = active[side];
        if (!lap || lap.dropped >= lap.e.stones) continue;
        const at = lap.path[lap.dropped++];
        add(at, 1);
        hands[side].show(at, lap.e.stones - lap.dropped);
        drops++;
      }
      // Mark the holes just sown into and keep both in view, the viewer's
      // first (North's when the board is turned).
      const order = board.flipped ? ["N", "S"] : ["S", "N"];
      const now = order.map((side) => active[side] && active[side].path[active[side].dropped - 1]).filter(Boolean);
      for (const name of sown) if (!now.includes(name)) board.mark(name, "sowing", false);
      for (const name of now) board.mark(name, "sowing", true);
      sown = now;
      board.follow(now);
      // Steps where both players dropped a stone, drawn one by one (the browser tests read it).
      if (drops === 2 && !board.skipping) d.lockstepSteps = String(Number(d.lockstepSteps || 0) + 1);
      await board.sleep(per);
      const here = judged.get(step) || [];
      if (!here.length) continue;
      for (const e of here) board.mark(e.kind === "lap-limit" ? e.to : e.from, "taken", true);
      await board.sleep(delay * 3);
      for (const e of here) {
        if (e.kind === "move" || e.kind === "take") {
          if (countOf(b, e.from) < e.stones) return false;
          add(e.from, -e.stones);
          if (e.kind === "move") add(e.to, e.stones);
        }
      }
      await board.sleep(delay * 2);
      for (const e of here) board.mark(e.kind === "lap-limit" ? e.to : e.from, "taken", false);
    }
    return laps.every((l) => l.dropped === l.e.stones);
  } finally {
    hands.S.remove();
    hands.N.remove();
    for (const name of sown) board.mark(name, "sowing", false);
    for (const side of ["S", "N"]) if (active[side]) board.mark(active[side].e.from, "active", false);
  }
}

/**
 * describeLockstep puts a simultaneous opening's events into short plain
 * words: each player's laps and captures, South's first; rules are the
 * view's rule facts (whose sides own the holes).
 */
export function describeLockstep(rules, events) {
  const out = [];
  const ended = {};
  for (const side of ["S", "N"]) {
    const mine = events.filter((e) => isLockstep(e) && sideOf(rules, e) === side);
    const laps = mine.filter((e) => e.kind === "sow");
    if (!laps.length) continue;
    const caps = mine.filter((e) => e.kind === "move").reduce((n, e) => n + e.stones, 0);
    const end = laps[laps.length - 1];
    ended[side] = end.step + end.stones - 1;
    const vars = { side: sideName(side), from: laps[0].from, laps: t("lockstep.laps", { count: laps.length }), to: end.to, step: ended[side] };
    out.push(caps ? t("lockstep.opens_captures", { ...vars, stones: t("common.stones", { count: caps }) }) : t("lockstep.opens", vars));
  }
  if (ended.S && ended.N) {
    out.push(ended.N < ended.S ? t("lockstep.north_first")
      : ended.S < ended.N ? t("lockstep.south_first")
        : t("lockstep.same_step"));
  }
  return out.join(t("common.list_sep"));
}

/** describeAny puts one action's events into words, a lockstep opening's included (rules as for describeLockstep). */
export function describeAny(rules, events) {
  return (events || []).some(isLockstep) ? describeLockstep(rules, events) : describeEvents(events || []);
}
