// The home page: the new-game form and the lists of current and recent games.

import { get, post } from "./http.js";
import { openCreated, setting, saveSetting } from "./storage.js";
import { Board } from "./board.js";
import { optionWords as choroWords } from "./choro.js";
import { familyOf, gameOf, sideName } from "./geom.js";
import { $, errorText, h, playerText, resultText, when } from "./ui.js";
import { t } from "./i18n.js";

// The options whose words the catalog carries (home.opt.<key>.label, .help,
// .help.<family> for another game's help, .<value> for a value's words).
const OPTION_WORDS = {
  size: { games: ["nsolo", "choro"], values: [] },
  heads: { values: ["none", "right2", "left2", "ends", "right1", "choose"] },
  bonus: { values: [] },
  outer: { values: ["no", "yes"] },
  extra: { values: [] },
};

// optionWords returns an option's words for a game family, from the catalog.
function optionWords(key, family) {
  const o = OPTION_WORDS[key];
  if (!o) return null;
  const values = {};
  for (const v of o.values) values[v] = t(`home.opt.${key}.${v}`);
  const help = (o.games || []).includes(family) ? t(`home.opt.${key}.help_${family}`) : t(`home.opt.${key}.help`);
  return { label: t(`home.opt.${key}.label`), help, values };
}

// The presets whose one-line summary the catalog carries (home.summary.<ruleset>);
// the server's description shows below.
const SUMMARIES = ["tsoro", "misoro-tsoro", "musoro-tsoro", "nsolo", "choro"];

// The games whose description the catalog carries (home.desc.<game>), in
// place of the server's English one.
const DESCRIBED = SUMMARIES;

let presets = [];

// from is the position a game starts from when the page was opened as
// /?ruleset=…&pos=… (the replay and position pages' "Play from here").
let from = null;

function allowedValues(opt, preset) {
  const m = /from (\d+) to (\d+)/.exec(opt.allowed || "");
  if (m) {
    const out = [];
    for (let i = Number(m[1]); i <= Number(m[2]); i++) out.push(String(i));
    return out;
  }
  const one = /one of ([\w\s,-]+)/.exec(opt.allowed || "");
  if (one) return one[1].split(",").map((s) => s.trim()).filter(Boolean);
  if (/yes or no/.test(opt.allowed || "")) return ["no", "yes"];
  const two = /^([\w-]+) or ([\w-]+)$/.exec(opt.allowed || ""); // "simultaneous or sequential"
  if (two) return [two[1], two[2]];
  const first = /^(\w+)/.exec(opt.allowed || "");
  return first ? [first[1]] : [String(opt.default ?? "")];
}

function selected() {
  const r = document.querySelector('input[name="game"]:checked');
  return presets.find((p) => p.ruleset === (r && r.value)) || presets[0];
}

function drawGames() {
  const box = $("#games");
  box.textContent = "";
  // /?game=nsolo (the rules pages' Play button) picks that game; else the last one played.
  const asked = new URLSearchParams(location.search).get("game");
  const last = presets.some((p) => p.ruleset === asked) ? asked : setting("game", "tsoro");
  presets.forEach((p) => {
    const id = `game-${p.ruleset}`;
    box.appendChild(h("label", { class: "choice", for: id },
      h("input", { type: "radio", name: "game", id, value: p.ruleset, checked: p.ruleset === last, onchange: drawOptions }),
      h("span", {}, h("b", {}, p.title || p.ruleset), h("small", {}, SUMMARIES.includes(p.ruleset) ? t(`home.summary.${p.ruleset}`) : shortDescription(p)))));
  });
  if (!document.querySelector('input[name="game"]:checked')) box.querySelector("input").checked = true;
}

function shortDescription(p) {
  const d = p.description || "";
  const cut = d.indexOf(". ");
  return cut > 0 ? d.slice(0, cut + 1) : d;
}

function drawOptions() {
  const p = selected();
  const box = $("#options");
  box.textContent = "";
  if (!p) return;
  if (p.description) box.appendChild(h("p", { class: "small muted" }, DESCRIBED.includes(p.game) ? t(`home.desc.${p.game}`) : p.description));
  (p.options || []).forEach((o) => {
    const words = (p.game === "choro" && choroWords(o.key)) || optionWords(o.key, familyOf(gameOf(p.ruleset))) || { label: o.key, help: o.allowed };
    const help = words.help;
    const id = `opt-${o.key}`;
    const values = allowedValues(o, p);
    const sel = h("select", { id, name: o.key, "data-default": o.default, "aria-describedby": `${id}-help`, onchange: showRuleset });
    values.forEach((v) => {
      const label = (words.values && words.values[v]) || v;
      sel.appendChild(h("option", { value: v, selected: String(v) === String(o.default) }, label));
    });
    if (values.length === 1) sel.disabled = true;
    box.appendChild(h("div", { class: "option" },
      h("label", { for: id }, words.label),
      sel,
      h("div", { class: "help", id: `${id}-help` }, help)));
  });
  showRuleset();
}

/** rulesetText writes the chosen preset with its changed options. */
function rulesetText() {
  const p = selected();
  if (!p) return "";
  const parts = [p.ruleset];
  document.querySelectorAll("#options select").forEach((s) => {
    if (!s.disabled && s.value !== s.dataset.default) parts.push(`${s.name}=${s.value}`);
  });
  return parts.join(" ");
}

let preview = null;
let previewFor = "";

function showRuleset() {
  const rs = rulesetText();
  $("#ruleset-text").textContent = rs;
  drawPreview(rs);
}

// drawPreview shows the start position of the chosen rules, heads included.
async function drawPreview(rs) {
  if (!rs || rs === previewFor) return;
  previewFor = rs;
  try {
    const v = await get(`/api/position?${new URLSearchParams({ ruleset: rs })}`);
    if (previewFor !== rs) return;
    if (!preview) preview = new Board($("#preview"), { label: t("home.preview") });
    preview.setRules(v);
    preview.set({ size: v.size, rows: v.board.rows, heads: v.board.heads || [] });
  } catch {
    /* the form still works without a preview */
  }
}

function opponent() {
  return document.querySelector('input[name="opponent"]:checked').value;
}

function drawOpponent() {
  const o = opponent();
  $("#level-box").classList.toggle("hidden", o !== "ai");
  $("#side-box").classList.toggle("hidden", o === "local");
  $("#clock-box")?.classList.toggle("hidden", o === "ai"); // clocks are for games between people
  $("#rated-box")?.classList.toggle("hidden", o !== "friend"); // only a friend's game is rated (submit)
}

function drawLevel() {
  const v = Number($("#level").value);
  $("#level-out").textContent = String(v);
  $("#level-help").textContent = v >= 1 && v <= 8 ? t(`home.level.${v}`) : "";
}

async function submit(e) {
  e.preventDefault();
  const err = $("#form-error");
  err.textContent = "";
  const btn = $("#start");
  btn.disabled = true;
  const body = {
    ruleset: from ? from.ruleset : rulesetText(),
    opponent: opponent(),
    level: Number($("#level").value),
    side: opponent() === "local" ? "S" : document.querySelector('input[name="side"]:checked').value,
  };
  const name = $("#name").value.trim();
  if (name) body.name = name;
  if (from) body.position = from.position;
  else saveSetting("game", selected().ruleset);
  if (opponent() === "friend" && $("#rated") && $("#rated").checked) body.rated = true; // accounts: see /login
  if (opponent() !== "ai" && $("#time-control") && $("#time-control").value) body.time_control = $("#time-control").value; // js/clock.js
  saveSetting("level", body.level);
  saveSetting("name", name);
  try {
    const res = await post("/api/games", body);
    openCreated(res);
  } catch (ex) {
    err.textContent = errorText(ex);
    btn.disabled = false;
  }
}

function gameItem(g, over) {
  const title = g.ruleset_title || g.ruleset;
  const players = t("home.vs", { south: playerText(g.players && g.players.S), north: playerText(g.players && g.players.N) });
  const r = over ? resultText(g.result, g.reason).title : t("home.turns", { count: g.turns });
  return h("li", {}, h("a", { href: over ? `/replay/${encodeURIComponent(g.id)}` : `/game/${encodeURIComponent(g.id)}` },
    h("span", {}, h("b", {}, title), h("span", { class: "meta" }, ` · ${players}`)),
    h("span", { class: "meta" }, `${r} · ${when(g.updated || g.created)}`)));
}

async function drawLists() {
  for (const [status, id] of [["playing", "#playing"], ["over", "#finished"]]) {
    const box = $(id);
    try {
      const res = await get(`/api/games?status=${status}&limit=6`);
      box.textContent = "";
      const games = res.games || [];
      if (!games.length) box.appendChild(h("li", { class: "muted small" }, status === "playing" ? t("home.none_playing") : t("home.none_finished")));
      games.forEach((g) => box.appendChild(gameItem(g, status === "over")));
    } catch (ex) {
      box.textContent = "";
      box.appendChild(h("li", { class: "error small" }, errorText(ex)));
    }
  }
}

// drawFrom shows the position a game will start from, in place of the
// choice of game and rules; the sides are named, since either may move first.
async function drawFrom(ruleset, pos) {
  from = { ruleset, position: pos };
  $("#game-box").classList.add("hidden");
  $("#rules-box").classList.add("hidden");
  $("#from-box").classList.remove("hidden");
  $("#from-ruleset").textContent = ruleset;
  const words = { S: [t("home.from.play_south"), t("home.from.take_south")], N: [t("home.from.play_north"), t("home.from.take_north")] };
  document.querySelectorAll('input[name="side"]').forEach((r) => {
    const w = words[r.value];
    if (!w) return;
    const span = r.nextElementSibling;
    span.querySelector("b").textContent = w[0];
    span.querySelector("small").textContent = w[1];
  });
  $("#side-box legend").textContent = t("home.from.your_side");
  try {
    const v = await get(`/api/position?${new URLSearchParams({ ruleset, pos })}`);
    from = { ruleset: v.ruleset, position: v.position };
    $("#from-ruleset").textContent = v.ruleset;
    $("#from-to-move").textContent = v.status === "over" ? t("home.from.over") : t("home.from.to_move", { side: sideName(v.to_move) });
    const board = new Board($("#from-preview"), { label: t("home.from.board") });
    board.setRules(v);
    board.set({ size: v.size, rows: v.board.rows, heads: v.board.heads || [] });
  } catch (ex) {
    $("#form-error").textContent = errorText(ex);
  }
}

async function setup() {
  $("#new-game").addEventListener("submit", submit);
  document.querySelectorAll('input[name="opponent"]').forEach((r) => r.addEventListener("change", drawOpponent));
  $("#level").value = setting("level", "3");
  $("#name").value = setting("name", "");
  $("#level").addEventListener("input", drawLevel);
  drawLevel();
  drawOpponent();
  const q = new URLSearchParams(location.search);
  if (q.get("pos")) drawFrom(q.get("ruleset") || "tsoro", q.get("pos"));
  try {
    const res = await get("/api/rulesets");
    presets = res.presets || [];
    drawGames();
    drawOptions();
    $("#new-game").dataset.ready = "true"; // the form can start a game now (the browser tests wait for it)
  } catch (ex) {
    $("#games").textContent = errorText(ex);
  }
  drawLists();
}

setup();
