// The variant lab page: runs an experiment through POST /api/lab (a
// bounded number of games per request) and shows the figures per ruleset
// and the two charts the server draws as SVG.

import { get, post } from "./http.js";
import { $, h } from "./ui.js";

const examples = {
  bonus: ["tsoro size=8 bonus=0", "tsoro size=8 bonus=1", "tsoro size=8 bonus=2", "tsoro size=8 bonus=3"],
  heads: ["tsoro size=8 heads=none", "tsoro size=8 heads=right2", "tsoro size=8 heads=left2", "tsoro size=8 heads=ends", "tsoro size=8 heads=right1", "tsoro size=8 heads=choose"],
  nsolo: ["nsolo size=8", "nsolo size=12", "nsolo size=20", "nsolo size=36"],
  presets: ["tsoro", "misoro-tsoro", "musoro-tsoro", "nsolo", "choro"],
};

let limits = null;

const pct = (v) => `${(100 * v).toFixed(1)}%`;
const int = (v) => Number(v).toLocaleString("en");

/** share is a cell with a share of the games and its 95% interval. */
function share(k, rate, lo, hi) {
  return h("td", { class: "num" }, pct(rate), h("span", { class: "ci" }, `${int(k)} · [${pct(lo)}, ${pct(hi)}]`));
}

function row(s, asked) {
  const stalled = s.repetition_endings + s.turn_cap_endings;
  const games = h("td", { class: "num" }, int(s.games), s.games < asked ? h("span", { class: "ci" }, `of ${int(asked)}`) : null);
  if (s.games === 0) {
    // Nothing finished: no share, interval or mean to show.
    return h("tr", { class: "none" }, h("td", { class: "mono" }, s.ruleset), games,
      h("td", { colspan: 7, class: "muted" }, "no game finished"));
  }
  return h("tr", {},
    h("td", { class: "mono" }, s.ruleset),
    games,
    share(s.south_wins, s.south_win_rate, s.south_win_low, s.south_win_high),
    share(s.north_wins, s.north_win_rate, s.north_win_low, s.north_win_high),
    share(s.draws, s.draw_rate, s.draw_low, s.draw_high),
    h("td", { class: "num" }, `${s.turns_mean.toFixed(1)} ± ${s.turns_sd.toFixed(1)}`),
    h("td", { class: "num" }, String(s.turns_median)),
    h("td", { class: "num hide-phone" }, s.captures_mean.toFixed(2)),
    h("td", { class: "num hide-phone", title: `repetition ${s.repetition_endings}, turn cap ${s.turn_cap_endings}, lap-limit cuts ${s.lap_cut_turns}` },
      `${int(stalled)}${s.lap_cut_turns ? ` · ${int(s.lap_cut_turns)} cut` : ""}`));
}

/** duration writes seconds for people: "40 s", "3 min", "2 h". */
function duration(sec) {
  if (sec < 90) return `${Math.max(1, Math.round(sec))} s`;
  if (sec < 5400) return `${Math.round(sec / 60)} min`;
  return `${Math.round(sec / 3600)} h`;
}

/**
 * stoppedText says how many of the games asked a run stopped early
 * finished, why, and what to do: fewer games, a lower level, or the
 * command line, which has no time budget.
 */
export function stoppedText(res, rulesets) {
  const asked = res.games_asked;
  const done = res.games_finished;
  const secs = res.elapsed_ms / 1000;
  const why = res.stopped === "cancelled" ? "the request was cancelled" : `a request may run ${res.max_seconds} s and that time ran out`;
  let pace;
  if (done > 0) pace = `At this pace the ${int(asked)} games would need about ${duration((secs * asked) / done)}.`;
  else pace = `Not one game finished in ${secs.toFixed(0)} s: ${res.player === "random" ? "these games are long" : `a game between ${res.player.replace("level:", "level ")} players takes longer than that here`}.`;
  const cli = `matombo lab ${rulesets.map((r) => (r.includes(" ") ? `"${r}"` : r)).join(" ")} --games ${res.games_per_ruleset}${res.player === "random" ? "" : ` --player ${res.player}`}`;
  return `Finished ${int(done)} of the ${int(asked)} games asked: ${why}. ${pace} Ask for fewer games or a lower level, or run ${cli} on the command line, which has no time limit.`;
}

/** showPlot puts an SVG document from the server into its figure. */
function showPlot(id, text) {
  const fig = $(`#plot-${id}`);
  fig.querySelectorAll("svg").forEach((e) => e.remove());
  if (!text) return;
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") return;
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", fig.querySelector("figcaption").textContent);
  fig.insertBefore(document.importNode(svg, true), fig.firstChild);
}

function show(res, rulesets) {
  const body = $("#table tbody");
  body.textContent = "";
  res.rulesets.forEach((s) => body.appendChild(row(s, res.games_per_ruleset)));
  const player = res.player === "random" ? "random players" : `${res.player.replace("level:", "level ")} on both sides, after ${res.opening_turns} random turns`;
  let text = `${int(res.games_per_ruleset)} games per ruleset asked, ${player}, seed ${res.seed}, ${(res.elapsed_ms / 1000).toFixed(1)} s.`;
  if (!res.complete && res.games_finished > 0) text += " The figures cover the games finished.";
  $("#summary").textContent = text;
  const stopped = $("#stopped");
  stopped.textContent = res.complete ? "" : stoppedText(res, rulesets);
  stopped.classList.toggle("hidden", !!res.complete);
  const plots = res.plots || {};
  showPlot("first-player", plots["first-player"]);
  showPlot("game-length", plots["game-length"]);
  $(".lab-plots").classList.toggle("hidden", !plots["first-player"] && !plots["game-length"]);
  $("#results").classList.remove("hidden");
}

async function run(e) {
  e.preventDefault();
  const err = $("#form-error");
  err.textContent = "";
  const rulesets = $("#rulesets").value.split("\n").map((l) => l.trim()).filter(Boolean);
  const games = Number($("#games").value);
  const player = $("#player").value;
  const seed = Number($("#seed").value || "1");
  if (!rulesets.length) {
    err.textContent = "Write at least one ruleset.";
    return;
  }
  if (limits) {
    const max = player === "random" ? limits.max_games : limits.max_level_games;
    if (rulesets.length > limits.max_rulesets) {
      err.textContent = `At most ${limits.max_rulesets} rulesets at a time.`;
      return;
    }
    if (!(games >= 1) || games * rulesets.length > max) {
      err.textContent = `At most ${int(max)} games in all with these players: ${int(Math.floor(max / rulesets.length))} per ruleset for ${rulesets.length} rulesets.`;
      return;
    }
  }
  const button = $("#run");
  const status = $("#status");
  button.disabled = true;
  const start = Date.now();
  const tick = setInterval(() => { status.textContent = `Playing… ${((Date.now() - start) / 1000).toFixed(0)} s`; }, 500);
  status.textContent = "Playing…";
  try {
    show(await post("/api/lab", { rulesets, games, player, seed }), rulesets);
    status.textContent = "";
  } catch (ex) {
    err.textContent = ex.message;
    status.textContent = "";
  } finally {
    clearInterval(tick);
    button.disabled = false;
  }
}

async function init() {
  $("#lab-form").addEventListener("submit", run);
  // Level players think: a few games fit a request where random ones play thousands.
  $("#player").addEventListener("change", () => {
    const n = $("#rulesets").value.split("\n").filter((l) => l.trim()).length || 1;
    if (limits && $("#player").value !== "random") {
      $("#games").value = String(Math.max(1, Math.min(Number($("#games").value) || 1, 10, Math.floor(limits.max_level_games / n))));
    }
  });
  document.querySelectorAll("[data-set]").forEach((b) => b.addEventListener("click", () => {
    $("#rulesets").value = examples[b.dataset.set].join("\n");
  }));
  try {
    limits = await get("/api/lab");
    const select = $("#player");
    select.textContent = "";
    limits.players.forEach((p) => select.appendChild(h("option", { value: p }, p === "random" ? "Random moves" : `Computer level ${p.slice(6)} on both sides`)));
    $("#limits").textContent = `A request plays at most ${int(limits.max_games)} games in all (${int(limits.max_level_games)} with level players) over up to ${limits.max_rulesets} rulesets, for at most ${limits.max_seconds} s.`;
  } catch (ex) {
    $("#form-error").textContent = `The lab is not available: ${ex.message}`;
    $("#run").disabled = true;
  }
}

init();
