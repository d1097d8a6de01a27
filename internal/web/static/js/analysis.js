// The analysis board /analysis?ruleset=…&pos=…[&moves=a3,xd4,…], or of a
// stored game: /analysis?game=ID[&moves=…][&review=1]. The board, an
// evaluation bar, the graph of South's winning chance over the line shown,
// the best actions with their chances and lines, and free play: actions
// played here branch off as variations of the move tree (arrow keys walk
// it), the address sharing the position and the line. A finished game can
// be reviewed here (review.js). The server plays and evaluates
// (docs/API.md: GET /api/analysis); the page keeps what it was told.

import { get } from "./http.js";
import { Board } from "./board.js";
import { actionHole, sideName, sortActions } from "./geom.js";
import { $, copyText, errorText, h } from "./ui.js";
import { t } from "./i18n.js";
import { MARKS, Node, renderTree } from "./analysis-tree.js";
import { chanceText, drawGraph, setBar } from "./analysis-graph.js";
import { Review } from "./review.js";

class Analysis {
  constructor() {
    this.root = new Node(null, "", "", true);
    this.current = this.root;
    this.ruleset = "tsoro";
    this.start = "";
    this.game = "";
    this.first = "S";
    this.review = null;
    this.board = new Board($("#board"), { label: t("analysis.board"), onPick: (hole) => this.pickHole(hole) });
    $("#flip").addEventListener("change", (e) => this.board.setFlip(e.target.checked));
    $("#nav-first").addEventListener("click", () => this.go(this.root));
    $("#nav-prev").addEventListener("click", () => this.go(this.current.parent || this.current));
    $("#nav-next").addEventListener("click", () => this.go(this.current.children[0] || this.current));
    $("#nav-last").addEventListener("click", () => this.go(this.current.end()));
    $("#share").addEventListener("click", () => copyText(location.href));
    $("#engine").addEventListener("change", () => this.go(this.current));
    document.addEventListener("keydown", (e) => this.key(e));
  }

  /** query is the API's query for node n. */
  query(n, evaluate) {
    const q = new URLSearchParams({ ruleset: this.ruleset });
    if (this.start) q.set("pos", this.start);
    const path = n.path();
    if (path.length) q.set("actions", path.join(","));
    if (evaluate) q.set("eval", "1");
    return q;
  }

  /** fetchView gets n's state from the server, and its actions' sides and turn ends. */
  async fetchView(n) {
    if (n.view) return n;
    const res = await get(`/api/analysis?${this.query(n, false)}`);
    n.view = res.view;
    n.events = res.events || [];
    const steps = res.steps || [];
    let m = n;
    for (let i = steps.length - 1; i >= 0 && m.parent; i--, m = m.parent) {
      m.by = steps[i].by;
      m.turnEnd = steps[i].turn_end;
    }
    return n;
  }

  /** go shows node n: its board at once, then its evaluation. */
  async go(n) {
    this.current = n;
    $("#error").textContent = "";
    try {
      await this.fetchView(n);
    } catch (err) {
      $("#error").textContent = errorText(err);
      if (!n.view && n.parent) {
        // An action the server refused: drop it.
        n.parent.children = n.parent.children.filter((c) => c !== n);
        this.current = n.parent;
        n = n.parent;
        if (!n.view) return;
      } else if (!n.view) {
        return;
      }
    }
    if (this.current !== n) return;
    this.draw();
    this.evaluate(n);
  }

  async evaluate(n) {
    if (!$("#engine").checked || n.evaluation) {
      this.drawEval();
      return;
    }
    this.drawEval(true);
    try {
      const res = await get(`/api/analysis?${this.query(n, true)}`);
      n.evaluation = res.eval;
    } catch (err) {
      if (this.current === n) $("#eval-note").textContent = errorText(err);
      return;
    }
    if (this.current === n) this.drawEval();
    this.drawGraph();
  }

  /** url is the address of the current node. */
  url() {
    const q = new URLSearchParams();
    if (this.game) q.set("game", this.game);
    else {
      q.set("ruleset", this.ruleset);
      if (this.start) q.set("pos", this.start);
    }
    const path = this.current.path();
    if (path.length) q.set("moves", path.join(","));
    return `${location.pathname}?${q}`;
  }

  draw() {
    const n = this.current;
    const v = n.view;
    history.replaceState(null, "", this.url());
    const over = v.status === "over";
    const holes = over ? [] : [...new Set((v.legal || []).map((a) => actionHole(a).hole).filter(Boolean))];
    const sows = (n.events || []).filter((e) => e.kind === "sow");
    const last = sows.length ? { from: sows[0].from, to: sows[sows.length - 1].to } : null;
    this.board.set({ size: v.size, rows: v.board.rows, heads: v.board.heads || [] }, holes, last);
    document.body.dataset.decision = v.decision;
    document.body.dataset.ply = String(n.depth());
    $("#to-move").textContent = over ? t("position.over") : t(n.turnEnd ? "analysis.to_move" : "position.to_move_mid", { side: sideName(v.to_move) });
    this.drawPrompt();
    renderTree($("#moves"), this.root, n, this.first, (m) => this.pick(m));
    this.drawGraph();
    const play = $("#play-link");
    if (n.turnEnd && !over) {
      play.href = `/?${new URLSearchParams({ ruleset: v.ruleset, pos: v.position })}`;
      play.removeAttribute("aria-disabled");
    } else {
      play.removeAttribute("href");
      play.setAttribute("aria-disabled", "true");
    }
    if (this.review) this.review.show(n.turnIdx === undefined ? -1 : n.turnIdx);
  }

  drawPrompt() {
    const v = this.current.view;
    const box = $("#prompt");
    box.textContent = "";
    box.classList.remove("active");
    if (v.status === "over") {
      box.append(h("div", { class: "text" }, t("position.game_over", { result: v.result === "draw" ? t("result.draw") : t("result.side_wins", { side: sideName(v.result) }), reason: v.reason })));
      return;
    }
    const other = (v.legal || []).filter((a) => !actionHole(a).hole);
    box.append(h("div", { class: "text" }, v.pending || t("analysis.pick", { side: sideName(v.to_move) })));
    for (const a of sortActions(other)) box.append(h("button", { type: "button", class: "btn small", onclick: () => this.play(a) }, a));
  }

  drawEval(thinking = false) {
    const e = this.current.evaluation;
    setBar($("#evalbar"), e ? e.chance : null, thinking);
    const top = $("#top");
    top.textContent = "";
    $("#eval-note").textContent = "";
    if (!e) {
      $("#eval-text").textContent = thinking ? t("analysis.thinking") : $("#engine").checked ? "–" : t("analysis.eval.off");
      $("#eval-line").textContent = "";
      return;
    }
    const c = e.chance;
    $("#eval-text").textContent = c.proven ? t("analysis.eval.proven", { chance: chanceText(c) }) : t("analysis.eval.chance", { chance: chanceText(c) });
    $("#eval-line").textContent = e.line ? t(c.proven ? "analysis.proving_line" : "analysis.best_line", { line: e.line }) : "";
    for (const a of e.top || []) {
      top.append(h("li", {}, h("button", { type: "button", onclick: () => this.play(a.action), title: t("analysis.play", { action: a.action }) },
        h("b", {}, a.action), h("span", { class: "chance" }, chanceText(a.chance)), a.line.startsWith(a.action) ? a.line.slice(a.action.length) : a.line)));
    }
    $("#eval-note").textContent = [e.note, t("analysis.search", { limits: e.limits })].filter(Boolean).join(" ");
  }

  /** points are the graph's: the root and each turn's end on the current line. */
  drawGraph() {
    const pts = [];
    for (const n of this.current.line()) {
      if (n.parent && !n.turnEnd) continue;
      const chance = n.evaluation ? n.evaluation.chance : n.reviewChance || null;
      pts.push({ node: n, chance, mark: n.mark, label: n.parent ? n.action : t("analysis.start") });
    }
    let cur = this.current;
    while (cur.parent && !cur.turnEnd) cur = cur.parent;
    drawGraph($("#graph"), pts, cur, (n) => this.pick(n));
  }

  pick(n) {
    this.go(n);
  }

  pickHole(hole) {
    const v = this.current.view;
    if (!v) return;
    const acts = (v.legal || []).filter((a) => actionHole(a).hole === hole);
    if (acts.length === 1) {
      this.play(acts[0]);
      return;
    }
    if (acts.length > 1) {
      const box = $("#prompt");
      box.textContent = "";
      box.classList.add("active");
      box.append(h("div", { class: "text" }, h("b", {}, t("game.prompt.direction", { hole }))),
        ...sortActions(acts).map((a) => h("button", { type: "button", class: "btn small", onclick: () => this.play(a) }, t(a.endsWith("cw") ? "game.btn.cw" : "game.btn.acw"))));
    }
  }

  /** play plays action at the current node: along the tree if there, else a new variation. */
  play(action) {
    this.go(this.current.child(action));
  }

  key(e) {
    const tag = (e.target && e.target.tagName) || "";
    if (e.ctrlKey || e.metaKey || e.altKey || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (e.target && e.target.closest && e.target.closest("#board svg")) return; // the board's own keys
    const n = this.current;
    const to = { ArrowLeft: n.parent, ArrowRight: n.children[0], ArrowUp: n.sibling(-1), ArrowDown: n.sibling(1), Home: this.root, End: n.end() }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    if (to && to !== n) this.go(to);
  }

  /** follow plays the comma-separated moves from the root into the tree, returning the last node. */
  follow(moves) {
    let n = this.root;
    for (const a of (moves || "").split(",").filter(Boolean)) n = n.child(a);
    return n;
  }

  async loadGame(id, q) {
    const data = await get(`/api/games/${encodeURIComponent(id)}/replay`);
    this.game = id;
    this.ruleset = data.ruleset;
    this.start = data.start;
    let n = this.root;
    for (const a of data.actions) {
      n = n.child(a.action, a.by, a.turn_end);
      n.main = true;
      n.turnIdx = a.turn;
    }
    this.mainEnd = n;
    this.title(data);
    $("#replay-link").href = `/replay/${encodeURIComponent(id)}`;
    $("#replay-link").classList.remove("hidden");
    if (data.result && data.result !== "*") {
      $("#review-card").classList.remove("hidden");
      this.review = new Review($("#review-box"), id, { onDone: (r) => this.reviewed(r), onLine: (i, acts) => this.betterLine(i, acts) });
      get(`/api/games/${encodeURIComponent(id)}/review`).then((r) => this.review.progress(r)).catch(() => {
        if (q.get("review") === "1") this.review.start();
      });
    }
  }

  /** reviewed marks the game's turns with the review's judgements and chances. */
  reviewed(r) {
    const ends = [];
    for (let n = this.root; n.children.length && n.children[0].main; ) {
      n = n.children[0];
      if (n.turnEnd) ends.push(n);
    }
    if (r.turns.length) this.root.reviewChance = r.turns[0].before;
    r.turns.forEach((t, i) => {
      const n = ends[i];
      if (!n) return;
      n.mark = MARKS[t.judgement] ? t.judgement : "";
      n.reviewChance = t.after;
    });
    this.go(this.current);
  }

  /** betterLine adds the review's better line of turn i as a variation, and shows its first action. */
  betterLine(i, actions) {
    let start = this.root;
    for (let n = this.root; n.children.length && n.children[0].main; ) {
      n = n.children[0];
      if (n.turnIdx === i) break;
      start = n;
    }
    let n = start;
    for (const a of actions) n = n.child(a);
    const first = start.children.find((c) => c.action === actions[0]);
    this.fetchView(n).catch(() => null).then(() => this.go(first || start));
  }

  title(v) {
    const name = v.ruleset_title || v.ruleset.split(" ")[0].split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
    $("#title").textContent = t("analysis.title", { title: name });
    $("#ruleset").textContent = v.ruleset;
    document.title = `${t("analysis.title", { title: name })} · matombo`;
  }

  async setup() {
    const q = new URLSearchParams(location.search);
    try {
      if (q.get("game")) {
        await this.loadGame(q.get("game"), q);
      } else {
        this.ruleset = q.get("ruleset") || "tsoro";
        this.start = q.get("pos") || "";
      }
      await this.fetchView(this.root);
    } catch (err) {
      $("#title").textContent = t("analysis.not_found");
      $("#error").textContent = errorText(err);
      return;
    }
    this.first = this.root.view.to_move;
    if (!this.game) this.title(this.root.view);
    document.querySelector(".game").classList.toggle("wide", this.root.view.size > 21);
    const target = this.follow(q.get("moves"));
    if (target !== this.root) await this.fetchView(target).catch(() => null);
    await this.go(target.view ? target : this.root);
    document.body.dataset.ready = "1";
  }
}

new Analysis().setup();
