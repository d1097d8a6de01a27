// The variant lab page: runs an experiment through POST /api/lab (a
// bounded number of games per request) and shows the figures per ruleset
// and the two charts the server draws as SVG.

import { get, post } from "./http.js";
import { $, errorText, h } from "./ui.js";
import { lang, t } from "./i18n.js";

const examples = {
  bonus: ["tsoro size=8 bonus=0", "tsoro size=8 bonus=1", "tsoro size=8 bonus=2", "tsoro size=8 bonus=3"],
  heads: ["tsoro size=8 heads=none", "tsoro size=8 heads=right2", "tsoro size=8 heads=left2", "tsoro size=8 heads=ends", "tsoro size=8 heads=right1", "tsoro size=8 heads=choose"],
  nsolo: ["nsolo size=8", "nsolo size=12", "nsolo size=20", "nsolo size=36"],
  presets: ["tsoro", "misoro-tsoro", "musoro-tsoro", "nsolo", "choro"],
};

let limits = null;

const pct = (v) => `${(100 * v).toFixed(1)}%`;
const int = (v) => Number(v).toLocaleString(lang);

/** share is a cell with a share of the games and its 95% interval. */
function share(k, rate, lo, hi) {
  return h("td", { class: "num" }, pct(rate), h("span", { class: "ci" }, `${int(k)} · [${pct(lo)}, ${pct(hi)}]`));
}

function row(s, asked) {
  const stalled = s.repetition_endings + s.turn_cap_endings;
  const games = h("td", { class: "num" }, int(s.games), s.games < asked ? h("span", { class: "ci" }, t("lab.of", { count: int(asked) })) : null);
  if (s.games === 0) {
    // Nothing finished: no share, interval or mean to show.
    return h("tr", { class: "none" }, h("td", { class: "mono" }, s.ruleset), games,
      h("td", { colspan: 7, class: "muted" }, t("lab.none_finished")));
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
    h("td", { class: "num hide-phone", title: t("lab.stalled_title", { repetition: s.repetition_endings, cap: s.turn_cap_endings, cuts: s.lap_cut_turns }) },
      s.lap_cut_turns ? t("lab.stalled_cut", { stalled: int(stalled), cuts: int(s.lap_cut_turns) }) : int(stalled)));
}

/** duration writes seconds for people: "40 s", "3 min", "2 h". */
function duration(sec) {
  if (sec < 90) return t("lab.seconds", { n: Math.max(1, Math.round(sec)) });
  if (sec < 5400) return t("lab.minutes", { n: Math.round(sec / 60) });
  return t("lab.hours", { n: Math.round(sec / 3600) });
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
  const why = res.stopped === "cancelled" ? t("lab.stopped.cancelled") : t("lab.stopped.time", { seconds: res.max_seconds });
  let pace;
  if (done > 0) pace = t("lab.stopped.pace", { asked: int(asked), time: duration((secs * asked) / done) });
  else pace = res.player === "random" ? t("lab.stopped.none_random", { seconds: secs.toFixed(0) }) : t("lab.stopped.none_level", { seconds: secs.toFixed(0), level: res.player.replace("level:", "") });
  const cli = `matombo lab ${rulesets.map((r) => (r.includes(" ") ? `"${r}"` : r)).join(" ")} --games ${res.games_per_ruleset}${res.player === "random" ? "" : ` --player ${res.player}`}`;
  return t("lab.stopped.text", { done: int(done), asked: int(asked), why, pace, cli });
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
  const player = res.player === "random" ? t("lab.summary.random") : t("lab.summary.level", { level: res.player.replace("level:", ""), turns: res.opening_turns });
  let text = t("lab.summary.text", { games: int(res.games_per_ruleset), player, seed: res.seed, seconds: (res.elapsed_ms / 1000).toFixed(1) });
  if (!res.complete && res.games_finished > 0) text += " " + t("lab.summary.partial");
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
    err.textContent = t("lab.error.none");
    return;
  }
  if (limits) {
    const max = player === "random" ? limits.max_games : limits.max_level_games;
    if (rulesets.length > limits.max_rulesets) {
      err.textContent = t("lab.error.rulesets", { max: limits.max_rulesets });
      return;
    }
    if (!(games >= 1) || games * rulesets.length > max) {
      err.textContent = t("lab.error.games", { max: int(max), per: int(Math.floor(max / rulesets.length)), n: rulesets.length });
      return;
    }
  }
  const button = $("#run");
  const status = $("#status");
  button.disabled = true;
  const start = Date.now();
  const tick = setInterval(() => { status.textContent = t("lab.playing_for", { seconds: ((Date.now() - start) / 1000).toFixed(0) }); }, 500);
  status.textContent = t("lab.playing");
  try {
    show(await post("/api/lab", { rulesets, games, player, seed }), rulesets);
    status.textContent = "";
  } catch (ex) {
    err.textContent = errorText(ex);
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
    limits.players.forEach((p) => select.appendChild(h("option", { value: p }, p === "random" ? t("lab.player.random") : t("lab.player.level", { level: p.slice(6) }))));
    $("#limits").textContent = t("lab.limits", { games: int(limits.max_games), level_games: int(limits.max_level_games), rulesets: limits.max_rulesets, seconds: limits.max_seconds });
  } catch (ex) {
    $("#form-error").textContent = t("lab.unavailable", { error: errorText(ex) });
    $("#run").disabled = true;
  }
}

init();
