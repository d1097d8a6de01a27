// A player's profile: ratings with their history plot, results per
// ruleset, games (filtered, paged); for the player's own profile, each
// game opens with the account's seat, and the password and log-out.

import { get, post } from "./http.js";
import { saveSeat } from "./storage.js";
import { logOut, me, ratingText } from "./account.js";
import { ratingPlot } from "./ratingplot.js";
import { $, errorText, h, playerText, pageId, when } from "./ui.js";
import { t } from "./i18n.js";

const name = pageId();
let own = false;
let oldest = "";
let oldestId = "";
const pageSize = 20;

// The outcomes whose words the catalog carries (profile.outcome.<name>).
const outcomes = ["won", "lost", "drawn", "playing", "aborted"];

async function openSeated(id) {
  try {
    const seat = await post(`/api/account/games/${encodeURIComponent(id)}/seat`);
    saveSeat(id, seat.token);
    location.assign(`/game/${encodeURIComponent(id)}`);
  } catch (ex) {
    $("#games-error").textContent = errorText(ex);
  }
}

function row(g) {
  const id = encodeURIComponent(g.id);
  const live = g.result === "*";
  return h("tr", { "data-game": g.id },
    h("td", {}, h("b", {}, g.ruleset_title || g.ruleset), h("div", { class: "small muted mono" }, g.ruleset)),
    h("td", {}, t("archive.players", { south: playerText(g.players && g.players.S), north: playerText(g.players && g.players.N) }), h("div", { class: "small muted" }, t("profile.as", { side: t(g.side === "S" ? "side.S" : "side.N") }))),
    h("td", {}, outcomes.includes(g.outcome) ? t(`profile.outcome.${g.outcome}`) : g.outcome),
    h("td", { class: "hide-phone small" }, when(g.updated)),
    h("td", {},
      own && live ? h("button", { type: "button", class: "btn small primary", onclick: () => openSeated(g.id) }, t("player.play")) : null,
      live ? null : h("a", { class: "btn small", href: `/replay/${id}` }, t("game.btn.replay")),
      live && !own ? h("a", { class: "btn small", href: `/game/${id}` }, t("archive.watch")) : null));
}

async function loadGames(more = false) {
  const body = $("#games tbody");
  $("#games-error").textContent = "";
  const q = new URLSearchParams({ limit: String(pageSize) });
  if ($("#filter-ruleset").value) q.set("ruleset", $("#filter-ruleset").value);
  if ($("#filter-result").value) q.set("result", $("#filter-result").value);
  if (more && oldest) {
    q.set("before", oldest);
    q.set("before_id", oldestId);
  }
  try {
    const res = await get(`/api/players/${encodeURIComponent(name)}/games?${q}`);
    const games = res.games || [];
    if (!more) body.textContent = "";
    games.forEach((g) => body.appendChild(row(g)));
    if (!more && !games.length) body.appendChild(h("tr", {}, h("td", { colspan: 5, class: "muted" }, t("profile.no_games"))));
    if (games.length) {
      oldest = games[games.length - 1].updated;
      oldestId = games[games.length - 1].id;
    }
    $("#more").classList.toggle("hidden", games.length < pageSize);
  } catch (ex) {
    $("#games-error").textContent = errorText(ex);
  }
}

async function loadHistory() {
  const box = $("#history");
  const [ruleset, category = "untimed"] = $("#history-ruleset").value.split("|"); // a rating's key: ruleset|category
  box.textContent = "";
  if (!ruleset) {
    box.appendChild(ratingPlot([]));
    return;
  }
  try {
    const res = await get(`/api/players/${encodeURIComponent(name)}/history?${new URLSearchParams({ ruleset, category })}`);
    box.appendChild(ratingPlot(res.points || []));
  } catch (ex) {
    box.textContent = errorText(ex);
  }
}

async function changePassword(e) {
  e.preventDefault();
  $("#password-error").textContent = "";
  $("#password-done").textContent = "";
  try {
    await post("/api/account/password", { old: $("#old").value, new: $("#new").value });
    $("#password-done").textContent = t("profile.password_changed");
    $("#old").value = "";
    $("#new").value = "";
  } catch (ex) {
    $("#password-error").textContent = errorText(ex);
  }
}

async function setup() {
  let p;
  try {
    p = await get(`/api/players/${encodeURIComponent(name)}`);
  } catch (ex) {
    $("#profile-error").textContent = errorText(ex);
    // No such player (or no answer): the reason alone, not empty tables.
    for (const sec of document.querySelectorAll("main section")) sec.classList.add("hidden");
    return;
  }
  document.title = `${p.name} · matombo`;
  $("#title").textContent = p.name;
  const m = await me().catch(() => null);
  own = !!m && m.name.toLowerCase() === p.name.toLowerCase();
  const ratings = $("#ratings tbody");
  for (const r of p.ratings) {
    const key = r.category && r.category !== "untimed" ? `${r.ruleset} · ${t(`clock.category.${r.category}`)}` : r.ruleset; // the time category (js/clock.js)
    ratings.appendChild(h("tr", { class: r.provisional ? "provisional" : "", "data-category": r.category || "untimed" },
      h("td", {}, h("a", { href: `/leaderboard?${new URLSearchParams({ ruleset: r.ruleset, category: r.category || "untimed" })}` }, key)),
      h("td", { title: r.provisional ? t("ratings.provisional") : "" }, ratingText(r)),
      h("td", {}, String(Math.round(r.rd))), h("td", {}, String(r.games))));
    $("#history-ruleset").appendChild(h("option", { value: `${r.ruleset}|${r.category || "untimed"}` }, key));
  }
  $("#history-row").classList.toggle("hidden", !p.ratings.length);
  if (!p.ratings.length) ratings.appendChild(h("tr", {}, h("td", { colspan: 4, class: "muted" }, t("profile.no_rated"))));
  const results = $("#results tbody");
  for (const s of p.results) {
    results.appendChild(h("tr", {}, h("td", {}, s.ruleset), h("td", {}, String(s.games)), h("td", {}, String(s.won)),
      h("td", {}, String(s.lost)), h("td", {}, String(s.drawn)), h("td", {}, String(s.playing))));
    $("#filter-ruleset").appendChild(h("option", { value: s.ruleset }, s.ruleset));
  }
  if (!p.results.length) results.appendChild(h("tr", {}, h("td", { colspan: 6, class: "muted" }, t("offline.sync.none"))));
  $("#history-ruleset").addEventListener("change", loadHistory);
  $("#filter-ruleset").addEventListener("change", () => loadGames());
  $("#filter-result").addEventListener("change", () => loadGames());
  $("#more").addEventListener("click", () => loadGames(true));
  if (own) {
    $("#own-box").classList.remove("hidden");
    $("#password-form").addEventListener("submit", changePassword);
    $("#logout").addEventListener("click", () => logOut().catch((ex) => { $("#password-error").textContent = errorText(ex); }));
  }
  loadHistory();
  loadGames();
}

setup();
