// The lobby /lobby: open challenges shown live, accepting one, posting
// one (open, or to a named player), quick pairing by preset and time
// control. A challenge stays while this page is open; when one of ours is
// accepted the socket says "matched" and the page opens the game with the
// challenge's key as our seat.

import { me } from "./account.js";
import { get, post } from "./http.js";
import { t } from "./i18n.js";
import { LobbySocket, dropLobbyKey, lobbyKeys, saveLobbyKey } from "./lobby-live.js";
import { saveSeat } from "./storage.js";
import { $, errorText, h, toast } from "./ui.js";

/** TIME_CONTROLS are the controls offered: "" is no clock. */
const TIME_CONTROLS = ["", "1+0", "3+2", "5+3", "10+5", "20+10", "corr:1", "corr:3", "corr:7"];

/** tcText says a time control in words. */
export function tcText(tc) {
  if (!tc) return t("lobby.tc.none");
  const corr = /^corr:(\d+)$/.exec(tc);
  if (corr) return t("lobby.tc.corr", { count: Number(corr[1]) });
  const [min, inc] = tc.split("+");
  return t("lobby.tc.live", { min, inc });
}

/** sideText says the side a challenge's creator plays, from the accepter's view. */
function sideText(side) {
  return side === "S" ? t("lobby.they_play_s") : side === "N" ? t("lobby.they_play_n") : t("lobby.they_play_random");
}

class LobbyPage {
  constructor() {
    this.list = new Map(); // id -> challenge view
    this.account = null;
    this.seeking = ""; // the id of our quick seek
  }

  async start() {
    try {
      this.account = await me();
    } catch {
      this.account = null;
    }
    if (this.account) {
      $("#lobby-who").textContent = t("lobby.logged_in", { name: this.account.name });
      document.querySelectorAll(".rated-box, .account-only").forEach((e) => e.classList.remove("hidden"));
    }
    for (const sel of document.querySelectorAll(".tc-select")) {
      for (const tc of TIME_CONTROLS) sel.appendChild(h("option", { value: tc }, tcText(tc)));
    }
    try {
      const res = await get("/api/rulesets");
      for (const p of res.presets || []) {
        const label = `${p.title} (${p.ruleset})`;
        $("#quick-preset").appendChild(h("option", { value: p.ruleset }, label));
        $("#post-ruleset").appendChild(h("option", { value: p.ruleset }, label));
      }
    } catch (err) {
      $("#lobby-error").textContent = errorText(err);
    }
    $("#post").addEventListener("submit", (e) => {
      e.preventDefault();
      this.postChallenge();
    });
    $("#quick-go").addEventListener("click", () => this.quick());
    $("#quick-stop").addEventListener("click", () => this.cancel(this.seeking));
    this.socket = new LobbySocket({ onMessage: (m) => this.message(m), onStatus: (s) => this.status(s) });
    document.body.dataset.ready = "1"; // the browser tests wait for it
  }

  status(s) {
    const b = $("#lobby-conn");
    b.className = `badge conn ${s === "live" ? "live" : s === "offline" ? "offline" : ""}`;
    b.textContent = s === "live" ? t("lobby.live") : s === "offline" ? t("lobby.reconnecting") : t("lobby.connecting");
    document.body.dataset.live = s === "live" ? "1" : "";
  }

  message(m) {
    switch (m.type) {
      case "lobby":
        this.list = new Map((m.challenges || []).map((c) => [c.id, c]));
        break;
      case "challenge":
        if (!m.challenge) return;
        if (m.challenge.for_you && !this.list.has(m.challenge.id)) toast(t("lobby.challenged_you", { name: m.challenge.name }));
        this.list.set(m.challenge.id, m.challenge);
        break;
      case "gone":
        this.list.delete(m.id);
        if (m.why !== "accepted" && lobbyKeys()[m.id]) {
          dropLobbyKey(m.id);
          if (this.seeking === m.id) this.seek("");
        }
        break;
      case "matched":
        this.matched(m.id, m.game);
        return;
      case "error":
        $("#lobby-error").textContent = errorText(m);
        return;
      default:
        return;
    }
    this.render();
  }

  // matched opens the game of our accepted challenge, seated by its key.
  matched(id, game) {
    const key = lobbyKeys()[id];
    if (!key || !game) return;
    saveSeat(game, key);
    dropLobbyKey(id);
    location.assign(`/game/${encodeURIComponent(game)}`);
  }

  render() {
    const ul = $("#challenges");
    ul.textContent = "";
    const items = [...this.list.values()].sort((a, b) => Date.parse(a.created) - Date.parse(b.created) || (a.id < b.id ? -1 : 1));
    for (const c of items) ul.appendChild(this.item(c));
    if (!items.length) ul.appendChild(h("li", { class: "muted" }, t("lobby.open.none")));
  }

  item(c) {
    const mine = c.mine || !!lobbyKeys()[c.id];
    const badges = [h("span", { class: `badge${c.rated ? " rated" : ""}` }, c.rated ? t("lobby.rated_badge") : t("lobby.casual_badge"))];
    if (c.kind === "quick") badges.push(h("span", { class: "badge" }, t("lobby.quick_badge")));
    if (c.for_you) badges.push(h("span", { class: "badge for-you" }, t("lobby.for_you")));
    if (c.kind === "direct" && !c.for_you) badges.push(h("span", { class: "badge" }, t("lobby.to_player", { name: c.to })));
    const who = mine ? t("lobby.you") : c.account ? c.name : t("lobby.anonymous");
    const what = `${c.title} · ${tcText(c.time_control)} · ${sideText(c.side)}`;
    let action;
    if (mine) {
      action = h("button", { type: "button", class: "btn small", "data-cancel": c.id, onclick: () => this.cancel(c.id) }, t("lobby.cancel"));
    } else {
      const blocked = c.rated && !this.account;
      action = h("button", { type: "button", class: "btn primary small", "data-accept": c.id, disabled: blocked, title: blocked ? t("lobby.rated_needs_login") : null, onclick: () => this.accept(c.id) }, t("lobby.accept"));
    }
    return h("li", { class: mine ? "mine" : "", "data-id": c.id }, h("span", { class: "who" }, who), ...badges, h("span", { class: "what", title: c.ruleset }, what), action);
  }

  async accept(id) {
    $("#lobby-error").textContent = "";
    try {
      const res = await post(`/api/lobby/challenges/${encodeURIComponent(id)}/accept`);
      saveSeat(res.game, res.token);
      location.assign(`/game/${encodeURIComponent(res.game)}`);
    } catch (err) {
      $("#lobby-error").textContent = errorText(err);
    }
  }

  async cancel(id) {
    if (!id) return;
    const key = lobbyKeys()[id] || "";
    try {
      await post(`/api/lobby/challenges/${encodeURIComponent(id)}/cancel`, undefined, { token: key });
    } catch (err) {
      $("#lobby-error").textContent = errorText(err);
    }
    dropLobbyKey(id);
    if (this.seeking === id) this.seek("");
    this.list.delete(id);
    this.render();
  }

  // posted keeps a new challenge's key and tells the socket it is ours.
  posted(p) {
    saveLobbyKey(p.challenge.id, p.key);
    this.list.set(p.challenge.id, p.challenge);
    this.socket.hello();
    this.render();
  }

  async postChallenge() {
    $("#post-error").textContent = "";
    const body = {
      ruleset: $("#post-ruleset").value,
      time_control: $("#post-tc").value,
      side: $("#post-side").value,
      rated: !!this.account && $("#post-rated").checked,
      to: this.account ? $("#post-to").value.trim() : "",
    };
    try {
      this.posted(await post("/api/lobby/challenges", body));
    } catch (err) {
      $("#post-error").textContent = errorText(err);
    }
  }

  seek(id) {
    this.seeking = id;
    $("#quick-wait").classList.toggle("hidden", !id);
    $("#quick-go").disabled = !!id;
  }

  async quick() {
    $("#lobby-error").textContent = "";
    const body = {
      ruleset: $("#quick-preset").value,
      time_control: $("#quick-tc").value,
      rated: !!this.account && $("#quick-rated").checked,
      keys: Object.values(lobbyKeys()),
    };
    try {
      const res = await post("/api/lobby/quick", body);
      if (res.accepted) {
        saveSeat(res.accepted.game, res.accepted.token);
        location.assign(`/game/${encodeURIComponent(res.accepted.game)}`);
        return;
      }
      this.posted(res.posted);
      this.seek(res.posted.challenge.id);
    } catch (err) {
      $("#lobby-error").textContent = errorText(err);
    }
  }
}

if (document.body && document.body.dataset.page === "lobby") new LobbyPage().start();
