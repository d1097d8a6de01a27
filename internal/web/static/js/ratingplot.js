// A rating history drawn as SVG: the rating line in its ±2 RD band.

import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text = "") {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text) e.textContent = text;
  return e;
}

/** ratingPlot returns an SVG of points [{rating, rd, at}], oldest first. */
export function ratingPlot(points, { width = 480, height = 200 } = {}) {
  const pad = { l: 44, r: 10, t: 10, b: 24 };
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" });
  if (!points.length) {
    svg.append(el("text", { x: width / 2, y: height / 2, "text-anchor": "middle" }, t("profile.no_rated")));
    svg.setAttribute("aria-label", t("profile.no_rated"));
    return svg;
  }
  const lo = Math.min(...points.map((p) => p.rating - 2 * p.rd));
  const hi = Math.max(...points.map((p) => p.rating + 2 * p.rd));
  const min = Math.floor(lo / 100) * 100;
  const max = Math.max(Math.ceil(hi / 100) * 100, min + 100);
  const n = points.length;
  const x = (i) => pad.l + (n === 1 ? (width - pad.l - pad.r) / 2 : (i * (width - pad.l - pad.r)) / (n - 1));
  const y = (r) => pad.t + ((max - r) * (height - pad.t - pad.b)) / (max - min);
  const step = Math.max(100, Math.ceil((max - min) / 500) * 100);
  for (let r = min; r <= max; r += step) {
    svg.append(el("line", { class: "grid", x1: pad.l, x2: width - pad.r, y1: y(r), y2: y(r) }));
    svg.append(el("text", { x: pad.l - 6, y: y(r) + 4, "text-anchor": "end" }, String(r)));
  }
  svg.append(el("line", { class: "axis", x1: pad.l, x2: pad.l, y1: pad.t, y2: height - pad.b }));
  const upper = points.map((p, i) => `${x(i)},${y(p.rating + 2 * p.rd)}`);
  const lower = points.map((p, i) => `${x(i)},${y(p.rating - 2 * p.rd)}`).reverse();
  svg.append(el("polygon", { class: "band", points: [...upper, ...lower].join(" ") }));
  svg.append(el("polyline", { class: "line", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
  points.forEach((p, i) => {
    const c = el("circle", { cx: x(i), cy: y(p.rating), r: 3, class: "line" });
    c.append(el("title", {}, t("plot.point", { rating: Math.round(p.rating), rd: Math.round(2 * p.rd), game: p.game })));
    svg.append(c);
  });
  svg.append(el("text", { x: pad.l, y: height - 6 }, t("plot.games", { count: n })));
  const last = points[n - 1];
  svg.setAttribute("aria-label", t("plot.label", { count: n, rating: Math.round(last.rating), rd: Math.round(2 * last.rd) }));
  return svg;
}
