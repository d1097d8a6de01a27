// The board editor /editor?ruleset=…&pos=…: set up any position of any
// ruleset by tapping holes (add or remove stones, set a count, mark heads),
// choose the side to move and Choro's opening flag, and have the engine
// check it (GET /api/position/check: its reason when the position is not
// one of the ruleset's). A valid position can be played (POST /api/games
// with its position), analysed (/analysis) or shared: the address always
// holds the ruleset and the position, so a link reopens the editor as it is.

import { get, post } from "./http.js";
import { EditorBoard } from "./editor-board.js";
import { edit, emptied, fromText, toText } from "./editor-model.js";
import { RulesPicker } from "./editor-rules.js";
import { t } from "./i18n.js";
import { sideName, sortActions } from "./geom.js";
import { openCreated, saveSetting, setting } from "./storage.js";
import { $, copyText, errorText, h } from "./ui.js";

const DEFAULT_RULESET = "tsoro size=8";

const ed = {
  picker: null,
  board: null,
  ruleset: "",
  game: "", // the preset's game of the ruleset drawn
  model: null, // {board, toMove, opening}; null while the text cannot be drawn
  text: "", // the position sent to the engine: the model's, or the text typed
  tool: "add",
  check: null, // the engine's last verdict on (ruleset, text)
  seq: 0, // the number of the last check asked for
  timer: 0,
};

/** describe names a hole for screen readers: "a3, 2 stones, head". */
function describe(hole, n, head, special) {
  const parts = [hole, t("common.stones", { count: n })];
  if (head) parts.push(t("board.head"));
  if (special) parts.push(t("board.special"));
  return parts.join(t("common.comma"));
}

/** checkOf asks the engine about a ruleset and a position. */
function checkOf(ruleset, pos) {
  return get(`/api/position/check?${new URLSearchParams({ ruleset, pos })}`);
}

/** changed redraws the model and asks the engine about it, soon. */
function changed({ now = false, fromText: typed = false } = {}) {
  if (ed.model) {
    if (!typed) ed.text = toText(ed.model);
    ed.board.show(ed.model.board);
    $("#e-side-S").checked = ed.model.toMove === "S";
    $("#e-side-N").checked = ed.model.toMove === "N";
    $("#e-opening").checked = ed.model.opening;
  }
  if (!typed && document.activeElement !== $("#e-pos")) $("#e-pos").value = ed.text;
  saveAddress();
  clearTimeout(ed.timer);
  ed.timer = setTimeout(validate, now ? 0 : 120);
}

/** saveAddress keeps the editor's state in the address (a link reopens it). */
function saveAddress() {
  const q = new URLSearchParams({ ruleset: ed.ruleset, pos: ed.text });
  history.replaceState(null, "", `/editor?${q}`);
  $("#e-view").href = `/position?${q}`;
}

async function validate() {
  const seq = ++ed.seq;
  const text = ed.text;
  document.body.dataset.checking = "1";
  let c;
  try {
    c = await checkOf(ed.ruleset, text);
  } catch (err) {
    c = { valid: false, field: "network", error: errorText(err) };
  }
  if (seq !== ed.seq) return;
  delete document.body.dataset.checking;
  document.body.dataset.checked = text; // the position the verdict is about (the browser tests wait for it)
  showVerdict(c);
}

function showVerdict(c) {
  ed.check = c;
  const box = $("#verdict");
  box.textContent = "";
  const badge = $("#e-badge");
  const v = c.view;
  document.body.dataset.valid = c.valid ? "yes" : "no";
  box.classList.toggle("invalid", !c.valid);
  if (v) ed.board.setRules(v); // Choro's special holes
  if (!c.valid) {
    badge.textContent = t("editor.badge.invalid");
    badge.className = "badge invalid";
    const what = c.field === "ruleset" ? "editor.invalid.ruleset" : c.field === "network" ? "editor.invalid.network" : "editor.invalid.position";
    box.append(h("div", { class: "text", role: "alert", id: "e-error" }, h("b", {}, t(what)), " ", h("span", { id: "e-reason" }, c.error || "")));
  } else if (v.status === "over") {
    badge.textContent = t("editor.badge.over");
    badge.className = "badge";
    const winner = v.result === "draw" ? t("editor.over.draw") : t("editor.over.wins", { side: sideName(v.result) });
    box.append(h("div", { class: "text", id: "e-ok" }, h("b", {}, t("editor.over", { result: winner, reason: v.reason })), " ", t("editor.over.noplay")));
  } else {
    badge.textContent = t("editor.badge.valid", { side: sideName(v.to_move) });
    badge.className = "badge live";
    box.append(h("div", { class: "text", id: "e-ok" },
      h("b", {}, t("editor.valid")), " ",
      h("span", { class: "legal-list" }, t("editor.legal", { side: sideName(v.to_move), actions: sortActions(v.legal || []).join(" ") })),
      h("div", { class: "muted small" }, t("editor.counts", { south: v.stones.S, north: v.stones.N }))));
  }
  const playable = c.valid && v.status !== "over";
  $("#e-play").disabled = !playable;
  const analyse = $("#e-analyse");
  if (c.valid) {
    analyse.href = `/analysis?${new URLSearchParams({ ruleset: c.ruleset, pos: v.position })}`;
    analyse.removeAttribute("aria-disabled");
  } else {
    analyse.removeAttribute("href");
    analyse.setAttribute("aria-disabled", "true");
  }
  document.body.dataset.ready = "1";
}

/** setRuleset draws the ruleset: the board keeps its stones when its size stays. */
async function setRuleset(rs, { keep = true } = {}) {
  ed.ruleset = rs;
  $("#ruleset").textContent = rs;
  const game = ed.picker.game();
  $("#opening-box").classList.toggle("hidden", game !== "choro");
  let c;
  try {
    c = await checkOf(rs, "");
  } catch (err) {
    showVerdict({ valid: false, field: "network", error: errorText(err) });
    return;
  }
  if (rs !== ed.ruleset) return; // another choice since
  if (!c.valid) {
    showVerdict(c);
    return;
  }
  ed.ruleset = c.ruleset;
  $("#ruleset").textContent = c.ruleset;
  ed.startText = c.start;
  const start = fromText(c.start);
  if (keep && ed.model && ed.model.board.size === start.board.size) {
    // Same board: keep the stones, take the new rules' heads.
    ed.model.board.heads = start.board.heads;
    if (game !== ed.game) ed.model.opening = start.opening;
  } else {
    ed.model = start;
  }
  ed.game = game;
  changed({ now: true });
}

function pickTool(tool) {
  ed.tool = tool;
  document.querySelectorAll("[data-tool]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.tool === tool)));
  saveSetting("editor.tool", tool);
}

function onEdit(hole, key) {
  if (!ed.model) return;
  const e = key || { tool: ed.tool, n: Number($("#e-n").value) };
  edit(ed.model, hole, e);
  changed();
}

function wireForm() {
  document.querySelectorAll("[data-tool]").forEach((b) => b.addEventListener("click", () => pickTool(b.dataset.tool)));
  $("#e-n").addEventListener("focus", () => pickTool("set"));
  for (const side of ["S", "N"]) {
    $(`#e-side-${side}`).addEventListener("change", () => {
      if (!ed.model) return;
      ed.model.toMove = side;
      changed({ now: true });
    });
  }
  $("#e-opening").addEventListener("change", (e) => {
    if (!ed.model) return;
    ed.model.opening = e.target.checked;
    changed({ now: true });
  });
  $("#e-start").addEventListener("click", () => {
    if (!ed.startText) return;
    ed.model = fromText(ed.startText);
    changed({ now: true });
  });
  $("#e-empty").addEventListener("click", () => {
    if (!ed.model) return;
    ed.model = emptied(ed.model);
    changed({ now: true });
  });
  $("#e-pos").addEventListener("input", (e) => {
    ed.text = e.target.value.trim();
    try {
      ed.model = fromText(ed.text);
    } catch {
      ed.model = null; // the engine says what is wrong with it
    }
    changed({ fromText: true });
  });
  $("#flip").addEventListener("change", (e) => ed.board.setFlip(e.target.checked));
  $("#e-share").addEventListener("click", () => copyText(location.href, $("#e-link")));
  document.querySelectorAll('input[name="opponent"]').forEach((r) => r.addEventListener("change", drawOpponent));
  $("#e-level").value = setting("level", "3");
  $("#play-form").addEventListener("submit", play);
}

function drawOpponent() {
  const o = document.querySelector('input[name="opponent"]:checked').value;
  $("#e-level-box").classList.toggle("hidden", o !== "ai");
  $("#e-side-box").classList.toggle("hidden", o === "local");
}

/** play starts a game from the checked position (POST /api/games). */
async function play(e) {
  e.preventDefault();
  const c = ed.check;
  if (!c || !c.valid) return;
  const err = $("#e-play-error");
  err.textContent = "";
  const opponent = document.querySelector('input[name="opponent"]:checked').value;
  const body = {
    ruleset: c.ruleset,
    position: c.view.position,
    opponent,
    level: Number($("#e-level").value),
    side: opponent === "local" ? "S" : document.querySelector('input[name="e-me"]:checked').value,
  };
  saveSetting("level", body.level);
  $("#e-play").disabled = true;
  try {
    openCreated(await post("/api/games", body));
  } catch (ex) {
    err.textContent = errorText(ex);
    $("#e-play").disabled = false;
  }
}

async function setup() {
  const q = new URLSearchParams(location.search);
  ed.board = new EditorBoard($("#board"), { label: t("editor.board"), onEdit, describe });
  wireForm();
  drawOpponent();
  pickTool(setting("editor.tool", "add"));
  let presets;
  try {
    presets = (await get("/api/rulesets")).presets || [];
  } catch (err) {
    showVerdict({ valid: false, field: "network", error: errorText(err) });
    return;
  }
  ed.picker = new RulesPicker($("#rules"), presets, (rs) => setRuleset(rs));
  const rs = q.get("ruleset") || DEFAULT_RULESET;
  if (!ed.picker.select(rs)) ed.picker.select(DEFAULT_RULESET);
  ed.game = ed.picker.game();
  const pos = (q.get("pos") || "").trim();
  if (!pos) {
    await setRuleset(rs, { keep: false });
    return;
  }
  // A shared link: draw its position as it is, and say what the engine thinks of it.
  ed.ruleset = rs;
  $("#ruleset").textContent = rs;
  $("#opening-box").classList.toggle("hidden", ed.game !== "choro");
  ed.text = pos;
  try {
    ed.model = fromText(pos);
  } catch {
    ed.model = null;
  }
  $("#e-pos").value = pos;
  changed({ now: true, fromText: true });
  checkOf(rs, "").then((c) => { if (c.valid) ed.startText = c.start; }).catch(() => {});
}

setup();
