// The analysis board's evaluation bar and its graph of South's winning
// chance over the line shown, both drawn from the server's chances
// (docs/API.md: {south: percent, proven, text}).

import { t } from "./i18n.js";
import { h } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * chanceText says a chance for people: "57.3%", or what is proven
 * ("South wins: proven").
 */
export function chanceText(c) {
  if (!c) return "–";
  if (c.proven) return c.south >= 100 ? t("analysis.proven.south") : c.south <= 0 ? t("analysis.proven.north") : t("analysis.proven.draw");
  return `${c.south.toFixed(1)}%`;
}

/** southText is the bar's words for chance c: "South 57.3%", or what is proven. */
function southText(c) {
  return c.proven ? chanceText(c) : t("analysis.south_chance", { chance: chanceText(c) });
}

/** setBar shows chance (or null: not known yet) on the evaluation bar el. */
export function setBar(el, chance, thinking = false) {
  const fill = el.querySelector(".evalbar-fill");
  const text = el.querySelector(".evalbar-text");
  text.textContent = "";
  if (!chance) {
    fill.style.width = "50%";
    text.append(h("span", {}, thinking ? t("analysis.thinking") : "–"));
    el.classList.remove("proven");
    el.setAttribute("aria-valuenow", "50");
    el.setAttribute("aria-valuetext", thinking ? t("analysis.thinking") : t("analysis.not_evaluated"));
    return;
  }
  fill.style.width = `${chance.south}%`;
  text.append(h("span", {}, southText(chance)));
  el.classList.toggle("proven", !!chance.proven);
  el.setAttribute("aria-valuenow", String(chance.south));
  el.setAttribute("aria-valuetext", southText(chance));
}

/**
 * drawGraph draws points [{chance, node, mark}] (chance null: not known)
 * into box: South's chance from 0 to 100% against the turn, the current
 * point marked; onPick(node) when a point is clicked.
 */
export function drawGraph(box, points, current, onPick) {
  box.textContent = "";
  const known = points.filter((p) => p.chance);
  if (known.length < 1) {
    box.append(h("p", { class: "muted small" }, t("analysis.graph.empty")));
    return;
  }
  const W = 320;
  const H = 120;
  const n = Math.max(points.length - 1, 1);
  const x = (i) => 6 + (i * (W - 12)) / n;
  const y = (c) => 6 + ((100 - c) * (H - 12)) / 100;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("analysis.graph.label") });
  s.append(svg("line", { class: "mid", x1: 0, x2: W, y1: y(50), y2: y(50) }));
  let d = "";
  let area = "";
  points.forEach((p, i) => {
    if (!p.chance) return;
    d += `${d ? "L" : "M"}${x(i).toFixed(1)},${y(p.chance.south).toFixed(1)}`;
  });
  const idx = points.map((p, i) => (p.chance ? i : -1)).filter((i) => i >= 0);
  if (idx.length > 1) {
    area = `M${x(idx[0]).toFixed(1)},${y(50)}` + idx.map((i) => `L${x(i).toFixed(1)},${y(points[i].chance.south).toFixed(1)}`).join("") + `L${x(idx[idx.length - 1]).toFixed(1)},${y(50)}Z`;
    s.append(svg("path", { class: "area", d: area }));
  }
  s.append(svg("path", { class: "line", d }));
  points.forEach((p, i) => {
    if (!p.chance) return;
    const cls = `pt${p.node === current ? " cur" : ""}${p.mark === "blunder" ? " blunder" : ""}`;
    const dot = svg("circle", { class: cls, cx: x(i).toFixed(1), cy: y(p.chance.south).toFixed(1), r: p.node === current ? 6 : 3.5 });
    const hit = svg("rect", { class: "hit", x: (x(i) - W / n / 2).toFixed(1), y: 0, width: Math.max(W / n, 4).toFixed(1), height: H, tabindex: "-1" });
    const title = svg("title");
    title.textContent = `${p.label || ""} ${chanceText(p.chance)}`.trim();
    hit.append(title);
    hit.addEventListener("click", () => onPick(p.node));
    s.append(dot, hit);
  });
  box.append(s);
}
