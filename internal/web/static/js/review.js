// Game review (docs/API.md: POST and GET /api/games/{id}/review): the
// review of a finished game runs on the server, its progress shown with a
// bar while it runs; once done, each turn's judgement (inaccuracy, mistake,
// blunder), the chances before and after it, and the better turn and line.
// The game page and the replay page link here with reviewHref.

import { get, post } from "./http.js";
import { sideName } from "./geom.js";
import { t } from "./i18n.js";
import { errorText, h } from "./ui.js";
import { chanceText } from "./analysis-graph.js";

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
    const btn = h("button", { type: "button", class: "btn primary", id: "review-start", onclick: () => this.start() }, t("review.start"));
    this.box.append(h("p", { class: "small muted" }, t("review.intro")), btn);
    if (message) this.box.append(h("p", { class: "error", role: "alert" }, message));
  }

  async start() {
    this.box.textContent = "";
    this.bar = h("div", { class: "progress", role: "progressbar", "aria-label": t("review.progress"), "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0" }, h("div"));
    this.status = h("p", { class: "small muted", id: "review-status" }, t("review.starting"));
    this.box.append(this.bar, this.status);
    try {
      this.progress(await post(`/api/games/${encodeURIComponent(this.id)}/review`, {}));
    } catch (err) {
      this.showStart(errorText(err));
    }
  }

  progress(v) {
    if (v.status === "failed") {
      this.showStart(v.error ? t("review.stopped_why", { why: v.error }) : t("review.stopped"));
      return;
    }
    const pct = v.total ? Math.round((100 * v.done) / v.total) : 0;
    this.bar.firstChild.style.width = `${pct}%`;
    this.bar.setAttribute("aria-valuenow", String(pct));
    if (v.status !== "done") {
      this.status.textContent = t("review.running", { done: v.done, total: v.total, limits: v.limits });
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
      this.showStart(errorText(err));
    }
  }

  summary() {
    const v = this.data;
    this.box.textContent = "";
    const counts = { S: { inaccuracy: 0, mistake: 0, blunder: 0 }, N: { inaccuracy: 0, mistake: 0, blunder: 0 } };
    for (const turn of v.turns) if (turn.judgement && counts[turn.side]) counts[turn.side][turn.judgement]++;
    const grid = h("div", { class: "review-counts" }, h("span"), h("b", {}, sideName("S")), h("b", {}, sideName("N")));
    for (const k of ["inaccuracy", "mistake", "blunder"]) {
      grid.append(h("span", { class: `judge ${k}` }, t(`review.count.${k}`)), h("span", {}, String(counts.S[k])), h("span", {}, String(counts.N[k])));
    }
    const th = v.thresholds || {};
    this.box.append(grid,
      h("p", { class: "small muted" }, t("review.explain", { inaccuracy: th.inaccuracy, mistake: th.mistake, blunder: th.blunder, limits: v.limits })),
      this.detail);
  }

  /** show writes the judgement of turn i (0-based) of the review, or clears it. */
  show(i) {
    this.detail.textContent = "";
    const turn = this.data && this.data.turns[i];
    if (!turn) return;
    const who = turn.side === "both" ? t("review.both") : sideName(turn.side);
    const judged = h(turn.judgement ? "b" : "span", { class: `judge ${turn.judgement}` }, ` ${t(`review.judgement.${turn.judgement || "good"}`)}`);
    const drop = turn.note ? "" : ` ${t("review.points", { points: `${turn.drop > 0 ? "−" : "+"}${Math.abs(turn.drop).toFixed(1)}` })}`;
    this.detail.append(...[
      h("p", {}, h("b", {}, `${turn.number} ${turn.actions}`), ` (${who}):`, judged, drop),
      h("p", { class: "small" }, t("review.chances", { before: chanceText(turn.before), after: chanceText(turn.after) })),
      turn.note ? h("p", { class: "small muted" }, turn.note) : null,
    ].filter(Boolean));
    if (turn.best && turn.best !== turn.actions) {
      this.detail.append(
        h("p", { class: "small" }, t("review.better"), " ", h("b", { id: "review-best" }, turn.best)),
        h("p", { class: "small pv", id: "review-pv" }, turn.pv),
        h("button", { type: "button", class: "btn small", id: "review-play", onclick: () => this.onLine(i, lineActions(turn.pv || turn.best)) }, t("review.play_line")),
      );
    }
  }
}
