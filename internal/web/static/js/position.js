// The position viewer /position?ruleset=...&pos=...: any position, its side to
// move and legal actions, shareable by its address. The notation holds the
// start of a turn; a position in the middle of a turn of a stored game comes
// with &game=ID&ply=K, and is shown as that game's decision at ply K (what
// is due, what was played), never as a turn start.

import { get } from "./http.js";
import { Board } from "./board.js";
import { actionHole, plural, sideName, sortActions } from "./geom.js";
import { $, copyText, h } from "./ui.js";

// DECISIONS names the decisions of a turn for people.
const DECISIONS = {
  head: "a choice at a head",
  pick: "bonus picks",
  remove: "removals",
  direction: "the direction of the next lap",
};

/** midTurn returns the replay step of game at ply when it is mid-turn at pos, or null. */
async function midTurn(game, ply, ruleset, pos) {
  if (!game || !(ply > 0)) return null;
  const r = await get(`/api/games/${encodeURIComponent(game)}/replay`);
  const step = r.actions[ply - 1];
  if (!step || step.turn_end || step.position !== pos) return null;
  return { replay: r, step, next: r.actions[ply] || null };
}

function seats(v, toMove) {
  for (const [side, id] of [["N", "#seat-top"], ["S", "#seat-bottom"]]) {
    const box = $(id);
    box.className = `seat${toMove === side ? " to-move" : ""}`;
    box.append(h("span", { class: "dot" }), h("span", { class: "name" }, sideName(side)), h("span", { class: "count" }, plural(v.stones[side], "stone")));
  }
}

async function setup() {
  const q = new URLSearchParams(location.search);
  const ruleset = q.get("ruleset") || "tsoro";
  const pos = q.get("pos") || "";
  $("#f-ruleset").value = ruleset;
  $("#f-pos").value = pos;
  $("#share").addEventListener("click", () => copyText(location.href));
  const board = new Board($("#board"), { label: "Position board" });
  $("#flip").addEventListener("change", (e) => board.setFlip(e.target.checked));
  let v;
  let mid = null;
  try {
    v = await get(`/api/position?${new URLSearchParams({ ruleset, pos })}`);
    mid = await midTurn(q.get("game"), Number(q.get("ply")), ruleset, v.position).catch(() => null);
  } catch (err) {
    $("#error").textContent = err.message;
    return;
  }
  if (!pos) $("#f-pos").value = v.position;
  $("#title").textContent = `Position · ${v.ruleset_title || ruleset}`;
  $("#ruleset").textContent = v.ruleset;
  board.setRules(v);
  const info = $("#info");
  if (mid) {
    // Mid-turn: the side that played goes on; its decision is the game's.
    const side = mid.step.by;
    const replayAt = `/replay/${encodeURIComponent(q.get("game"))}?ply=${q.get("ply")}`;
    board.set({ size: v.size, rows: v.board.rows, heads: v.board.heads || [] }, [], null);
    document.body.dataset.decision = mid.step.decision;
    $("#to-move").textContent = `${sideName(side)} to move, mid-turn`;
    seats(v, side);
    info.append(h("div", { class: "text" },
      h("b", {}, `Mid-turn: ${sideName(side)}'s turn is not over. `),
      `Due now, ${DECISIONS[mid.step.decision] || mid.step.decision}: ${sideName(side)} must ${mid.step.pending}.`,
      mid.next && mid.next.by === side ? h("div", { class: "muted small" }, `In the game, ${sideName(side)} played ${mid.next.action}.`) : null,
      h("div", { class: "muted small", id: "play-reason" }, "A new game starts at the start of a turn, so this position cannot be played from. ",
        h("a", { href: replayAt }, "Step on in the replay"), " to the end of the turn.")),
    h("a", { class: "btn primary", id: "play-link", "aria-disabled": "true", title: "Mid-turn: a new game starts at the start of a turn" }, "Play from here"));
    return;
  }
  const holes = [...new Set((v.legal || []).map((a) => actionHole(a).hole).filter(Boolean))];
  board.set({ size: v.size, rows: v.board.rows, heads: v.board.heads || [] }, holes);
  document.body.dataset.decision = v.decision;
  $("#to-move").textContent = v.status === "over" ? "game over" : `${sideName(v.to_move)} to move`;
  seats(v, v.status === "over" ? "" : v.to_move);
  info.append(h("div", { class: "text" },
    v.status === "over" ? `Game over: ${v.result === "draw" ? "draw" : `${sideName(v.result)} wins`} (${v.reason}).` : `Legal: ${sortActions(v.legal || []).join(" ") || "none"}`,
    v.pending ? h("div", { class: "muted small" }, v.pending) : null),
    v.status === "over" ? null : h("a", { class: "btn primary", id: "play-link", href: `/?${new URLSearchParams({ ruleset: v.ruleset, pos: v.position })}` }, "Play from here"),
    h("a", { class: "btn", id: "analysis-link", href: `/analysis?${new URLSearchParams({ ruleset: v.ruleset, pos: v.position })}` }, "Analyse"));
}

setup();
