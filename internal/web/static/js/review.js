// Game review (docs/API.md: POST and GET /api/games/{id}/review): the
// review of a finished game runs on the server, its progress shown with a
// bar while it runs; once done, each turn's judgement (inaccuracy, mistake,
// blunder), the chances before and after it, and the better turn and line.
// The game page and the replay page link here with reviewHref.

import { get, post } from "./http.js";
import { sideName } from "./geom.js";
import { h } from "./ui.js";

/** reviewHref is the address of the review of game id: the analysis board, reviewing. */
export function reviewHref(id) {
  return `/analysis?${new URLSearchParams({ game: id, review: "1" })}`;
}

/** lineActions splits a line in record notation ("12. b2 d4 13. a3,xc2") into its actions. */
export function lineActions(line) {
  return (line || "").split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t)).flatMap((t) => t.split(/[,|]/));
}

const POLL_MS = 700;

/**
 * Review drives the review card of game id in box: a button that starts
 * the review, the progress bar while it runs, then the summary and the
 * chosen turn's judgement. onDone(review) is called once it is done;
 * onLine(turnIndex, actions) when the reader asks to play a better line.
 */
export class Review {
  constructor(box, id, { onDone, onLine }) {
    this.box = box;
    this.id = id;
    this.onDone = onDone;
    this.onLine = onLine;
    this.data = null;
    this.detail = h("div", { class: "review-turn", "aria-live": "polite" });
    this.showStart();
  }

  showStart(message = "") {
    this.box.textContent = "";
    const btn = h("button", { type: "button", class: "btn primary", id: "review-start", onclick: () => this.start() }, "Review this game");
    this.box.append(h("p", { class: "small muted" }, "The computer evaluates every turn: the winning chance before and after it, the best turn and its line, and marks the inaccuracies (?!), mistakes (?) and blunders (??)."), btn);
    if (message) this.box.append(h("p", { class: "error", role: "alert" }, message));
  }

  async start() {
    this.box.textContent = "";
    this.bar = h("div", { class: "progress", role: "progressbar", "aria-label": "Review progress", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0" }, h("div"));
    this.status = h("p", { class: "small muted", id: "review-status" }, "Starting the review…");
    this.box.append(this.bar, this.status);
    try {
      this.progress(await post(`/api/games/${encodeURIComponent(this.id)}/review`, {}));
    } catch (err) {
      this.showStart(err.message);
    }
  }

  progress(v) {
    if (v.status === "failed") {
      this.showStart(v.error || "The review stopped.");
      return;
    }
    const pct = v.total ? Math.round((100 * v.done) / v.total) : 0;
    this.bar.firstChild.style.width = `${pct}%`;
    this.bar.setAttribute("aria-valuenow", String(pct));
    if (v.status !== "done") {
      this.status.textContent = `Reviewing: ${v.done} of ${v.total} positions (${v.limits}).`;
      setTimeout(() => this.poll(), POLL_MS);
      return;
    }
    this.data = v;
    this.summary();
    this.onDone(v);
  }

  async poll() {
    try {
      this.progress(await get(`/api/games/${encodeURIComponent(this.id)}/review`));
    } catch (err) {
      this.showStart(err.message);
    }
  }

  summary() {
    const v = this.data;
    this.box.textContent = "";
    const counts = { S: { inaccuracy: 0, mistake: 0, blunder: 0 }, N: { inaccuracy: 0, mistake: 0, blunder: 0 } };
    for (const t of v.turns) if (t.judgement && counts[t.side]) counts[t.side][t.judgement]++;
    const grid = h("div", { class: "review-counts" }, h("span"), h("b", {}, "South"), h("b", {}, "North"));
    for (const [k, label] of [["inaccuracy", "Inaccuracies ?!"], ["mistake", "Mistakes ?"], ["blunder", "Blunders ??"]]) {
      grid.append(h("span", { class: `judge ${k}` }, label), h("span", {}, String(counts.S[k])), h("span", {}, String(counts.N[k])));
    }
    const th = v.thresholds || {};
    this.box.append(grid,
      h("p", { class: "small muted" }, `A turn losing the mover ${th.inaccuracy} points of winning chance or more is an inaccuracy, ${th.mistake} a mistake, ${th.blunder} or a proven win thrown away a blunder. Search: ${v.limits}. Click a marked turn to see the better line.`),
      this.detail);
  }

  /** show writes the judgement of turn i (0-based) of the review, or clears it. */
  show(i) {
    this.detail.textContent = "";
    const t = this.data && this.data.turns[i];
    if (!t) return;
    const who = t.side === "both" ? "Both" : sideName(t.side);
    const judged = t.judgement ? h("b", { class: `judge ${t.judgement}` }, ` ${t.judgement}`) : h("span", {}, " good");
    this.detail.append(...[
      h("p", {}, h("b", {}, `${t.number} ${t.actions}`), ` (${who}):`, judged, t.note ? "" : ` (${t.drop > 0 ? "−" : "+"}${Math.abs(t.drop).toFixed(1)} points)`),
      h("p", { class: "small" }, `South's chance: ${t.before.text} before, ${t.after.text} after.`),
      t.note ? h("p", { class: "small muted" }, t.note) : null,
    ].filter(Boolean));
    if (t.best && t.best !== t.actions) {
      this.detail.append(
        h("p", { class: "small" }, "Better: ", h("b", { id: "review-best" }, t.best)),
        h("p", { class: "small pv", id: "review-pv" }, t.pv),
        h("button", { type: "button", class: "btn small", id: "review-play", onclick: () => this.onLine(i, lineActions(t.pv || t.best)) }, "Play the better line on the board"),
      );
    }
  }
}
