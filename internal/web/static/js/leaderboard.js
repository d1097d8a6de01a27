// The leaderboard: the Glicko-2 ratings of one preset, highest first.

import { get } from "./http.js";
import { profileURL, ratingText } from "./account.js";
import { $, errorText, h } from "./ui.js";
import { t } from "./i18n.js";

async function load() {
  const ruleset = $("#preset").value;
  const body = $("#board tbody");
  $("#board-error").textContent = "";
  try {
    const res = await get(`/api/leaderboard?${new URLSearchParams({ ruleset })}`);
    $("#prov-rd").textContent = String(res.provisional_rd);
    body.textContent = "";
    (res.ratings || []).forEach((r, i) => body.appendChild(h("tr", { class: r.provisional ? "provisional" : "" },
      h("td", {}, String(i + 1)),
      h("td", {}, h("a", { href: profileURL(r.name) }, r.name)),
      h("td", { title: r.provisional ? t("ratings.provisional") : "" }, ratingText(r)),
      h("td", {}, String(Math.round(r.rd))),
      h("td", {}, String(r.games)))));
    if (!body.children.length) body.appendChild(h("tr", {}, h("td", { colspan: 5, class: "muted" }, t("leaderboard.none"))));
  } catch (ex) {
    $("#board-error").textContent = errorText(ex);
  }
}

async function setup() {
  const sel = $("#preset");
  try {
    const res = await get("/api/rulesets");
    for (const p of res.presets || []) sel.appendChild(h("option", { value: p.ruleset }, `${p.title} (${p.ruleset})`));
  } catch (ex) {
    $("#board-error").textContent = errorText(ex);
    return;
  }
  const want = new URLSearchParams(location.search).get("ruleset");
  if (want) sel.value = want;
  sel.addEventListener("change", () => {
    history.replaceState(null, "", `?${new URLSearchParams({ ruleset: sel.value })}`);
    load();
  });
  load();
}

setup();
