// The position viewer /position?ruleset=...&pos=...: any position, its side to
// move and legal actions, shareable by its address.

import { get } from "./api.js";
import { Board } from "./board.js";
import { actionHole, plural, sideName, specialHoles } from "./geom.js";
import { $, copyText, h } from "./ui.js";

async function setup() {
  const q = new URLSearchParams(location.search);
  const ruleset = q.get("ruleset") || "tsoro";
  const pos = q.get("pos") || "";
  $("#f-ruleset").value = ruleset;
  $("#f-pos").value = pos;
  $("#share").addEventListener("click", () => copyText(location.href));
  const board = new Board($("#board"), { label: "Position board" });
  $("#flip").addEventListener("change", (e) => board.setFlip(e.target.checked));
  let v;
  try {
    v = await get(`/api/position?${new URLSearchParams({ ruleset, pos })}`);
  } catch (err) {
    $("#error").textContent = err.message;
    return;
  }
  if (!pos) $("#f-pos").value = v.position;
  $("#title").textContent = `Position · ${v.ruleset_title || ruleset}`;
  $("#ruleset").textContent = v.ruleset;
  board.setSpecial(specialHoles(v.ruleset));
  const holes = [...new Set((v.legal || []).map((a) => actionHole(a).hole).filter(Boolean))];
  board.set({ size: v.size, rows: v.board.rows, heads: v.board.heads || [] }, holes);
  $("#to-move").textContent = v.status === "over" ? "game over" : `${sideName(v.to_move)} to move`;
  for (const [side, id] of [["N", "#seat-top"], ["S", "#seat-bottom"]]) {
    const box = $(id);
    box.className = `seat${v.to_move === side && v.status !== "over" ? " to-move" : ""}`;
    box.append(h("span", { class: "dot" }), h("span", { class: "name" }, sideName(side)), h("span", { class: "count" }, plural(v.stones[side], "stone")));
  }
  const info = $("#info");
  info.append(h("div", { class: "text" },
    v.status === "over" ? `Game over: ${v.result === "draw" ? "draw" : `${sideName(v.result)} wins`} (${v.reason}).` : `Legal: ${(v.legal || []).join(" ") || "none"}`,
    v.pending ? h("div", { class: "muted small" }, v.pending) : null),
    v.status === "over" ? null : h("a", { class: "btn primary", id: "play-link", href: `/?${new URLSearchParams({ ruleset: v.ruleset, pos: v.position })}` }, "Play from here"));
}

setup();
