// The move list in the notation of RULES.md §5: numbered turns, South then North.

import { h } from "./ui.js";

/**
 * renderMoves draws turns (arrays of written actions) into box as a table
 * "1. a3 d6 …". current is the index of the turn to highlight (-1 for none);
 * onPick(i), if given, makes each turn a button.
 */
export function renderMoves(box, turns, current = turns.length - 1, onPick = null) {
  box.textContent = "";
  if (!turns.length) {
    box.appendChild(h("p", { class: "muted small" }, "No moves yet. South moves first."));
    return;
  }
  const body = h("tbody");
  for (let i = 0; i < turns.length; i += 2) {
    const tr = h("tr", {}, h("th", { scope: "row" }, `${i / 2 + 1}.`));
    for (const j of [i, i + 1]) {
      if (j >= turns.length) {
        tr.appendChild(h("td"));
        continue;
      }
      const text = turns[j].join(",");
      const cell = h("td", { class: j === current ? "last" : "" });
      if (onPick) {
        cell.appendChild(h("a", { href: "#", "data-turn": j, onclick: (e) => { e.preventDefault(); onPick(j); } }, text));
      } else {
        cell.textContent = text;
      }
      if (j === current) cell.setAttribute("aria-current", "step");
      tr.appendChild(cell);
    }
    body.appendChild(tr);
  }
  box.appendChild(h("table", { "aria-label": "Moves" }, h("thead", { class: "sr-only" }, h("tr", {}, h("th", {}, "Turn"), h("th", {}, "South"), h("th", {}, "North"))), body));
  const cur = box.querySelector("td.last");
  if (cur) {
    const top = cur.offsetTop - box.clientHeight / 2;
    box.scrollTop = Math.max(0, top);
  }
}

/** recordText writes turns as a numbered record line: "1. a3 d6 2. a7,stop". */
export function recordText(turns) {
  const out = [];
  turns.forEach((t, i) => {
    if (i % 2 === 0) out.push(`${i / 2 + 1}.`);
    out.push(t.join(","));
  });
  return out.join(" ");
}
