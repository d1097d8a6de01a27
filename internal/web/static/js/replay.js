// The replay page /replay/{id}?ply=N: a stored game move by move, with the
// animation, a slider, a shareable link to any ply, and the record download.

import { get } from "./http.js";
import { saveSetting, setting } from "./storage.js";
import { renderMoves } from "./movelist.js";
import { Player } from "./player.js";
import { $, copyText, errorText, h, pageId, playerText, resultText } from "./ui.js";
import { t } from "./i18n.js";
import { reviewHref } from "./review.js";

async function setup() {
  const id = pageId();
  const speedSel = $("#speed");
  speedSel.value = setting("speed", "normal");
  speedSel.addEventListener("change", () => saveSetting("speed", speedSel.value));
  let data;
  const player = new Player($("#player"), {
    label: t("player.board"),
    documentKeys: true,
    speed: () => speedSel.value,
    onChange: (ply) => changed(ply),
  });
  $("#flip").addEventListener("change", (e) => player.board.setFlip(e.target.checked));
  const shareURL = () => {
    const u = new URL(location.href);
    u.searchParams.set("ply", String(player.ply));
    return u.href;
  };
  $("#share").addEventListener("click", () => copyText(shareURL()));

  function changed(ply) {
    if (!data) return;
    history.replaceState(null, "", `${location.pathname}?ply=${ply}`);
    renderMoves($("#moves"), player.turns.map((turn) => turn.actions), {
      current: player.turnIndex(ply),
      first: player.firstToMove(),
      moves: data.moves,
      href: (i) => (player.turns[i] ? `?ply=${player.turns[i].first + player.turns[i].actions.length}` : "#"),
      onPick: (i) => {
        const turn = player.turns[i];
        if (turn) player.go(turn.first + turn.actions.length);
      },
    });
    const pos = ply === 0 ? data.start : data.actions[ply - 1].position;
    // A new game may start where a turn starts, unless nobody can move there.
    const turnStart = ply === 0 || data.actions[ply - 1].turn_end;
    // The notation holds turn starts only: a mid-turn position is opened
    // with the game and ply, so that the viewer shows the decision due.
    const q = new URLSearchParams({ ruleset: data.ruleset, pos });
    if (!turnStart) {
      q.set("game", id);
      q.set("ply", String(ply));
    }
    $("#position-link").href = `/position?${q}`;
    $("#analysis-link").href = `/analysis?${new URLSearchParams({ game: id, moves: data.actions.slice(0, ply).map((a) => a.action).join(",") })}`;
    const stuck = ply === data.actions.length && data.reason === "no legal action";
    const play = $("#play-link");
    if (turnStart && !stuck) {
      play.href = `/?${new URLSearchParams({ ruleset: data.ruleset, pos })}`;
      play.removeAttribute("aria-disabled");
      play.title = t("replay.play_title");
    } else {
      play.removeAttribute("href");
      play.setAttribute("aria-disabled", "true");
      play.title = stuck ? t("replay.stuck") : t("replay.mid_turn");
    }
    $("#banner").classList.toggle("hidden", ply !== data.actions.length || data.result === "*" || !data.result);
  }

  try {
    data = await get(`/api/games/${encodeURIComponent(id)}/replay`);
  } catch (err) {
    $("#title").textContent = t("replay.not_found");
    $("#error").textContent = errorText(err);
    return;
  }
  const game = data.ruleset.split(" ")[0];
  const title = data.ruleset_title || game.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
  $("#title").textContent = t("replay.title", { title });
  $("#ruleset").textContent = data.ruleset;
  const ps = data.players || {};
  $("#players").textContent = t("replay.players", { south: playerText(ps.S), north: playerText(ps.N) });
  // An imported record's own headers (Event, Site, Date, …), names aside.
  const headers = (data.headers || []).filter((hd) => hd.key !== "South" && hd.key !== "North");
  $("#headers").textContent = headers.map((hd) => `${hd.key}: ${hd.value}`).join(" · ");
  $("#headers").classList.toggle("hidden", headers.length === 0);
  $("#record-link").href = `/api/games/${encodeURIComponent(id)}/record`;
  $("#record-link").setAttribute("download", `matombo-${id}.txt`);
  $("#game-link").href = `/game/${encodeURIComponent(id)}`;
  $("#review-link").href = reviewHref(id);
  $("#review-link").classList.toggle("hidden", !data.result || data.result === "*");
  const r = resultText(data.result, data.reason);
  $("#banner").append(h("div", { class: "grow" }, r.title, h("small", {}, r.detail)));
  const ply = Number(new URLSearchParams(location.search).get("ply") || "0");
  player.load(data, Number.isFinite(ply) ? ply : 0);
  document.querySelector(".game").classList.toggle("wide", player.board.board.size > 21);
  document.title = `${t("replay.title", { title })} · matombo`;
}

setup();
