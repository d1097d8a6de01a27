// The position viewer /position?ruleset=...&pos=...: any position, its side to
// move and legal actions, shareable by its address. The notation holds the
// start of a turn; a position in the middle of a turn of a stored game comes
// with &game=ID&ply=K, and is shown as that game's decision at ply K (what
// is due, what was played), never as a turn start.

import { get } from "./http.js";
import { Board } from "./board.js";
import { actionHole, sideName, sortActions, stones } from "./geom.js";
import { $, copyText, errorText, h, pendingText, resultText } from "./ui.js";
import { t } from "./i18n.js";

// DECISIONS names the decisions of a turn for people.
// (position.decision.<name> in the catalog).
const DECISIONS = ["head", "pick", "remove", "direction"];

/** midTurn returns the replay step of game at ply when it is mid-turn at pos, or null. */
async function midTurn(game, ply, ruleset, pos) {
  if (!game || !(ply > 0)) return null;
  const r = await get(`/api/games/${encodeURIComponent(game)}/replay`);
  const step = r.actions[ply - 1];
  if (!step || step.turn_end || step.position !== pos) return null;
  return { replay: r, step, next: r.actions[ply] || null };
}

function seats(v, toMove) {
  for (const [side, id] of [["N", "#seat-top"], ["S", "#seat-bottom"]]) {
    const box = $(id);
    box.className = `seat${toMove === side ? " to-move" : ""}`;
    box.append(h("span", { class: "dot" }), h("span", { class: "name" }, sideName(side)), h("span", { class: "count" }, stones(v.stones[side])));
  }
}

async function setup() {
  const q = new URLSearchParams(location.search);
  const ruleset = q.get("ruleset") || "tsoro";
  const pos = q.get("pos") || "";
  $("#f-ruleset").value = ruleset;
  $("#f-pos").value = pos;
  $("#share").addEventListener("click", () => copyText(location.href));
  const board = new Board($("#board"), { label: t("position.board") });
  $("#flip").addEventListener("change", (e) => board.setFlip(e.target.checked));
  let v;
  let mid = null;
  try {
    v = await get(`/api/position?${new URLSearchParams({ ruleset, pos })}`);
    mid = await midTurn(q.get("game"), Number(q.get("ply")), ruleset, v.position).catch(() => null);
  } catch (err) {
    $("#error").textContent = errorText(err);
    return;
  }
  if (!pos) $("#f-pos").value = v.position;
  $("#title").textContent = t("position.title", { title: v.ruleset_title || ruleset });
  $("#ruleset").textContent = v.ruleset;
  board.setRules(v);
  const info = $("#info");
  if (mid) {
    // Mid-turn: the side that played goes on; its decision is the game's.
    const side = mid.step.by;
    const replayAt = `/replay/${encodeURIComponent(q.get("game"))}?ply=${q.get("ply")}`;
    board.set({ size: v.size, rows: v.board.rows, heads: v.board.heads || [] }, [], null);
    document.body.dataset.decision = mid.step.decision;
    $("#to-move").textContent = t("position.to_move_mid", { side: sideName(side) });
    seats(v, side);
    info.append(h("div", { class: "text" },
      h("b", {}, t("position.mid.title", { side: sideName(side) })), " ",
      t("position.mid.due", { decision: DECISIONS.includes(mid.step.decision) ? t(`position.decision.${mid.step.decision}`) : mid.step.decision, side: sideName(side), pending: pendingText(mid.step) }),
      mid.next && mid.next.by === side ? h("div", { class: "muted small" }, t("position.mid.played", { side: sideName(side), action: mid.next.action })) : null,
      h("div", { class: "muted small", id: "play-reason" }, t("position.mid.cannot"), " ",
        h("a", { href: replayAt }, t("position.mid.step_on")), " ", t("position.mid.to_end"))),
    h("a", { class: "btn primary", id: "play-link", "aria-disabled": "true", title: t("position.mid.play_title") }, t("position.play")));
    return;
  }
  const holes = [...new Set((v.legal || []).map((a) => actionHole(a).hole).filter(Boolean))];
  board.set({ size: v.size, rows: v.board.rows, heads: v.board.heads || [] }, holes);
  document.body.dataset.decision = v.decision;
  $("#to-move").textContent = v.status === "over" ? t("position.over") : t("home.from.to_move", { side: sideName(v.to_move) });
  seats(v, v.status === "over" ? "" : v.to_move);
  info.append(h("div", { class: "text" },
    v.status === "over" ? t("position.game_over", resultText(v.result, v.reason)) : t("position.legal", { actions: sortActions(v.legal || []).join(" ") || t("position.legal_none") }),
    v.pending ? h("div", { class: "muted small" }, pendingText(v)) : null),
    v.status === "over" ? null : h("a", { class: "btn primary", id: "play-link", href: `/?${new URLSearchParams({ ruleset: v.ruleset, pos: v.position })}` }, t("position.play")),
    h("a", { class: "btn", id: "analysis-link", href: `/analysis?${new URLSearchParams({ ruleset: v.ruleset, pos: v.position })}` }, t("analysis.open")),
    h("a", { class: "btn", id: "edit-link", href: `/editor?${new URLSearchParams({ ruleset: v.ruleset, pos: v.position })}` }, t("position.edit")));
}

setup();
