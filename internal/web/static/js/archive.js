// The archive page: stored games (newest first, with paging), record
// download, and import by paste or file upload.

import { get, request } from "./http.js";
import { importPath, offerReading } from "./reading.js";
import { $, errorText, h, playerText, resultText, when } from "./ui.js";
import { t } from "./i18n.js";

let status = "";
let oldest = ""; // the updated time and id of the last game listed: the next page's cursor
let oldestId = "";

function row(g) {
  const id = encodeURIComponent(g.id);
  const over = g.result && g.result !== "*";
  const live = !over && g.mode !== "imported";
  return h("tr", {},
    h("td", {}, h("b", {}, g.ruleset_title || g.ruleset), h("div", { class: "small muted mono" }, g.ruleset)),
    h("td", {}, t("archive.players", { south: playerText(g.players && g.players.S), north: playerText(g.players && g.players.N) })),
    h("td", {}, over ? resultText(g.result, g.reason).title : live ? t("archive.in_progress") : t("archive.unfinished")),
    h("td", { class: "hide-phone" }, String(g.turns ?? "")),
    h("td", { class: "hide-phone small" }, when(g.updated || g.created)),
    h("td", {},
      h("a", { class: "btn small", href: `/replay/${id}` }, t("game.btn.replay")),
      live ? h("a", { class: "btn small", href: `/game/${id}` }, t("archive.watch")) : null,
      h("a", { class: "btn small", href: `/api/games/${id}/record`, download: `matombo-${g.id}.txt` }, t("archive.record"))));
}

async function load(more = false) {
  const body = $("#games tbody");
  const err = $("#list-error");
  err.textContent = "";
  const q = new URLSearchParams({ limit: "30" });
  if (status) q.set("status", status);
  if (more && oldest) {
    q.set("before", oldest);
    if (oldestId) q.set("before_id", oldestId);
  }
  try {
    const res = await get(`/api/games?${q}`);
    const games = res.games || [];
    if (!more) body.textContent = "";
    games.forEach((g) => body.appendChild(row(g)));
    if (!more && !games.length) body.appendChild(h("tr", {}, h("td", { colspan: 6, class: "muted" }, t("offline.sync.none"))));
    if (games.length) {
      const last = games[games.length - 1];
      oldest = last.updated || last.created || "";
      oldestId = last.id || "";
    }
    $("#more").classList.toggle("hidden", games.length < 30);
  } catch (ex) {
    err.textContent = errorText(ex);
  }
}

async function importRecord(e) {
  e.preventDefault();
  const text = $("#record").value.trim();
  $("#import-error").textContent = "";
  $("#import-done").textContent = "";
  if (!text) {
    $("#import-error").textContent = t("archive.import.empty");
    return;
  }
  await sendRecord(text);
}

// sendRecord imports text, under ruleset when given (the retry that a
// refusal with a suggested ruleset offers).
async function sendRecord(text, ruleset = "") {
  $("#import-error").textContent = "";
  try {
    const res = await request("POST", importPath(ruleset), { body: text, text: true });
    const link = h("a", { href: `/replay/${encodeURIComponent(res.id)}` }, t("archive.import.open_replay"));
    $("#import-done").append(ruleset ? t("archive.import.done_as", { ruleset }) : t("archive.import.done"), " ", link);
    load();
  } catch (ex) {
    $("#import-error").textContent = errorText(ex);
    offerReading($("#import-error"), ex, (rs) => sendRecord(text, rs));
  }
}

function setup() {
  document.querySelectorAll(".tabs .btn").forEach((b) => b.addEventListener("click", () => {
    status = b.dataset.status;
    document.querySelectorAll(".tabs .btn").forEach((x) => x.setAttribute("aria-pressed", String(x === b)));
    load();
  }));
  $("#more").addEventListener("click", () => load(true));
  $("#import").addEventListener("submit", importRecord);
  $("#file").addEventListener("change", async (e) => {
    const f = e.target.files && e.target.files[0];
    if (f) $("#record").value = await f.text();
  });
  load();
}

setup();
