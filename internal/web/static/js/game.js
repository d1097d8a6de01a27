// The game page /game/{id}: board, animation, in-turn prompts, move list,
// live updates over WebSocket, resign and rematch, invite link, spectators.

import { accountSeat } from "./account.js";
import { ApiError, get, post } from "./http.js";
import { LiveGame } from "./live.js";
import { Presence } from "./presence.js";
import { invite, localSeats, openCreated, saveInvite, saveSeat, saveSetting, seatToken, setting, teamInvite } from "./storage.js";
import { Board, SPEEDS } from "./board.js";
import { actionHole, countOf, describeEvents, familyOf, gameOf, ownerOf, sideName, stones as stonesText } from "./geom.js";
import { directionChoices, directionHint } from "./choro.js";
import { describeLockstep, isLockstep } from "./lockstep.js";
import { renderMoves } from "./movelist.js";
import { PassScreen, emptyText, openingInfo, openingMoves, openingPrompt } from "./opening.js";
import { $, copyText, errorText, fail, h, pageId, pendingText, playerText, resultText, toast } from "./ui.js";
import { t } from "./i18n.js";
import { ClockPanel } from "./clock.js";
import { reviewHref } from "./review.js";

const reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

class GamePage {
  constructor(id) {
    this.id = id;
    this.view = null;
    this.queue = [];
    this.hold = false;
    this.running = false;
    this.choosing = null; // a hole with two directions waiting for a choice
    this.lastMove = null;
    this.poller = null;
    this.takeToken();
    this.local = localSeats(id);
    this.presence = new Presence(this); // presence.js: who is connected, "your turn", quick messages
    this.board = new Board($("#board"), { label: t("game.board"), onPick: (hole) => this.pickHole(hole), onRefuse: (hole) => this.refuse(hole) });
    // Choro's simultaneous opening on one device: North says it holds the
    // device (at the ply of South's choice) before the board shows again.
    this.pass = new PassScreen($(".board-wrap"), () => this.passReady());
    this.passedAt = -1;
    this.lastEvents = [];
    this.speed = setting("speed", reducedMotion ? "instant" : "normal");
    const speedSel = $("#speed");
    speedSel.value = this.speed;
    speedSel.addEventListener("change", () => {
      this.speed = speedSel.value;
      saveSetting("speed", this.speed);
    });
    $("#skip").addEventListener("click", () => this.board.skip());
    $("#zoom-in").addEventListener("click", () => this.board.setZoom(this.board.zoom + 0.5));
    $("#zoom-out").addEventListener("click", () => this.board.setZoom(this.board.zoom - 0.5));
    $("#flip").addEventListener("change", (e) => {
      this.board.setFlip(e.target.checked);
      this.drawSeats();
    });
    $("#resign").addEventListener("click", () => this.resign());
    this.clocks = new ClockPanel(this); // clock.js: the clocks, abort, draws and takebacks
    $("#hint").addEventListener("click", () => this.hint());
    $("#rematch").addEventListener("click", () => this.rematch());
    $("#new-invite").addEventListener("click", () => this.newInvite());
    document.addEventListener("keydown", (e) => this.key(e));
    // Keyboard players get the focus back on the board after each move.
    this.byKeyboard = false;
    document.addEventListener("keydown", () => { this.byKeyboard = true; }, true);
    document.addEventListener("pointerdown", () => { this.byKeyboard = false; }, true);
  }

  // takeToken moves a seat token from the URL fragment to localStorage, so
  // that a copied address never carries it.
  takeToken() {
    const m = /(?:^|[#&])seat=([^&]+)/.exec(location.hash);
    if (m) {
      saveSeat(this.id, decodeURIComponent(m[1]));
      history.replaceState(null, "", location.pathname + location.search);
    }
    this.token = seatToken(this.id);
  }

  async start() {
    if (!this.token) this.token = await accountSeat(this.id); // account.js: a logged-in player's seat, in any browser
    try {
      const view = await get(`/api/games/${encodeURIComponent(this.id)}`, { token: this.token });
      this.firstView(view);
    } catch (err) {
      // No game, no connection to show: the badges go.
      $("#title").textContent = err instanceof ApiError && err.status === 404 ? t("game.not_found") : t("game.cannot_show");
      document.title = `${$("#title").textContent} · matombo`;
      $("#conn").classList.add("hidden");
      $("#mode").classList.add("hidden");
      document.querySelectorAll(".board-tools, .game aside").forEach((e) => e.classList.add("hidden"));
      const box = $("#prompt");
      fail(box, err);
      box.append(" ", h("a", { href: "/archive" }, t("game.look_archive")), " ", h("a", { href: "/" }, t("game.start_game")));
      return;
    }
    // Nobody plays an imported record: nothing comes live, so no socket.
    if (this.view.mode === "imported") {
      $("#conn").classList.add("hidden");
      return;
    }
    this.live = new LiveGame(this.id, this.token, {
      ply: () => (this.view ? this.view.ply : 0),
      onMessage: (msg) => this.message(msg),
      onStatus: (s) => this.connStatus(s),
    });
  }

  firstView(view) {
    const you = this.local ? "" : view.you;
    $("#flip").checked = you === "N";
    this.board.setFlip(you === "N");
    this.board.setRules(view);
    const game = gameOf(view.ruleset);
    // Long boards take the whole width; the side panel goes below.
    document.querySelector(".game").classList.toggle("wide", (view.size || 0) > 21);
    $("#title").textContent = view.ruleset_title || game;
    document.title = `${view.ruleset_title || game} · matombo`;
    $("#ruleset").textContent = view.ruleset;
    $("#rules-link").href = `/rules/${familyOf(game)}`;
    $("#keys-text").textContent = keysHelp(familyOf(game), view.mode, view.special_holes || []);
    $("#replay-link").href = `/replay/${encodeURIComponent(this.id)}`;
    $("#record-link").href = `/api/games/${encodeURIComponent(this.id)}/record`;
    $("#record-link").setAttribute("download", `matombo-${this.id}.txt`);
    this.render(view, null);
  }

  message(msg) {
    if (this.presence.message(msg)) return;
    if (msg.type === "state" || msg.type === "update") {
      // A state after a reconnect carries the events missed since the ply
      // the hello named; they are shown if the board is still there.
      this.enqueue(msg.game, msg.events || [], false, msg.type === "state" ? msg.since ?? -1 : undefined);
    } else if (msg.type === "error") {
      toast(msg.error ? errorText({ code: msg.code || "server", message: msg.error }) : t("error.unknown"));
    }
  }

  connStatus(s) {
    const b = $("#conn");
    b.className = `badge conn ${s === "live" ? "live" : s === "offline" ? "offline" : ""}`;
    b.textContent = s === "live" ? t("game.conn.live") : s === "offline" ? t("game.conn.reconnecting") : t("game.conn.connecting");
    // Without a socket, poll the game (which also wakes an idle AI) until it is back.
    clearInterval(this.poller);
    this.poller = null;
    if (s === "offline") this.poller = setInterval(() => this.refetch(), 4000);
  }

  async refetch() {
    try {
      const view = await get(`/api/games/${encodeURIComponent(this.id)}`, { token: this.token });
      this.enqueue(view, []);
    } catch {
      /* the WebSocket state message covers it */
    }
  }

  signature(v) {
    return [v.ply, v.status, v.result, v.pending, v.to_move, v.rematch, JSON.stringify(v.players), JSON.stringify(v.seated), (v.legal || []).join(" "), JSON.stringify(v.offers), v.takebacks].join("|");
  }

  // enqueue queues a view to show, animating events on the way when the
  // board is at ply since (undefined: the view's events follow the board).
  enqueue(view, events, front = false, since = undefined) {
    if (!view || !view.board || !view.board.rows) return;
    if (front) this.queue.unshift({ view, events, since });
    else this.queue.push({ view, events, since });
    this.pump();
  }

  async pump() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length && !this.hold) {
        const { view, events, since } = this.queue.shift();
        const cur = this.view;
        const back = (view.takebacks || 0) - (cur ? cur.takebacks || 0 : 0); // clock.js: a takeback makes a view newer at a lower ply
        if (cur && (back < 0 || (back === 0 && view.ply < cur.ply))) continue;
        if (cur && view.ply === cur.ply && this.signature(view) === this.signature(cur)) continue;
        const animate = cur && events.length && view.ply > cur.ply && (since === undefined || since === cur.ply);
        if (animate) this.drawBusy(playing(events));
        if (animate && await this.play(events)) this.board.matches(view.board.rows);
        this.render(view, animate ? events : []);
      }
    } finally {
      this.running = false;
    }
  }

  // play animates events on the board, announcing each action when done.
  async play(events) {
    $("#skip").disabled = false;
    const delay = SPEEDS[this.speed] ?? SPEEDS.normal;
    const ok = await this.board.animate(events, delay);
    $("#skip").disabled = true;
    if (!ok) return false;
    const groups = [];
    // The simultaneous opening's events (both sides', interleaved) are told as one.
    const lock = events.filter(isLockstep);
    if (lock.length) groups.push({ action: "", by: "", both: true, events: lock });
    for (const e of events.filter((x) => !isLockstep(x))) {
      const g = groups[groups.length - 1];
      if (g && g.action === e.action && g.by === e.by) g.events.push(e);
      else groups.push({ action: e.action, by: e.by, events: [e] });
    }
    this.announce(groups.map((g) => (g.both ? t("game.both_openings", { events: describeLockstep(this.view, g.events) }) : t("player.action", { side: sideName(g.by), action: g.action || "", events: describeEvents(g.events) }))).join(" "));
    this.lastEvents = events;
    const first = events.find((e) => e.kind === "sow");
    const lastSow = [...events].reverse().find((e) => e.kind === "sow");
    const lastGroup = groups[groups.length - 1];
    const start = lastGroup && lastGroup.events.find((e) => e.kind === "sow");
    this.lastMove = lastGroup && lastGroup.both ? null : start ? { from: start.from, to: lastSow.to } : first ? { from: first.from, to: lastSow.to } : null;
    return true;
  }

  announce(text) {
    const a = $("#announce");
    a.textContent = "";
    setTimeout(() => { a.textContent = text; }, 30);
  }

  canAct(view = this.view) {
    return view.status === "playing" && !!this.tokenFor(view.to_move) && (this.local || view.you === view.to_move);
  }

  tokenFor(side) {
    if (this.local && this.local[side]) return this.local[side];
    return this.token;
  }

  render(view, events) {
    const prev = this.view;
    this.view = view;
    document.body.dataset.ply = String(view.ply); // the ply shown (the browser tests read it)
    this.choosing = null;
    if (!events || !events.length) {
      if (!prev || prev.ply !== view.ply) {
        this.lastMove = this.lastFromTurns(view);
        this.lastEvents = [];
      }
    }
    // In the simultaneous opening nothing may show South's choice.
    const op = openingInfo(view);
    if (op) this.lastMove = null;
    this.pass.show(!!(op && this.local && op.southChosen && this.passedAt !== view.ply));
    const act = this.canAct(view);
    const holes = act ? [...new Set((view.legal || []).map((a) => actionHole(a).hole).filter(Boolean))] : [];
    const b = view.board;
    this.board.set({ size: view.size || b.rows.a.length, rows: b.rows, heads: b.heads || [] }, holes, this.lastMove);
    const turns = view.turns || [];
    // The server's move list (a6|d3 for the simultaneous opening); while
    // South's opening choice is hidden, the page's own stand-in. A turn of
    // the list links to the replay at the end of that turn (a plain link:
    // the same tab, or a new one when the reader asks for it).
    const moves = op ? openingMoves(view, op, !!this.local) : view.moves;
    renderMoves($("#moves"), turns, {
      first: view.first_to_move || "S",
      moves,
      empty: op ? emptyText() : undefined,
      href: op ? null : (i) => `/replay/${encodeURIComponent(this.id)}?ply=${turns.slice(0, i + 1).reduce((n, t) => n + t.length, 0)}`,
    });
    this.drawSeats();
    this.drawMode();
    this.drawPrompt();
    this.drawBanner();
    this.drawInvite();
    this.presence.render(view);
    this.clocks.update(view);
    $("#resign").classList.toggle("hidden", !(view.status === "playing" && (view.you || this.local)));
    $("#hint").classList.toggle("hidden", !this.hintable(view));
    $("#hint").disabled = !act || this.pass.shown;
    if (this.hinted) this.board.mark(this.hinted, "hint", false);
    this.hinted = null;
    $("#rematch").classList.toggle("hidden", !(view.status === "over" && (view.you || this.local)));
    if (act && this.byKeyboard && document.activeElement && !document.activeElement.closest("input, select, textarea, #prompt")) {
      this.board.focusFirst();
    }
  }

  // hintable: hints are for games against the computer and on one device.
  hintable(view = this.view) {
    return view.status === "playing" && (view.mode === "ai" || view.mode === "local") && (!!view.you || !!this.local);
  }

  // hint asks the server what the computer would play at this decision,
  // and shows it on the board and in the prompt.
  async hint() {
    const v = this.view;
    if (!v || !this.hintable(v) || !this.canAct(v) || this.board.animating) return;
    const btn = $("#hint");
    btn.disabled = true;
    try {
      const res = await get(`/api/games/${encodeURIComponent(this.id)}/hint`, { token: this.tokenFor(v.to_move) });
      if (this.view !== v || res.ply !== v.ply) return; // the game moved on meanwhile
      const { hole } = actionHole(res.action);
      if (hole) {
        this.board.mark(hole, "hint", true);
        this.hinted = hole;
      }
      const button = document.querySelector(`#prompt button[data-action="${res.action}"]`);
      if (button) button.classList.add("hinted");
      const text = t("game.hint.line", { level: res.level, words: v.decision === "direction" ? directionHint(v.legal || [], v.pending_hole, res.action) : hintWords(v.decision, res.action) });
      const box = $("#prompt");
      box.querySelector(".hint-line")?.remove();
      box.querySelector(".text")?.append(h("div", { class: "hint-line" }, text));
      this.announce(text);
    } catch (err) {
      toast(errorText(err));
    } finally {
      btn.disabled = !this.canAct(this.view);
    }
  }

  lastFromTurns(view) {
    const turns = view.turns || [];
    if (!turns.length) return null;
    const a = actionHole(turns[turns.length - 1][0]);
    return a.hole ? { from: a.hole, to: null } : null;
  }

  drawMode() {
    const v = this.view;
    const mode = $("#mode");
    if (this.local) {
      mode.textContent = t("game.mode.local");
      mode.className = "badge";
    } else if (v.mode === "imported") {
      mode.textContent = t("game.mode.imported");
      mode.className = "badge watching";
    } else if (!v.you) {
      mode.textContent = t("game.mode.watching");
      mode.className = "badge watching";
    } else {
      mode.textContent = t("game.mode.you_play", { side: sideName(v.you) });
      mode.className = "badge";
    }
  }

  drawSeats() {
    const v = this.view;
    if (!v) return;
    const flipped = $("#flip").checked;
    const seat = (side, box) => {
      const p = (v.players || {})[side];
      const you = !this.local && v.you === side;
      // A friend's seat nobody has taken yet is open, not a "Player".
      const open = v.mode === "friend" && !(v.seated || {})[side];
      const who = you ? t("game.seat.you") : open ? t("game.seat.waiting") : playerText(p);
      const stones = (v.stones || {})[side] ?? 0;
      box.className = `seat${v.status === "playing" && v.to_move === side ? " to-move" : ""}`;
      box.textContent = "";
      box.append(
        h("span", { class: "dot", "aria-hidden": "true" }),
        h("span", { class: "name" }, sideName(side)),
        h("span", { class: "muted" }, who),
        h("span", { class: "count", title: t("game.seat.stones_title") }, stonesText(stones)),
      );
      const label = t("game.seat.label", { side: sideName(side), who: you ? t("game.seat.you_lower") : who, stones: stonesText(stones) });
      box.setAttribute("aria-label", v.to_move === side && v.status === "playing" ? t("game.seat.label_to_move", { label }) : label);
    };
    seat(flipped ? "S" : "N", $("#seat-top"));
    seat(flipped ? "N" : "S", $("#seat-bottom"));
  }

  // drawBusy replaces the prompt while the board is not yet the view's:
  // an action on its way to the server, or the animation of actions. The
  // prompt of the next decision comes with its board.
  drawBusy(text) {
    const box = $("#prompt");
    box.textContent = "";
    box.classList.remove("active", "hidden");
    box.append(h("div", { class: "text busy" }, text));
    $("#hint").disabled = true;
  }

  drawPrompt() {
    const v = this.view;
    const box = $("#prompt");
    box.textContent = "";
    box.classList.remove("active");
    if (v.status === "over") {
      box.classList.add("hidden");
      return;
    }
    box.classList.remove("hidden");
    const mover = sideName(v.to_move);
    const moverP = (v.players || {})[v.to_move];
    if (v.mode === "imported") {
      // Nobody plays an imported record here; a new game may go on from it.
      box.append(h("div", { class: "text" }, t("game.imported.text"), " ",
        h("a", { href: `/replay/${encodeURIComponent(this.id)}?ply=${v.ply}` }, t("game.imported.replay")),
        " ", t("game.imported.go_on")));
      return;
    }
    const op = openingInfo(v);
    if (op) {
      const p = openingPrompt(v, op, { act: this.canAct(v), local: !!this.local, passing: this.pass.shown });
      box.classList.toggle("active", p.active);
      box.append(h("div", { class: "text" }, p.active ? h("b", {}, p.text) : p.text, p.sub ? h("div", { class: "muted small" }, p.sub) : null));
      return;
    }
    if (!this.canAct(v)) {
      let text = t("game.prompt.to_move", { side: mover });
      if (moverP && moverP.kind === "ai") text = t("game.prompt.thinking", { side: mover, player: playerText(moverP) });
      else if (v.mode === "friend" && !(v.seated || {})[v.to_move]) text = t("game.prompt.seat_open", { side: mover });
      else if (v.you) text = t("game.prompt.waiting", { side: mover });
      box.append(h("div", { class: "text" }, text, v.pending ? h("div", { class: "muted small" }, pendingText(v)) : null));
      return;
    }
    box.classList.add("active");
    const legal = v.legal || [];
    const opp = sideName(v.to_move === "S" ? "N" : "S");
    const who = this.local ? t("game.prompt.who", { side: mover }) + " " : "";
    const buttons = [];
    let text;
    switch (v.decision) {
      case "setup":
        text = who + t("game.prompt.setup");
        break;
      case "head": {
        const head = legal.find((a) => a !== "stop");
        text = who + t("game.prompt.head", { hole: head });
        if (head) buttons.push(this.button(t("game.btn.relay", { hole: head }), head, "Enter"));
        if (legal.includes("stop")) buttons.push(this.button(t("game.btn.stop"), "stop", "S"));
        break;
      }
      case "pick":
        text = who + t("game.prompt.pick", { side: opp });
        break;
      case "remove":
        text = who + t("game.prompt.remove", { side: opp });
        break;
      case "direction": {
        // Choro mid-turn: the pending hole either way, the leave switch, other holes.
        const d = directionChoices(legal, v.pending_hole);
        text = `${who}${d.text}`;
        for (const c of d.choices) {
          const b = this.button(c.label, c.action, c.key);
          if (c.other) b.classList.remove("primary");
          buttons.push(b);
        }
        break;
      }
      default: {
        text = who + t("game.prompt.move");
        if (legal.some((a) => a.endsWith("cw"))) text += " " + t("game.prompt.move_cw");
        if (legal.includes("stop")) buttons.push(this.button(t("game.btn.stop"), "stop", "S"));
      }
    }
    // A Choro mid-turn prompt already names every choice the server's pending line lists.
    const pending = v.decision === "direction" ? "" : pendingText(v);
    box.append(h("div", { class: "text" }, h("b", {}, text), pending ? h("div", { class: "muted small" }, pending) : null), ...buttons);
  }

  button(label, action, key) {
    return h("button", { class: "btn primary", type: "button", "data-action": action, onclick: () => this.act(action) }, label, key ? h("kbd", {}, key) : null);
  }

  drawBanner() {
    const v = this.view;
    const box = $("#banner");
    box.textContent = "";
    if (v.status !== "over") {
      box.classList.add("hidden");
      return;
    }
    const r = resultText(v.result, v.reason, this.local ? "" : v.you);
    box.classList.remove("hidden");
    const offer = v.rematch && v.you && !this.local ? " " + t("game.banner.rematch_started") : "";
    // Only a seated player has a rematch to offer; the others get the
    // replay and a new game of their own.
    const seated = !!(v.you || this.local);
    box.append(...[
      h("div", { class: "grow" }, r.title, h("small", {}, r.detail + offer)),
      h("a", { class: "btn", href: `/replay/${encodeURIComponent(this.id)}` }, t("game.btn.replay")),
      h("a", { class: "btn", id: "review-link", href: reviewHref(this.id) }, t("review.start")),
      seated ? h("button", { class: "btn primary", type: "button", onclick: () => this.rematch() }, v.rematch && !this.local ? t("game.btn.join_rematch") : t("game.btn.rematch")) : null,
      h("a", { class: "btn", href: "/" }, t("game.btn.new_game")),
    ].filter(Boolean));
    this.announce(`${r.title}. ${r.detail}`);
  }

  drawInvite() {
    const link = invite(this.id);
    const card = $("#invite-card");
    if (!link || this.view.status === "over") {
      card.classList.add("hidden");
      return;
    }
    card.classList.remove("hidden");
    const other = this.view.you === "N" ? "S" : "N";
    const joined = !!(this.view.seated || {})[other];
    $("#invite-text").textContent = joined
      ? t("game.invite.joined")
      : t("game.invite.text");
    $("#new-invite").classList.toggle("hidden", !joined);
    const full = new URL(link, location.origin).href;
    const input = $("#invite-url");
    input.value = full;
    $("#watch-url").value = new URL(`/game/${encodeURIComponent(this.id)}`, location.origin).href;
    const team = teamInvite(this.id);
    $("#team-box").classList.toggle("hidden", !team);
    if (team) $("#team-url").value = new URL(team, location.origin).href;
  }

  // passReady hides the pass-the-device screen: North holds the device.
  passReady() {
    this.passedAt = this.view ? this.view.ply : -1;
    this.pass.show(false);
    this.drawPrompt();
    $("#hint").disabled = !this.canAct();
    if (this.canAct()) this.board.focusFirst();
  }

  // pickHole maps a chosen hole to its legal action(s).
  pickHole(hole) {
    if (this.pass.shown) return;
    const legal = this.view.legal || [];
    const acts = legal.filter((a) => actionHole(a).hole === hole);
    if (acts.length === 1) {
      this.act(acts[0]);
    } else if (acts.length > 1) {
      this.choosing = hole;
      const box = $("#prompt");
      box.textContent = "";
      box.classList.add("active");
      box.append(
        h("div", { class: "text" }, h("b", {}, t("game.prompt.direction", { hole }))),
        ...acts.map((a) => this.button(a.endsWith("cw") ? t("game.btn.cw") : t("game.btn.acw"), a, a.endsWith("cw") ? "C" : "Enter")),
      );
      box.querySelector("button").focus();
    }
  }

  // refuse says briefly why a hole that was clicked cannot be played.
  refuse(hole) {
    const v = this.view;
    if (!v || this.hold) return;
    const text = refusal(v, hole, this.canAct(v), !!(v.you || this.local));
    if (!text) return;
    toast(text);
    this.announce(text);
  }

  key(e) {
    if (!this.view || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (e.key === "Escape") {
      this.board.skip();
      return;
    }
    if (!this.canAct() || this.pass.shown) return;
    // Arrow keys reach the board from anywhere on the page: the first
    // press puts the focus on a highlighted hole, the next ones move it.
    if (e.key.startsWith("Arrow") && !(e.target && e.target.closest && e.target.closest("#board svg"))) {
      if (this.board.animating || this.hold) return;
      e.preventDefault();
      this.board.focusFirst();
      return;
    }
    const legal = this.view.legal || [];
    const k = e.key.toLowerCase();
    const direction = this.view.decision === "direction" ? this.directionNow() : null;
    if (k === "h" && this.hintable()) {
      e.preventDefault();
      this.hint();
    } else if (k === "s" && legal.includes("stop")) {
      e.preventDefault();
      this.act("stop");
    } else if (direction && (k === "c" || k === "l")) {
      // Choro mid-turn: C sows the pending hole clockwise, L is the leave switch.
      const c = direction.choices.find((x) => x.key === k.toUpperCase());
      if (c) {
        e.preventDefault();
        this.act(c.action);
      }
    } else if (k === "c") {
      const focus = this.choosing || this.board.focusHole;
      const cws = legal.filter((a) => a.endsWith("cw"));
      const pick = cws.find((a) => a === `${focus}cw`) || (cws.length === 1 ? cws[0] : null);
      if (pick) {
        e.preventDefault();
        this.act(pick);
      }
    } else if (e.key === "Enter" && this.view.decision === "head" && !(e.target && e.target.closest && e.target.closest("button, .hole"))) {
      const head = legal.find((a) => a !== "stop");
      if (head) {
        e.preventDefault();
        this.act(head);
      }
    }
  }

  // directionNow names the choices of the current Choro mid-turn decision.
  directionNow() {
    return directionChoices(this.view.legal || [], this.view.pending_hole);
  }

  async act(action) {
    const v = this.view;
    if (!v || this.hold || this.board.animating || this.pass.shown || !(v.legal || []).includes(action)) return;
    this.hold = true;
    this.drawBusy(t("game.plays", { side: sideName(v.to_move), actions: action }));
    const token = this.tokenFor(v.to_move);
    let res = null;
    try {
      res = await post(`/api/games/${encodeURIComponent(this.id)}/actions`, { action, ply: v.ply }, { token });
    } catch (err) {
      if (err instanceof ApiError && err.code === "conflict") {
        toast(t("game.moved_on"));
        this.hold = false;
        this.drawPrompt();
        this.refetch();
        return;
      }
      toast(errorText(err));
    }
    this.hold = false;
    if (res && res.game) this.enqueue(res.game, res.events, true);
    else {
      this.drawPrompt(); // refused: the same decision again
      $("#hint").disabled = !this.canAct();
      this.pump();
    }
  }

  async resign() {
    if (!window.confirm(t("game.confirm_resign"))) return;
    try {
      const side = this.local ? this.view.to_move : this.view.you;
      const res = await post(`/api/games/${encodeURIComponent(this.id)}/resign`, {}, { token: this.tokenFor(side) });
      if (res && res.game) this.enqueue(res.game, res.events);
      else this.refetch();
    } catch (err) {
      toast(errorText(err));
    }
  }

  // newInvite asks for a new one-seat link for the opponent (the old one
  // stops working) and shows it.
  async newInvite() {
    try {
      const res = await post(`/api/games/${encodeURIComponent(this.id)}/invite`, {}, { token: this.tokenFor(this.view.you) });
      saveInvite(this.id, res.invite);
      this.drawInvite();
      toast(t("game.invite.new"));
    } catch (err) {
      toast(errorText(err));
    }
  }

  async rematch() {
    try {
      const side = this.local ? "S" : this.view.you;
      const res = await post(`/api/games/${encodeURIComponent(this.id)}/rematch`, {}, { token: this.tokenFor(side) });
      openCreated(res);
    } catch (err) {
      toast(errorText(err));
    }
  }
}

/**
 * refusal says why hole cannot be played in view v, in a few words ("b3 is
 * empty", "d2 is North's hole…"); mayAct tells whether the viewer has the
 * decision, seated whether the viewer plays at all.
 */
export function refusal(v, hole, mayAct, seated) {
  if (v.status !== "playing") return t("refuse.over");
  const mover = sideName(v.to_move);
  if (!mayAct) return seated ? t("refuse.turn", { side: mover }) : t("refuse.watching");
  const n = countOf(v.board, hole);
  const mine = ownerOf(v, hole) === v.to_move;
  const opp = sideName(v.to_move === "S" ? "N" : "S");
  switch (v.decision) {
    case "setup":
      if (!mine) return t("refuse.setup_theirs", { hole, side: opp });
      return hole[0] === v.sides[v.to_move].outer ? t("refuse.setup_not_now", { hole }) : t("refuse.setup_not_outer", { hole });
    case "pick":
    case "remove":
      if (mine) return t("refuse.take_own", { hole, side: opp });
      return n === 0 ? t("refuse.empty", { hole }) : t("refuse.take_not_now", { hole });
    case "head":
    case "direction":
      return t("refuse.answer_first", { pending: pendingText(v) });
  }
  if (!mine) return t("refuse.theirs", { hole, side: opp });
  if (n === 0) return t("refuse.empty", { hole });
  if (n === 1) return t("refuse.single", { hole });
  return t("refuse.not_now", { hole });
}

/** keysHelp lists the keys of the game page that the game uses. */
function keysHelp(family, mode, special) {
  const keys = [t("game.keys.arrows"), t("game.keys.enter")];
  if (family === "tsoro") keys.push(t("game.keys.stop"));
  if (special.length) keys.push(t("game.keys.cw"));
  if (mode === "ai" || mode === "local") keys.push(t("game.keys.hint"));
  keys.push(t("game.keys.esc"));
  return t("game.keys.list", { keys: keys.join(t("common.comma")) });
}

/** playing says which actions an animation shows: "North plays d3, xa2…". */
function playing(events) {
  const out = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (last && last.by === e.by) {
      if (e.action && last.actions[last.actions.length - 1] !== e.action) last.actions.push(e.action);
    } else out.push({ by: e.by, actions: e.action ? [e.action] : [] });
  }
  return out.map((g) => t("game.plays", { side: sideName(g.by), actions: g.actions.join(", ") })).join(" ");
}

/** hintWords says a suggested action in words, for the decision it answers. */
function hintWords(decision, action) {
  const { hole, kind } = actionHole(action);
  switch (decision) {
    case "setup":
      return t("game.hint.setup", { hole });
    case "head":
      return kind === "stop" ? t("game.hint.stop_head") : t("game.hint.relay", { hole });
    case "pick":
      return t("game.hint.pick", { hole });
    case "remove":
      return t("game.hint.remove", { hole });
    case "direction":
      return kind === "cw" ? t("game.hint.cw") : t("game.hint.acw");
    case "opening":
      return t("game.hint.open", { hole });
  }
  if (kind === "stop") return t("game.hint.stop");
  return kind === "cw" ? t("choro.hint.sow_cw", { hole }) : t("game.hint.sow", { hole });
}

function setup() {
  $("#copy-invite").addEventListener("click", () => copyText($("#invite-url").value, $("#invite-url")));
  $("#copy-watch").addEventListener("click", () => copyText($("#watch-url").value, $("#watch-url")));
  $("#copy-team").addEventListener("click", () => copyText($("#team-url").value, $("#team-url")));
  const page = new GamePage(pageId());
  page.start();
}

if (document.body && document.body.dataset.page === "game") setup();
