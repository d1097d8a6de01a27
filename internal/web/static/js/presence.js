// Presence and attention on the game page: which seats have a player
// connected (the socket's "presence" messages, shown as a dot on each
// seat), "your turn" in the tab's title and an optional beep (off by
// default, remembered in localStorage), and the players' quick messages
// from a fixed list (the socket's "say"), never free text.

import { t } from "./i18n.js";
import { sideName } from "./geom.js";
import { setting, saveSetting } from "./storage.js";
import { $, h, toast } from "./ui.js";

/** SAYS are the quick messages' ids, as the server takes them. */
export const SAYS = ["good_luck", "well_played", "thank_you", "good_game"];

const SAID_KEPT = 6; // the quick messages listed

/** Presence is the game page's presence, attention and quick messages. */
export class Presence {
  constructor(page) {
    this.page = page;
    this.seats = null; // {S, N}: connected, once the server has said
    this.yourTurn = false;
    this.seen = false; // a view has been rendered (no beep for the first)
    this.base = document.title;
    this.audio = null;
    this.card = h("div", { class: "card attention-card hidden", id: "attention" });
    this.status = h("p", { class: "small", id: "presence-text", "aria-live": "polite" });
    const sound = h("input", { type: "checkbox", id: "sound" });
    sound.checked = setting("sound", "off") === "on";
    sound.addEventListener("change", () => {
      saveSetting("sound", sound.checked ? "on" : "off");
      if (sound.checked) this.beep(); // the click is the gesture that lets the page play sound
    });
    this.sound = sound;
    this.saysBox = h("div", { class: "quick-says", role: "group", "aria-label": t("say.label") },
      ...SAYS.map((id) => h("button", { type: "button", class: "btn small", "data-say": id, onclick: () => this.say(id) }, t(`say.${id}`))));
    this.said = h("ul", { class: "said", "aria-live": "polite" });
    this.quick = h("div", { class: "quick-box hidden" }, h("h2", {}, t("say.title")), this.saysBox, this.said);
    this.card.append(this.status, h("div", { class: "attention" }, h("label", {}, sound, t("attention.sound"))), this.quick);
    const aside = $(".game aside");
    if (aside) aside.insertBefore(this.card, aside.querySelector(".card:not(.invite)"));
    // A page left for another (kept in the back-forward cache) closes its
    // socket, so that the opponent sees it gone; coming back reconnects.
    window.addEventListener("pagehide", () => {
      if (page.live && page.live.ws) page.live.ws.close();
    });
    const flip = $("#flip");
    if (flip) flip.addEventListener("change", () => this.drawSeats());
  }

  /** message handles the socket's presence and say messages; it reports whether it did. */
  message(msg) {
    if (msg.type === "presence" && msg.presence) {
      this.seats = { S: !!msg.presence.S, N: !!msg.presence.N };
      this.drawSeats();
      this.drawStatus();
      return true;
    }
    if (msg.type === "say" && SAYS.includes(msg.say)) {
      this.heard(msg.by, msg.say);
      return true;
    }
    return false;
  }

  /** render follows each view the page shows. */
  render(view) {
    this.view = view;
    const seated = !!view.you && !this.page.local && view.mode !== "imported";
    this.card.classList.toggle("hidden", !seated && !(view.mode === "friend" && this.seats));
    this.sound.closest("label").classList.toggle("hidden", !seated);
    this.quick.classList.toggle("hidden", !(seated && view.mode === "friend"));
    this.drawSeats();
    this.drawStatus();
    const turn = seated && view.status === "playing" && this.page.canAct(view);
    if (document.title.startsWith(`${t("attention.your_turn")} · `)) document.title = document.title.slice(t("attention.your_turn").length + 3);
    this.base = document.title;
    document.title = turn ? `${t("attention.your_turn")} · ${this.base}` : this.base;
    document.body.dataset.yourTurn = turn ? "1" : "";
    if (turn && !this.yourTurn && this.seen && this.sound.checked) this.beep();
    this.yourTurn = turn;
    this.seen = true;
  }

  // drawSeats marks each seat box with its player's presence (friend games).
  drawSeats() {
    const v = this.view;
    const flipped = $("#flip") && $("#flip").checked;
    for (const [box, side] of [[$("#seat-top"), flipped ? "S" : "N"], [$("#seat-bottom"), flipped ? "N" : "S"]]) {
      if (!box) continue;
      if (!v || v.mode !== "friend" || !this.seats || !(v.seated || {})[side]) {
        delete box.dataset.presence;
        continue;
      }
      box.dataset.presence = this.seats[side] ? "on" : "off";
      box.title = this.seats[side] ? t("presence.connected", { side: sideName(side) }) : t("presence.away", { side: sideName(side) });
    }
  }

  // drawStatus says whether the opponent is connected.
  drawStatus() {
    const v = this.view;
    if (!v || v.mode !== "friend" || !this.seats) {
      this.status.textContent = "";
      return;
    }
    if (v.you && !this.page.local) {
      const opp = v.you === "S" ? "N" : "S";
      if (!(v.seated || {})[opp]) this.status.textContent = t("presence.no_opponent");
      else this.status.textContent = this.seats[opp] ? t("presence.opponent_here") : t("presence.opponent_away");
    } else {
      this.status.textContent = [["S", this.seats.S], ["N", this.seats.N]].map(([s, on]) => t(on ? "presence.connected" : "presence.away", { side: sideName(s) })).join(" · ");
    }
    document.body.dataset.opponent = this.status.textContent;
  }

  say(id) {
    if (!this.page.live || !this.page.live.send({ type: "say", say: id })) toast(t("say.offline"));
  }

  heard(by, id) {
    const v = this.view;
    const mine = v && v.you === by;
    const who = mine ? t("say.you") : playerName(v, by);
    this.said.prepend(h("li", {}, h("span", { class: "by" }, `${who}: `), t(`say.${id}`)));
    while (this.said.children.length > SAID_KEPT) this.said.lastChild.remove();
    if (!mine) toast(`${who}: ${t(`say.${id}`)}`);
  }

  // beep plays a short tone (WebAudio: no file to fetch).
  beep() {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      this.audio = this.audio || new Ctx();
      const ctx = this.audio;
      if (ctx.state === "suspended") ctx.resume();
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = 660;
      const now = ctx.currentTime;
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.18);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now);
      osc.stop(now + 0.2);
      document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
    } catch {
      /* no sound: the title still says it */
    }
  }
}

/** playerName names the player of side in view v. */
function playerName(v, side) {
  const p = v && (v.players || {})[side];
  return (p && p.name) || sideName(side);
}
