// /join/{id}/{code}: an invite link. Says which game it is, asks for a name
// (optional, remembered for next time), takes a seat with the code, keeps the
// token, and opens the game.

import { get, post } from "./http.js";
import { openCreated, seatToken, setting, saveSetting } from "./storage.js";
import { $, errorText, givenName } from "./ui.js";
import { t } from "./i18n.js";

/** inviter names whoever gave a name among the game's players. */
function inviter(game) {
  const players = game.players || {};
  return givenName(players.S) || givenName(players.N);
}

async function join() {
  const parts = location.pathname.split("/").filter(Boolean);
  const id = decodeURIComponent(parts[1] || "");
  const code = decodeURIComponent(parts[2] || "");
  const status = $("#join-status");
  const error = $("#join-error");
  const form = $("#join-form");
  if (!id || !code) {
    status.textContent = "";
    error.textContent = t("join.incomplete");
    return;
  }
  if (seatToken(id)) {
    status.textContent = t("join.have_seat");
    location.replace(`/game/${encodeURIComponent(id)}`);
    return;
  }
  try {
    const game = await get(`/api/games/${encodeURIComponent(id)}`);
    const who = inviter(game);
    const what = game.ruleset_title ? `${game.ruleset_title} (${game.ruleset})` : game.ruleset;
    status.textContent = who ? t("join.invites", { who, game: what }) : t("join.invited", { game: what });
    if (game.status && game.status !== "playing") status.textContent += " " + t("join.over");
  } catch (err) {
    status.textContent = "";
    error.textContent = errorText(err);
    return;
  }
  const name = $("#join-name");
  name.value = setting("name", "");
  form.classList.remove("hidden");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const btn = $("#join-btn");
    btn.disabled = true;
    const body = { invite: code };
    const given = name.value.trim();
    if (given) body.name = given;
    try {
      const res = await post(`/api/games/${encodeURIComponent(id)}/join`, body);
      saveSetting("name", given);
      status.textContent = t("join.you_play", { side: t(res.seat === "N" ? "side.N" : "side.S") });
      form.classList.add("hidden");
      openCreated(res);
    } catch (err) {
      error.textContent = errorText(err);
      btn.disabled = false;
    }
  });
  name.focus();
}

join();
