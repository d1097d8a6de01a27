// The game page's clocks and offers (docs/API.md, "Clocks and offers"):
// each side's time counting down from the server's view, the rule that
// ends the game when nobody acts, and the abort, draw and takeback
// buttons. The server keeps the clocks; this module only shows them
// between its updates. game.js creates one ClockPanel and gives it every
// view it renders.

import { post } from "./http.js";
import { $, errorText, h, toast } from "./ui.js";
import { sideName } from "./geom.js";
import { t } from "./i18n.js";

/** clockText writes a time left in milliseconds: 2:05, 0:09.4, 3 h 12 min, 2 d 5 h. */
export function clockText(ms, correspondence = false) {
  ms = Math.max(0, Math.floor(ms));
  const s = Math.floor(ms / 1000);
  if (correspondence || s >= 3600) {
    const d = Math.floor(s / 86400);
    const hr = Math.floor((s % 86400) / 3600);
    const min = Math.floor((s % 3600) / 60);
    if (d > 0) return t("clock.days_hours", { days: d, hours: hr });
    if (hr > 0) return t("clock.hours_minutes", { hours: hr, minutes: min });
    if (s >= 60) return t("clock.minutes", { minutes: min });
  }
  const m = Math.floor(s / 60);
  const sec = String(s % 60).padStart(2, "0");
  if (s < 10) return `${m}:${sec}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${sec}`;
}

// UNTIMED_RULES are the texts of the rule that ends a game without a clock,
// by the game's mode: against the computer only the player can be the one
// who left, and on one device nobody was waiting.
const UNTIMED_RULES = { ai: "clock.rule.untimed_ai", local: "clock.rule.untimed_local" };

/**
 * ruleText states how a game with the clock view c ends when a side takes
 * too long; mode is the game's ("ai", "friend", "local", …).
 */
export function ruleText(c, mode = "") {
  if (!c) return "";
  if (!c.control) {
    if (!c.abandon_after_s) return "";
    return t(UNTIMED_RULES[mode] || "clock.rule.untimed", { count: Math.round(c.abandon_after_s / 86400) });
  }
  if (c.control.startsWith("corr:")) return t("clock.rule.correspondence", { count: Number(c.control.slice(5)) });
  const [m, s] = c.control.split("+").map(Number);
  return t("clock.rule.realtime", { minutes: m, seconds: s });
}

/** ClockPanel draws the clocks and offers of the game page. */
export class ClockPanel {
  /**
   * game is the page's game (game.js): it has id, view, local (the tokens
   * of a game on one device), tokenFor(side) and enqueue(view, events).
   */
  constructor(game) {
    this.game = game;
    this.box = $("#clocks");
    this.card = $("#offers-card");
    this.rule = $("#clock-rule");
    this.view = null;
    this.at = 0; // performance.now() when the view came
    this.timer = 0;
    this.asked = false; // a fetch after the flag is under way
    $("#flip")?.addEventListener("change", () => this.draw());
  }

  /** update takes a new view of the game. */
  update(view) {
    const before = this.view;
    this.view = view;
    this.at = performance.now();
    this.asked = false;
    this.notify(before, view);
    this.draw();
    this.drawOffers();
    clearInterval(this.timer);
    const c = view.clock;
    if (c && c.running && view.status === "playing") this.timer = setInterval(() => this.tick(), 100);
  }

  // notify tells a player of the offer the opponent just made.
  notify(before, view) {
    const you = view.you;
    if (!you || this.game.local || !view.offers || !before || !before.offers) return;
    const other = you === "S" ? "N" : "S";
    if (view.offers.draw === other && before.offers.draw !== other) toast(t("clock.offer.draw_received"));
    if (view.offers.takeback === other && before.offers.takeback !== other) toast(t("clock.offer.takeback_received"));
  }

  // left returns side's time left now, counted down from the view.
  left(side) {
    const c = this.view.clock;
    const ms = (c.left_ms && c.left_ms[side]) || 0;
    if (c.running !== side || this.view.status !== "playing") return ms;
    return ms - (performance.now() - this.at);
  }

  tick() {
    const c = this.view.clock;
    this.draw();
    if (c.running && this.left(c.running) <= 0 && !this.asked) {
      // The server ends the game within a second (its sweeper); its
      // update comes over the socket. Ask once more in case it was lost.
      this.asked = true;
      setTimeout(() => { if (this.view && this.view.status === "playing") this.game.refetch?.(); }, 1500);
    }
  }

  draw() {
    const v = this.view;
    if (!v) return;
    const c = v.clock;
    this.rule.textContent = ruleText(c, v.mode);
    this.rule.classList.toggle("hidden", !this.rule.textContent || v.status !== "playing");
    if (!c || !c.control) {
      this.box.classList.add("hidden");
      this.box.textContent = "";
      return;
    }
    const corr = c.control.startsWith("corr:");
    const flip = $("#flip")?.checked;
    const sides = flip ? ["S", "N"] : ["N", "S"]; // as the board: the top side first
    this.box.classList.remove("hidden");
    this.box.textContent = "";
    for (const side of sides) {
      const ms = this.left(side);
      const running = c.running === side && v.status === "playing";
      const cls = ["clock", running ? "running" : "", running && !corr && ms < 10000 ? "low" : "", ms <= 0 && (running || v.reason === "time") ? "flagged" : ""].filter(Boolean).join(" ");
      this.box.append(h("div", { class: cls, "data-side": side, role: "timer", "aria-label": t("clock.aria", { side: sideName(side) }) },
        h("span", { class: "clock-side" }, sideName(side)),
        h("span", { class: "clock-time" }, clockText(ms, corr))));
    }
    if (!c.started && v.status === "playing" && !corr) {
      this.box.append(h("div", { class: "clock-note small muted" }, t("clock.first_turns")));
    }
  }

  // mySide is the side the page asks for: the seat, or on one device the
  // side to move.
  mySide() {
    const v = this.view;
    return this.game.local ? v.to_move : v.you;
  }

  drawOffers() {
    const v = this.view;
    const o = v.offers;
    const card = this.card;
    card.textContent = "";
    const me = this.mySide();
    if (!o || v.status !== "playing" || !me) {
      card.classList.add("hidden");
      return;
    }
    const other = me === "S" ? "N" : "S";
    const row = h("div", { class: "row" });
    const button = (id, label, path, cls = "btn small") => {
      const b = h("button", { type: "button", class: cls, id }, label);
      b.addEventListener("click", () => this.ask(path, b));
      row.append(b);
    };
    let text = "";
    if (o.can_abort) button("abort", t("clock.abort"), "abort", "btn small danger");
    if (o.can_offer && !this.game.local) {
      if (o.draw === other) {
        text = t("clock.offer.draw_received");
        button("accept-draw", t("clock.offer.accept_draw"), "draw", "btn small primary");
        button("decline-offer", t("clock.offer.decline"), "decline");
      } else if (o.draw === me) {
        text = t("clock.offer.draw_sent");
        button("decline-offer", t("clock.offer.withdraw"), "decline");
      } else if (o.takeback === other) {
        text = t("clock.offer.takeback_received");
        button("accept-takeback", t("clock.offer.accept_takeback"), "takeback", "btn small primary");
        button("decline-offer", t("clock.offer.decline"), "decline");
      } else if (o.takeback === me) {
        text = t("clock.offer.takeback_sent");
        button("decline-offer", t("clock.offer.withdraw"), "decline");
      } else {
        button("offer-draw", t("clock.offer.draw"), "draw");
        if (o.can_takeback && v.ply > 0) button("ask-takeback", t("clock.offer.takeback"), "takeback");
      }
    }
    if (!row.childElementCount) {
      card.classList.add("hidden");
      return;
    }
    if (text) card.append(h("p", { class: "offer-text", role: "status" }, text));
    card.append(row);
    card.classList.remove("hidden");
  }

  async ask(path, btn) {
    if (path === "abort" && !window.confirm(t("clock.confirm_abort"))) return;
    btn.disabled = true;
    try {
      const res = await post(`/api/games/${encodeURIComponent(this.game.id)}/${path}`, {}, { token: this.game.tokenFor(this.mySide()) });
      if (res && res.game) this.game.enqueue(res.game, res.events || []);
    } catch (err) {
      toast(errorText(err));
      btn.disabled = false;
    }
  }
}
