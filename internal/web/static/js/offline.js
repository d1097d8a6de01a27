// The offline page: a game against the computer (levels 1 to 6) played in the
// browser by the WebAssembly engine in a Web Worker. The page draws what the
// engine answers (legal actions, board, events, the computer's moves) and has
// no rules of its own. Finished games are kept on this device as records and
// added to the archive when the server can be reached (offline-store.js). The
// service worker (/sw.js) keeps this page and the engine for use offline.

import { Board, SPEEDS } from "./board.js";
import { actionHole, describeEvents, sideName, sortActions, stones } from "./geom.js";
import { renderMoves } from "./movelist.js";
import { Engine } from "./offline-engine.js";
import { dropRecord, pending, saveRecord, synced, syncRecords } from "./offline-store.js";
import { $, errorText, h, resultText, when } from "./ui.js";
import { t } from "./i18n.js";

const SPEED_KEY = "matombo.offline.speed";
const LAST_KEY = "matombo.offline.last";

const engine = new Engine();
const board = new Board($("#board"), { label: "Board", onPick: (hole) => pickHole(hole) });
const body = document.body.dataset;
const timings = []; // ms per computer decision, as the engine measured them

let view = null; // the engine's view of the game
let gameKey = ""; // the game's key in the device's store
let busy = false; // a request or an animation is running
let choosing = ""; // the hole whose actions the prompt offers

function remember(key, fallback) {
  try {
    return localStorage.getItem(key) || fallback;
  } catch {
    return fallback;
  }
}

function keep(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // A browser without storage plays on without remembering settings.
  }
}

function speed() {
  return SPEEDS[$("#speed").value] ?? SPEEDS.normal;
}

function today() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}.${p(d.getMonth() + 1)}.${p(d.getDate())}`;
}

function seed() {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return (a[0] & 0x1fffff) * 0x100000000 + a[1]; // below 2^53: exact in JSON
}

// setup fills the new-game form from the engine's presets.
async function setup() {
  const { presets } = await engine.ask({ op: "presets" });
  const sel = $("#game");
  sel.textContent = "";
  for (const p of presets) sel.append(h("option", { value: p.ruleset }, p.title));
  let last = {};
  try {
    last = JSON.parse(remember(LAST_KEY, "{}")) || {};
  } catch {
    // A damaged setting: start from the first preset.
  }
  const showHelp = () => {
    const p = presets.find((x) => x.ruleset === sel.value);
    $("#ruleset-help").textContent = p ? t("offline.options", { options: p.options.join("; ") }) : "";
  };
  sel.addEventListener("change", () => {
    $("#ruleset").value = sel.value;
    showHelp();
  });
  const known = presets.find((p) => last.ruleset && last.ruleset.split(" ")[0] === p.ruleset.split(" ")[0]);
  sel.value = known ? known.ruleset : presets[0].ruleset;
  $("#ruleset").value = last.ruleset || sel.value;
  if (last.level >= 1 && last.level <= 6) $("#level").value = String(last.level);
  if (last.human === "N") $("#side").value = "N";
  $("#level-out").value = $("#level").value;
  showHelp();
  $("#start").disabled = false;
  body.engine = "ready";
}

async function start(e) {
  e.preventDefault();
  if (busy) return;
  const req = {
    op: "new",
    ruleset: $("#ruleset").value.trim(),
    level: Number($("#level").value),
    human: $("#side").value,
    seed: seed(),
    date: today(),
  };
  $("#setup-error").textContent = "";
  busy = true;
  try {
    await leaveGame();
    const ans = await engine.ask(req);
    keep(LAST_KEY, JSON.stringify({ ruleset: req.ruleset, level: req.level, human: req.human }));
    gameKey = "";
    timings.length = 0;
    delete body.aiDecisions;
    delete body.aiMsMax;
    delete body.aiMsMean;
    view = ans.view;
    showGame(true);
    board.setFlip(view.human === "N");
    board.setRules(view);
    draw(null);
  } catch (err) {
    $("#setup-error").textContent = errorText(err);
    return;
  } finally {
    busy = false;
  }
  await computer();
}

// showGame shows the game (true) or the new-game form (false).
function showGame(on) {
  if (!on) {
    body.status = "setup"; // the tests read it
    body.turn = "";
  }
  $("#setup").classList.toggle("hidden", on);
  for (const id of ["#play", "#moves-card", "#tools-card"]) $(id).classList.toggle("hidden", !on);
}

// leaveGame keeps a game left unfinished (a new game started) as a record
// without a result.
async function leaveGame() {
  if (view && view.status === "playing" && view.turns.length && view.record) save(view);
}

function save(v) {
  try {
    gameKey = saveRecord(v.record, gameKey);
  } catch (err) {
    $("#sync-status").textContent = errorText(err);
  }
}

// computer lets the engine play while the decision is the computer's.
async function computer() {
  while (view && view.status === "playing" && view.thinking) {
    busy = true;
    draw(null);
    try {
      const ans = await engine.ask({ op: "ai" });
      timings.push(ans.ms || 0); // the engine leaves out a zero time
      body.aiDecisions = String(timings.length);
      body.aiMsMax = Math.max(...timings).toFixed(1);
      body.aiMsMean = (timings.reduce((a, b) => a + b, 0) / timings.length).toFixed(1);
      await show(ans);
    } catch (err) {
      prompt(h("div", { class: "text" }, h("b", {}, t("offline.ai_failed")), h("div", { class: "small" }, errorText(err))));
      return;
    } finally {
      busy = false;
    }
  }
  draw(null);
}

async function play(action) {
  if (busy || !view || view.thinking || view.status !== "playing") return;
  busy = true;
  body.turn = ""; // the tests read it
  choosing = "";
  try {
    await show(await engine.ask({ op: "play", action }));
  } catch (err) {
    draw(null);
    prompt(h("div", { class: "text" }, h("b", {}, t("offline.not_played")), h("div", { class: "small" }, errorText(err))));
    return;
  } finally {
    busy = false;
  }
  await computer();
}

// show animates an action's events and draws the view after it.
async function show(ans) {
  if (ans.events && ans.events.length) {
    $("#skip").disabled = false;
    await board.animate(ans.events, speed());
    $("#skip").disabled = true;
    $("#announce").textContent = t(ans.by === view.human ? "offline.announce.you" : "offline.announce.computer", { events: describeEvents(ans.events) });
  }
  view = ans.view;
  body.actions = String(Number(body.actions || 0) + 1); // actions shown, for the tests
  let last = null;
  if (ans.events && ans.events.length) {
    const sows = ans.events.filter((x) => x.kind === "sow");
    if (sows.length) last = { from: sows[0].from, to: sows[sows.length - 1].to };
  }
  draw(last);
  if (view.status === "over") finished();
}

// finished keeps the ended game's record and sends it to the archive in
// the background: the page stays free (a new game can start) while it goes.
function finished() {
  save(view);
  body.status = "over";
  sync().catch((err) => { $("#sync-status").textContent = t("offline.sync.not_yet", { error: errorText(err) }); });
}

function mine() {
  return view && view.status === "playing" && !view.thinking && !busy;
}

// draw shows the board, seats, prompt and moves of the view.
function draw(last) {
  if (!view) return;
  const legal = mine() ? view.legal : [];
  const holes = [...new Set(legal.map((a) => actionHole(a).hole).filter(Boolean))];
  board.set({ size: view.size, ...view.board }, holes, last);
  $("#title").textContent = t("offline.title", { title: view.ruleset_title, level: view.level });
  $("#ruleset-line").textContent = view.ruleset;
  const you = view.human;
  const them = you === "S" ? "N" : "S";
  seat($("#seat-top"), them, t("player.computer_level", { level: view.level }));
  seat($("#seat-bottom"), you, t("game.seat.you"));
  renderMoves($("#moves"), view.turns, { first: view.first_to_move, moves: view.moves });
  $("#resign").disabled = view.status !== "playing";
  $("#new-game").disabled = false;
  body.status = view.status;
  body.thinking = view.thinking ? "1" : "";
  body.turn = mine() ? "you" : "";
  drawPrompt(legal);
}

function seat(box, side, who) {
  box.textContent = "";
  box.classList.toggle("to-move", view.status === "playing" && view.to_move === side);
  box.append(
    h("span", { class: "dot", "aria-hidden": "true" }),
    h("span", { class: "name" }, sideName(side)),
    h("span", { class: "muted" }, who),
    h("span", { class: "count", title: t("game.seat.stones_title") }, stones(view.stones[side])),
  );
}

function prompt(...children) {
  const box = $("#prompt");
  box.textContent = "";
  box.classList.toggle("active", mine());
  box.append(...children);
}

function label(action) {
  const { hole, kind } = actionHole(action);
  if (kind === "stop") return t("game.btn.stop");
  if (kind === "take") return t("offline.btn.take", { hole });
  if (kind === "cw") return t("choro.sow_cw", { hole });
  return view.decision === "head" ? t("game.btn.relay", { hole }) : t("offline.btn.sow", { hole });
}

function button(action) {
  return h("button", { class: "btn primary", type: "button", "data-action": action, onclick: () => play(action) }, label(action));
}

function drawPrompt(legal) {
  if (view.status === "over") {
    const r = resultText(view.result, view.reason, view.human);
    prompt(h("div", { class: "text" }, h("b", {}, r.title), h("div", { class: "small" }, r.detail)),
      h("button", { class: "btn primary", type: "button", onclick: newGame }, t("game.btn.new_game")));
    return;
  }
  if (view.thinking) {
    prompt(h("div", { class: "text busy" }, t("offline.thinking")));
    return;
  }
  if (busy) {
    prompt(h("div", { class: "text busy" }, "…"));
    return;
  }
  const buttons = [];
  const offHoles = legal.filter((a) => !actionHole(a).hole);
  if (choosing) {
    for (const a of sortActions(legal.filter((x) => actionHole(x).hole === choosing))) buttons.push(button(a));
  }
  for (const a of offHoles) buttons.push(button(a));
  const text = choosing ? t("offline.how_sow", { hole: choosing }) : t("offline.your_move");
  prompt(h("div", { class: "text" }, h("b", {}, text), view.pending ? h("div", { class: "muted small" }, view.pending) : null), ...buttons);
}

function pickHole(hole) {
  if (!mine()) return;
  const acts = view.legal.filter((a) => actionHole(a).hole === hole);
  if (acts.length === 1) {
    play(acts[0]);
    return;
  }
  choosing = hole;
  drawPrompt(view.legal);
}

async function resign() {
  if (busy || !view || view.status !== "playing") return;
  if (!window.confirm(t("game.confirm_resign"))) return;
  busy = true;
  try {
    view = (await engine.ask({ op: "resign" })).view;
  } catch (err) {
    prompt(h("div", { class: "text" }, errorText(err)));
    return;
  } finally {
    busy = false;
  }
  draw(null);
  finished();
}

async function newGame() {
  if (busy) return;
  await leaveGame();
  view = view && view.status === "playing" ? null : view;
  showGame(false);
  $("#resign").disabled = true;
  $("#ruleset").focus();
  drawSaved();
}

// sync adds the games kept on this device to the archive, if it can.
async function sync() {
  drawSaved();
  if (!navigator.onLine) return;
  body.sync = "running";
  const res = await syncRecords();
  body.sync = res.left ? "waiting" : "done";
  if (res.error) $("#sync-status").textContent = t("offline.sync.not_yet", { error: res.error });
  drawSaved(res.error);
}

function drawSaved(error = "") {
  const waiting = pending();
  const done = synced();
  const list = $("#saved");
  list.textContent = "";
  for (const p of waiting) {
    list.append(h("li", {}, h("span", {}, firstLine(p.record)), h("small", { class: "muted" },
      " · ", p.refused ? t("offline.sync.refused", { error: p.refused }) : t("offline.sync.saved", { when: when(p.saved) }))));
  }
  for (const d of done.slice(0, 5)) {
    list.append(h("li", {}, h("a", { href: d.url, "data-id": d.id }, t("offline.sync.in_archive")), h("small", { class: "muted" }, " · ", t("offline.sync.played", { when: when(d.saved) }))));
  }
  if (!waiting.length && !done.length) list.append(h("li", { class: "muted small" }, t("offline.sync.none")));
  const open = waiting.filter((p) => !p.refused).length;
  if (!error) {
    $("#sync-status").textContent = open
      ? t(navigator.onLine ? "offline.sync.waiting_now" : "offline.sync.waiting_online", { count: open })
      : t("offline.sync.all_done");
  }
  $("#sync").disabled = !open || !navigator.onLine;
  body.pending = String(open);
  if (done.length) body.syncedId = done[0].id;
}

function firstLine(record) {
  const m = /\[Ruleset "([^"]*)"\]/.exec(record);
  const r = /\[Result "([^"]*)"\]/.exec(record);
  return `${m ? m[1] : t("offline.record.game")} · ${r && r[1] !== "*" ? t("offline.record.result", { result: r[1] }) : t("offline.record.unfinished")}`;
}

function drawConnection() {
  const on = navigator.onLine;
  const c = $("#conn");
  c.textContent = on ? t("offline.conn.online") : t("offline.conn.offline");
  c.classList.toggle("offline", !on);
  c.classList.toggle("live", on);
}

async function registerWorker() {
  const state = $("#app-state");
  if (!("serviceWorker" in navigator)) {
    state.textContent = t("offline.sw.unsupported");
    return;
  }
  try {
    await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
    }
    state.textContent = t("offline.sw.ready");
    body.sw = "ready";
  } catch (err) {
    state.textContent = t("offline.sw.failed");
    state.title = errorText(err);
  }
}

$("#setup").addEventListener("submit", start);
$("#level").addEventListener("input", () => { $("#level-out").value = $("#level").value; });
$("#speed").value = remember(SPEED_KEY, "normal");
$("#speed").addEventListener("change", () => keep(SPEED_KEY, $("#speed").value));
$("#skip").addEventListener("click", () => board.skip());
$("#resign").addEventListener("click", resign);
$("#new-game").addEventListener("click", newGame);
$("#sync").addEventListener("click", sync);
document.addEventListener("keydown", (e) => { if (e.key === "Escape") board.skip(); });
window.addEventListener("online", () => { drawConnection(); sync(); });
window.addEventListener("offline", drawConnection);
// A page left mid-game keeps its game as an unfinished record; if the
// browser brings the page back (its back-forward cache), the game goes on
// and the record waits for its end again.
window.addEventListener("pagehide", () => { if (view && view.status === "playing" && view.turns.length && view.record) save(view); });
window.addEventListener("pageshow", (e) => { if (e.persisted && view && view.status === "playing" && gameKey) dropRecord(gameKey); });
window.setInterval(() => { if (navigator.onLine && pending().some((p) => !p.refused)) sync(); }, 30000);

drawConnection();
drawSaved();
registerWorker();
setup().catch((err) => {
  $("#setup-error").textContent = errorText(err);
  body.engine = "failed";
});
sync();
