// The puzzles page /puzzles (?preset=nsolo&id=nsolo-0042): a position where
// one first move wins by force. The player finds it; the server checks
// each move (on the puzzle's main line, or proven by the solver) and
// answers with the engine's best defence until the win is complete. The
// player's Glicko-2 rating is kept on this device (puzzles-store.js).

import { get, post } from "./http.js";
import { Board } from "./board.js";
import { actionHole, plural, sideName, sortActions } from "./geom.js";
import { directionChoices } from "./choro.js";
import { $, h } from "./ui.js";
import * as mem from "./puzzles-store.js";

const THEMES = {
  "bonus-picks": "a capture with bonus picks",
  removal: "a capture with removals",
  "head-stop": "a head stop",
  "head-relay": "a relay at a head",
  "clockwise-chain": "a clockwise chain",
  clockwise: "a clockwise lap",
  quiet: "a quiet move",
  "at-once": "won in one turn",
  long: "a long win",
};

const body = document.body.dataset;
const board = new Board($("#board"), { label: "Puzzle board", onPick: (hole) => pickHole(hole) });

let sets = [];
let puzzle = null; // GET /api/puzzles/{preset}/{id}
let view = null; // the board as it stands
let played = []; // every action from the puzzle's position
let mine = []; // indexes of the player's actions in played
let wrong = -1; // index of the wrong action, if any
let status = "";
let busy = false;
let choosing = "";
let counted = false; // the rating was updated for this puzzle

function me() {
  return puzzle ? puzzle.view.to_move : "S";
}

function canPlay() {
  return view && status === "playing" && !busy && view.to_move === me();
}

function prompt(cls, ...children) {
  const box = $("#prompt");
  box.textContent = "";
  box.className = `prompt ${cls}`;
  box.append(...children);
}

function drawRating() {
  const r = mem.rating();
  $("#my-rating").textContent = r ? String(Math.round(r.rating)) : "1500";
  $("#my-rd").textContent = r ? `± ${Math.round(2 * r.rd)}` : "unrated";
  const rec = mem.record();
  $("#my-record").textContent = rec.solved + rec.failed ? `${plural(rec.solved, "puzzle")} solved, ${rec.failed} failed` : "No puzzle tried yet.";
}

function seat(box, side, who) {
  box.textContent = "";
  box.classList.toggle("to-move", view.status === "playing" && view.to_move === side);
  box.append(h("span", { class: "dot", "aria-hidden": "true" }), h("span", { class: "name" }, sideName(side)),
    h("span", { class: "muted" }, who), h("span", { class: "count" }, plural(view.stones[side], "stone")));
}

function draw() {
  const legal = canPlay() ? view.legal : [];
  const holes = [...new Set(legal.map((a) => actionHole(a).hole).filter(Boolean))];
  board.set({ size: view.size, ...view.board }, holes, null);
  const you = me();
  const flip = $("#flip").checked;
  board.setFlip(flip);
  const top = flip ? "S" : "N";
  seat($("#seat-top"), top, top === you ? "You" : "The engine");
  seat($("#seat-bottom"), other(top), other(top) === you ? "You" : "The engine");
  drawMoves();
  body.status = status;
  body.turn = canPlay() ? "you" : "";
  body.decision = view.decision;
  body.plies = String(played.length);
  $("#give-up").disabled = status !== "playing";
  drawPrompt(legal);
}

function other(side) {
  return side === "S" ? "N" : "S";
}

function drawMoves(solution = null) {
  const list = $("#moves");
  list.textContent = "";
  played.forEach((a, i) => {
    const cls = i === wrong ? "wrong" : mine.includes(i) ? "you" : "";
    list.append(h("li", { class: cls }, a));
  });
  if (solution) {
    for (const a of solution) list.append(h("li", { class: "solution" }, a));
  }
  if (!played.length && !solution) list.append(h("li", { class: "muted small" }, "Your move."));
}

function label(action) {
  const { hole, kind } = actionHole(action);
  if (kind === "stop") return "Stop at the head";
  if (kind === "take") return view.decision === "remove" ? `Remove from ${hole}` : `Take ${hole}`;
  if (kind === "cw") return `Sow ${hole} clockwise`;
  return view.decision === "head" ? `Relay from ${hole}` : `Sow ${hole}`;
}

function button(action, text = label(action)) {
  return h("button", { class: "btn primary", type: "button", "data-action": action, onclick: () => play(action) }, text);
}

function drawPrompt(legal) {
  if (status === "solved" || status === "failed") return; // drawn by finish
  if (busy) {
    prompt("", h("div", { class: "text busy" }, "Checking…"));
    return;
  }
  const buttons = [];
  let text = played.length ? "Correct. Go on: find the next move." : "Find the move that wins.";
  if (view.decision === "direction") {
    const d = directionChoices(legal, view.pending_hole);
    text = d.text;
    for (const c of d.choices) buttons.push(button(c.action, c.label));
  } else {
    if (choosing) {
      for (const a of sortActions(legal.filter((x) => actionHole(x).hole === choosing))) buttons.push(button(a));
    }
    for (const a of legal.filter((x) => !actionHole(x).hole)) buttons.push(button(a));
    if (choosing) text = `How do you sow ${choosing}?`;
  }
  prompt("active", h("div", { class: "text" }, h("b", {}, text), view.pending ? h("div", { class: "muted small" }, view.pending) : null), ...buttons);
}

function pickHole(hole) {
  if (!canPlay()) return;
  const acts = view.legal.filter((a) => actionHole(a).hole === hole);
  if (acts.length === 1) {
    play(acts[0]);
    return;
  }
  choosing = hole;
  drawPrompt(view.legal);
}

async function play(action) {
  if (!canPlay()) return;
  busy = true;
  choosing = "";
  body.turn = "";
  drawPrompt([]);
  const at = played.length;
  let ans;
  try {
    ans = await post(`/api/puzzles/${encodeURIComponent(puzzle.preset)}/${encodeURIComponent(puzzle.id)}/moves`, { actions: [...played, action] });
  } catch (err) {
    busy = false;
    draw();
    prompt("", h("div", { class: "text" }, h("b", {}, "Not played"), h("div", { class: "small" }, err.message)));
    return;
  }
  busy = false;
  played.push(action);
  mine.push(at);
  played.push(...ans.replies);
  view = ans.view;
  status = ans.status;
  if (ans.replies.length) $("#announce").textContent = `The engine answers ${ans.replies.join(", ")}.`;
  if (status === "failed") wrong = at;
  draw();
  if (status !== "playing") await finish(ans);
}

// finish shows the end of the puzzle and counts it in the rating once.
async function finish(ans) {
  const solved = ans.status === "solved";
  let change = "";
  if (!counted) {
    counted = true;
    mem.markTried(puzzle.id);
    try {
      const r = await post(`/api/puzzles/${encodeURIComponent(puzzle.preset)}/${encodeURIComponent(puzzle.id)}/result`, { solved, rating: mem.rating() });
      const d = Math.round(r.rating.rating) - Math.round(r.before.rating);
      mem.saveRating(r.rating, solved);
      change = ` Your rating: ${Math.round(r.rating.rating)} (${d >= 0 ? "+" : ""}${d}).`;
    } catch (err) {
      change = ` (The rating could not be updated: ${err.message}.)`;
    }
    drawRating();
  }
  const line = ans.line || [];
  if (solved) {
    prompt("solved", h("div", { class: "text" }, h("b", {}, "Solved!"), h("div", { class: "small" }, `You won the game.${change}`)), nextButton());
  } else {
    const best = ans.best ? `${ans.best} would have kept the win.` : "That gives the win away.";
    prompt("failed", h("div", { class: "text" }, h("b", {}, "Not that move."), h("div", { class: "small" }, `${best}${change}`)),
      h("button", { class: "btn", type: "button", id: "retry", onclick: () => start(puzzle) }, "Try again"), nextButton());
  }
  showSolution(line);
  body.status = ans.status;
}

function nextButton() {
  return h("button", { class: "btn primary", type: "button", id: "next-inline", onclick: () => next() }, "Next puzzle");
}

// showSolution lists the main line and the puzzle's themes, and links to
// the analysis board at the puzzle's position.
function showSolution(line) {
  const themes = $("#themes");
  themes.textContent = "";
  if (line.length) themes.append(h("span", {}, `Main line: ${line.join(" ")}. `));
  if (puzzle.themes.length) {
    themes.append(h("span", {}, "Themes: "), ...puzzle.themes.map((t) => h("span", { class: "badge theme-tag" }, THEMES[t] || t)));
  }
  const links = $("#links");
  links.textContent = "";
  const q = new URLSearchParams({ ruleset: puzzle.view.ruleset, pos: puzzle.position });
  links.append(h("a", { href: `/analysis?${q}`, id: "analysis-link" }, "Analyse the position"), " · ",
    h("a", { href: `/position?${q}` }, "View it"), " · ",
    h("a", { href: `/puzzles?${new URLSearchParams({ preset: puzzle.preset, id: puzzle.id })}` }, "Link to this puzzle"));
}

// giveUp shows the solution: the puzzle counts as failed.
async function giveUp() {
  if (status !== "playing" || busy) return;
  status = "failed";
  draw();
  let ans = { status: "failed", line: [], best: "" };
  try {
    const sol = await get(`/api/puzzles/${encodeURIComponent(puzzle.preset)}/${encodeURIComponent(puzzle.id)}/solution`);
    ans = { status: "failed", line: sol.line, best: played.length ? "" : sol.line[0] };
  } catch (err) {
    $("#announce").textContent = err.message;
  }
  await finish(ans);
}

function start(p) {
  puzzle = p;
  view = p.view;
  played = [];
  mine = [];
  wrong = -1;
  status = "playing";
  choosing = "";
  counted = mem.tried().has(p.id);
  $("#flip").checked = p.view.to_move === "N"; // the player sits at the bottom
  $("#title").textContent = `Puzzle ${p.id}`;
  $("#puzzle-rating").textContent = `rated ${p.rating}`;
  const goal = p.kind === "only" ? "Only one first move wins; every other loses." : "Only one first move keeps the win.";
  $("#goal").textContent = "";
  $("#goal").append(h("span", {}, `${sideName(p.view.to_move)} to move and win. `), h("span", { class: "muted" }, goal));
  $("#themes").textContent = "";
  $("#links").textContent = "";
  body.puzzle = p.id;
  history.replaceState(null, "", `/puzzles?${new URLSearchParams({ preset: p.preset, id: p.id })}`);
  draw();
}

async function load(preset, id) {
  const p = await get(`/api/puzzles/${encodeURIComponent(preset)}/${encodeURIComponent(id)}`);
  start(p);
}

// next picks a puzzle of the chosen game near the player's rating, one
// not tried yet where there is one.
async function next() {
  const preset = $("#preset").value;
  mem.savePreset(preset);
  try {
    const list = (await get(`/api/puzzles/${encodeURIComponent(preset)}`)).puzzles;
    const done = mem.tried();
    const fresh = list.filter((p) => !done.has(p.id));
    const pool = fresh.length ? fresh : list;
    const r = mem.rating();
    const target = r ? r.rating : 1100;
    const near = [...pool].sort((a, b) => Math.abs(a.rating - target) - Math.abs(b.rating - target)).slice(0, 12);
    const pick = near[Math.floor(Math.random() * near.length)];
    await load(preset, pick.id);
  } catch (err) {
    prompt("", h("div", { class: "text" }, h("b", {}, "No puzzle"), h("div", { class: "small" }, err.message)));
  }
}

async function setup() {
  drawRating();
  try {
    sets = (await get("/api/puzzles")).sets;
  } catch (err) {
    prompt("", h("div", { class: "text" }, h("b", {}, "The puzzles could not be loaded"), h("div", { class: "small" }, err.message)));
    return;
  }
  const select = $("#preset");
  select.textContent = "";
  for (const s of sets) select.append(h("option", { value: s.preset }, `${s.ruleset} (${s.puzzles})`));
  const q = new URLSearchParams(location.search);
  const want = q.get("preset") || mem.preset(sets.length ? sets[0].preset : "");
  if (sets.some((s) => s.preset === want)) select.value = want;
  select.addEventListener("change", next);
  $("#next").addEventListener("click", next);
  $("#give-up").addEventListener("click", giveUp);
  $("#flip").addEventListener("change", () => view && draw());
  body.ready = "1";
  if (q.get("id")) {
    try {
      await load(select.value, q.get("id"));
      return;
    } catch (err) {
      $("#announce").textContent = err.message;
    }
  }
  await next();
}

setup();
