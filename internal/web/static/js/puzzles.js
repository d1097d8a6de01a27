// The puzzles page /puzzles (?preset=nsolo&id=nsolo-0042): a position where
// one first move wins by force. The player finds it; the server checks
// each move (on the puzzle's main line, or proven by the solver) and
// answers with the engine's best defence until the win is complete. The
// player's Glicko-2 rating is kept on this device (puzzles-store.js); each
// result rates the puzzle too, on the server.

import { get, post } from "./http.js";
import { Board, SPEEDS } from "./board.js";
import { actionHole, sideName, sortActions, stones } from "./geom.js";
import { directionChoices } from "./choro.js";
import { $, errorText, h, pendingText } from "./ui.js";
import { t } from "./i18n.js";
import * as mem from "./puzzles-store.js";

// THEMES are the themes a puzzle may have (puzzle.theme.<name> in the
// catalog); another name shows as itself.
const THEMES = ["bonus-picks", "removal", "head-stop", "head-relay", "clockwise-chain", "clockwise", "quiet", "at-once", "long"];

function themeText(name) {
  return THEMES.includes(name) ? t(`puzzle.theme.${name}`) : name;
}

const body = document.body.dataset;
const board = new Board($("#board"), { label: t("puzzle.board"), onPick: (hole) => pickHole(hole) });

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
  $("#my-rd").textContent = r ? `± ${Math.round(2 * r.rd)}` : t("puzzle.unrated");
  const rec = mem.record();
  $("#my-record").textContent = rec.solved + rec.failed ? t("puzzle.record", { count: rec.solved, failed: rec.failed }) : t("puzzle.no_try");
}

// drawPuzzleRating shows the puzzle's live rating and the results in it.
function drawPuzzleRating() {
  const n = puzzle.attempts || 0;
  $("#puzzle-rating").textContent = n ? t("puzzle.rated_tries", { rating: puzzle.rating, count: n }) : t("puzzle.rated", { rating: puzzle.rating });
}

function seat(box, side, who) {
  box.textContent = "";
  box.classList.toggle("to-move", view.status === "playing" && view.to_move === side);
  box.append(h("span", { class: "dot", "aria-hidden": "true" }), h("span", { class: "name" }, sideName(side)),
    h("span", { class: "muted" }, who), h("span", { class: "count" }, stones(view.stones[side])));
}

function draw() {
  const legal = canPlay() ? view.legal : [];
  const holes = [...new Set(legal.map((a) => actionHole(a).hole).filter(Boolean))];
  board.set({ size: view.size, ...view.board }, holes, null);
  const you = me();
  const flip = $("#flip").checked;
  board.setFlip(flip);
  const top = flip ? "S" : "N";
  seat($("#seat-top"), top, top === you ? t("puzzle.you") : t("puzzle.engine"));
  seat($("#seat-bottom"), other(top), other(top) === you ? t("puzzle.you") : t("puzzle.engine"));
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
  if (!played.length && !solution) list.append(h("li", { class: "muted small placeholder" }, t("puzzle.your_move")));
}

function label(action) {
  const { hole, kind } = actionHole(action);
  if (kind === "stop") return t("game.btn.stop");
  if (kind === "take") return view.decision === "remove" ? t("puzzle.btn.remove", { hole }) : t("offline.btn.take", { hole });
  if (kind === "cw") return t("choro.sow_cw", { hole });
  return view.decision === "head" ? t("game.btn.relay", { hole }) : t("offline.btn.sow", { hole });
}

function button(action, text = label(action)) {
  return h("button", { class: "btn primary", type: "button", "data-action": action, onclick: () => play(action) }, text);
}

function drawPrompt(legal) {
  if (status === "solved" || status === "failed") return; // drawn by finish
  if (busy) {
    prompt("", h("div", { class: "text busy" }, t("puzzle.checking")));
    return;
  }
  const buttons = [];
  let text = played.length ? t("puzzle.go_on") : t("puzzle.find");
  if (view.decision === "direction") {
    const d = directionChoices(legal, view.pending_hole);
    text = d.text;
    for (const c of d.choices) buttons.push(button(c.action, c.label));
  } else {
    if (choosing) {
      for (const a of sortActions(legal.filter((x) => actionHole(x).hole === choosing))) buttons.push(button(a));
    }
    for (const a of legal.filter((x) => !actionHole(x).hole)) buttons.push(button(a));
    if (choosing) text = t("puzzle.how_sow", { hole: choosing });
  }
  prompt("active", h("div", { class: "text" }, h("b", {}, text), view.pending ? h("div", { class: "muted small" }, pendingText(view)) : null), ...buttons);
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
    prompt("", h("div", { class: "text" }, h("b", {}, t("puzzle.not_played")), h("div", { class: "small" }, errorText(err))));
    return;
  }
  let animated = false;
  for (const evs of ans.events || []) {
    if (!evs.length) continue;
    await board.animate(evs, SPEEDS.normal);
    animated = true;
  }
  if (animated) board.matches(ans.view.board.rows);
  busy = false;
  played.push(action);
  mine.push(at);
  played.push(...ans.replies);
  view = ans.view;
  status = ans.status;
  if (ans.replies.length) $("#announce").textContent = t("puzzle.answer", { actions: ans.replies.join(t("common.comma")) });
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
      const r = await post(`/api/puzzles/${encodeURIComponent(puzzle.preset)}/${encodeURIComponent(puzzle.id)}/result`, { solved, rating: mem.rating(), attempt: mem.attempt() });
      const d = Math.round(r.rating.rating) - Math.round(r.before.rating);
      if (r.counted) {
        mem.saveRating(r.rating, solved);
        change = t("puzzle.rating_change", { rating: Math.round(r.rating.rating), change: `${d >= 0 ? "+" : "−"}${Math.abs(d)}` });
      } else {
        change = t("puzzle.rating_uncounted");
      }
      puzzle.rating = Math.round(r.puzzle_rating.rating);
      puzzle.attempts = r.puzzle_rating.attempts;
      drawPuzzleRating();
    } catch (err) {
      change = t("puzzle.rating_failed", { message: errorText(err) });
    }
    drawRating();
  }
  const line = ans.line || [];
  if (solved) {
    prompt("solved", h("div", { class: "text" }, h("b", {}, t("puzzle.solved")), h("div", { class: "small" }, `${t("puzzle.solved_detail")} ${change}`)), nextButton());
  } else {
    const best = ans.best ? t("puzzle.best", { action: ans.best }) : t("puzzle.gave_away");
    prompt("failed", h("div", { class: "text" }, h("b", {}, t("puzzle.failed")), h("div", { class: "small" }, `${best} ${change}`)),
      h("button", { class: "btn", type: "button", id: "retry", onclick: () => start(puzzle) }, t("puzzle.retry")), nextButton());
  }
  showSolution(line);
  body.status = ans.status;
}

function nextButton() {
  return h("button", { class: "btn primary", type: "button", id: "next-inline", onclick: () => next() }, t("puzzle.next"));
}

// showSolution lists the main line and the puzzle's themes, and links to
// the analysis board at the puzzle's position.
function showSolution(line) {
  const themes = $("#themes");
  themes.textContent = "";
  if (line.length) themes.append(h("span", {}, t("puzzle.main_line", { line: line.join(" ") })), " ");
  if (puzzle.themes.length) {
    themes.append(h("span", {}, t("puzzle.themes")), " ", ...puzzle.themes.map((name) => h("span", { class: "badge theme-tag" }, themeText(name))));
  }
  const links = $("#links");
  links.textContent = "";
  const q = new URLSearchParams({ ruleset: puzzle.view.ruleset, pos: puzzle.position });
  links.append(h("a", { href: `/analysis?${q}`, id: "analysis-link" }, t("puzzle.analyse")), " · ",
    h("a", { href: `/position?${q}` }, t("puzzle.view")), " · ",
    h("a", { href: `/puzzles?${new URLSearchParams({ preset: puzzle.preset, id: puzzle.id })}` }, t("puzzle.link")));
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
    $("#announce").textContent = errorText(err);
  }
  await finish(ans);
}

function start(p) {
  puzzle = p;
  view = p.view;
  board.setRules(p.view);
  played = [];
  mine = [];
  wrong = -1;
  status = "playing";
  choosing = "";
  counted = mem.tried().has(p.id);
  $("#flip").checked = p.view.to_move === "N"; // the player sits at the bottom
  $("#title").textContent = t("puzzle.title", { id: p.id });
  drawPuzzleRating();
  const goal = p.kind === "only" ? t("puzzle.goal.only") : t("puzzle.goal.keeps");
  $("#goal").textContent = "";
  $("#goal").append(h("span", {}, t("puzzle.goal.to_move", { side: sideName(p.view.to_move) })), " ", h("span", { class: "muted" }, goal));
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
    prompt("", h("div", { class: "text" }, h("b", {}, t("puzzle.no_puzzle")), h("div", { class: "small" }, errorText(err))));
  }
}

async function setup() {
  drawRating();
  try {
    sets = (await get("/api/puzzles")).sets;
  } catch (err) {
    prompt("", h("div", { class: "text" }, h("b", {}, t("puzzle.load_failed")), h("div", { class: "small" }, errorText(err))));
    return;
  }
  const select = $("#preset");
  select.textContent = "";
  for (const s of sets) select.append(h("option", { value: s.preset }, t("puzzle.set", { ruleset: s.ruleset, count: s.puzzles })));
  const q = new URLSearchParams(location.search);
  const want = q.get("preset") || mem.preset(sets.length ? sets[0].preset : "");
  if (sets.some((s) => s.preset === want)) select.value = want;
  select.addEventListener("change", next);
  $("#next").addEventListener("click", next);
  $("#give-up").addEventListener("click", giveUp);
  $("#flip").addEventListener("change", () => view && draw());
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") board.skip(); });
  body.ready = "1";
  if (q.get("id")) {
    try {
      await load(select.value, q.get("id"));
      return;
    } catch (err) {
      $("#announce").textContent = errorText(err);
    }
  }
  await next();
}

setup();
