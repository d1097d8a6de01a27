// The home page: the new-game form and the lists of current and recent games.

import { get, post } from "./http.js";
import { openCreated, setting, saveSetting } from "./storage.js";
import { Board } from "./board.js";
import { OPTION_WORDS as CHORO_WORDS } from "./choro.js";
import { familyOf, gameOf, sideName } from "./geom.js";
import { $, h, playerText, resultText, when } from "./ui.js";

// Plain words for each option, by key, and for each value where it helps.
const OPTION_WORDS = {
  size: {
    label: "Holes per row",
    help: "How long each row is. Traditional Tsoro boards have 6, 8, 12, 15, 18 or 21 holes. Smaller boards give quicker games.",
    // The help of another game than Tsoro, by the preset's family.
    games: {
      nsolo: "How long each row is: Nsolo boards have 8 holes a row or more; village games dug in the ground reach 36, played by teams. Smaller boards give quicker games.",
      choro: "Choro is played on a board of 4×8 holes.",
    },
  },
  heads: {
    label: "Heads",
    help: "Heads (misoro) are holes of your outer row where a lap may stop by your choice instead of relaying, to build a store.",
    values: {
      none: "none: no heads",
      right2: "two rightmost holes of your outer row",
      left2: "two leftmost holes of your outer row",
      ends: "leftmost and rightmost (rightmost starts with 3)",
      right1: "the single rightmost hole (starts with 3)",
      choose: "each player names two before play",
    },
  },
  bonus: {
    label: "Bonus picks",
    help: "After a capture you empty this many more of the opponent's holes, of your choice. Matthews saw games with 1 and with 3.",
  },
  outer: {
    label: "Take the outer hole",
    help: "Whether a capture also takes the opponent's outer hole behind the inner one (yes is Sanderson's reading).",
    values: { no: "no: only the inner hole", yes: "yes: inner and then outer hole" },
  },
  extra: {
    label: "Extra whole holes",
    help: "0: after a capture you remove as many single stones as you captured. 1 to 3: instead you empty that many holes of your choice.",
  },
};

const LEVELS = [
  "",
  "Level 1: the gentlest; good for learning the rules.",
  "Level 2: still forgiving.",
  "Level 3: a casual opponent.",
  "Level 4: a fair challenge.",
  "Level 5: a strong opponent.",
  "Level 6: hard.",
  "Level 7: very hard; it thinks longer.",
  "Level 8: the strongest setting; it takes its time.",
];

// One line for each preset on its card; the server's description shows below.
const SUMMARIES = {
  tsoro: "Zimbabwe, 4×21. Heads, whole-column captures, bonus picks.",
  "misoro-tsoro": "Tsoro on 4×8; each player names two heads first.",
  "musoro-tsoro": "Tsoro on 4×8 with one head of three stones.",
  nsolo: "Malawi and Zambia, 4×8 to 4×36. Capture, then remove as many.",
  choro: "South Sudan, 4×8. Both open at once; captures are sown on; clockwise from special holes.",
};

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
      h("span", {}, h("b", {}, p.title || p.ruleset), h("small", {}, SUMMARIES[p.ruleset] || shortDescription(p)))));
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
  if (p.description) box.appendChild(h("p", { class: "small muted" }, p.description));
  (p.options || []).forEach((o) => {
    const words = (p.game === "choro" && CHORO_WORDS[o.key]) || OPTION_WORDS[o.key] || { label: o.key, help: o.allowed };
    const help = (words.games && words.games[familyOf(gameOf(p.ruleset))]) || words.help;
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
    if (!preview) preview = new Board($("#preview"), { label: "Start position of the chosen rules" });
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
}

function drawLevel() {
  const v = Number($("#level").value);
  $("#level-out").textContent = String(v);
  $("#level-help").textContent = LEVELS[v] || "";
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
  saveSetting("level", body.level);
  saveSetting("name", name);
  try {
    const res = await post("/api/games", body);
    openCreated(res);
  } catch (ex) {
    err.textContent = ex.message;
    btn.disabled = false;
  }
}

function gameItem(g, over) {
  const title = g.ruleset_title || g.ruleset;
  const players = `${playerText(g.players && g.players.S)} vs ${playerText(g.players && g.players.N)}`;
  const r = over ? resultText(g.result, g.reason).title : `${g.turns} turns`;
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
      if (!games.length) box.appendChild(h("li", { class: "muted small" }, status === "playing" ? "No game in progress." : "No finished game yet."));
      games.forEach((g) => box.appendChild(gameItem(g, status === "over")));
    } catch (ex) {
      box.textContent = "";
      box.appendChild(h("li", { class: "error small" }, ex.message));
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
  const words = { S: ["I play South", "You take South's side."], N: ["I play North", "You take North's side."] };
  document.querySelectorAll('input[name="side"]').forEach((r) => {
    const w = words[r.value];
    if (!w) return;
    const span = r.nextElementSibling;
    span.querySelector("b").textContent = w[0];
    span.querySelector("small").textContent = w[1];
  });
  $("#side-box legend").textContent = "Your side";
  try {
    const v = await get(`/api/position?${new URLSearchParams({ ruleset, pos })}`);
    from = { ruleset: v.ruleset, position: v.position };
    $("#from-ruleset").textContent = v.ruleset;
    $("#from-to-move").textContent = v.status === "over" ? "where the game is over" : `${sideName(v.to_move)} to move`;
    const board = new Board($("#from-preview"), { label: "The start position" });
    board.setRules(v);
    board.set({ size: v.size, rows: v.board.rows, heads: v.board.heads || [] });
  } catch (ex) {
    $("#form-error").textContent = ex.message;
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
    $("#games").textContent = ex.message;
  }
  drawLists();
}

setup();
