// The game page during Choro's simultaneous opening (RULES.md §3.4,
// opening=simultaneous): both players choose an opening hole, South first
// and unseen, then North; the server then sows both openings together. This
// module words the prompt for each seat, hides South's choice from the move
// list and the board until North has chosen, and on one device puts a
// "pass the device to North" screen between the two choices.

import { sideName } from "./geom.js";
import { h, playerText } from "./ui.js";
import { t } from "./i18n.js";

/**
 * openingInfo tells whether a view is in the simultaneous opening, before
 * both choices are made (docs/API.md: decision "opening", opening_hidden
 * while South's choice is held secret): null if not, else {southChosen}.
 */
export function openingInfo(view) {
  if (!view || view.status !== "playing") return null;
  if (view.decision === "opening") return { southChosen: !!view.opening_hidden || view.to_move === "N" };
  // Before South's choice (decision "start"): the position's tag tells.
  if (!view.simultaneous_opening || !/ opening$/.test(String(view.position || ""))) return null;
  return { southChosen: view.to_move === "N" };
}

/**
 * ownChoice returns South's hole as the server shows it to South's own seat
 * while it is hidden from everyone else (opening_choice), else "".
 */
export function ownChoice(view) {
  const a = view.opening_choice;
  return typeof a === "string" && /^a[0-9]+$/.test(a) ? a : "";
}

/**
 * openingMoves returns the move list during the opening: South's choice
 * written "?" (or, to South's own seat, the hole) until North has chosen.
 */
export function openingMoves(view, op, local) {
  if (!op.southChosen) return [];
  const mine = local ? "" : ownChoice(view);
  return [{ number: 1, side: "both", text: `${mine || "?"}|…` }];
}

/** emptyText returns the move list's text before either choice. */
export function emptyText() {
  return t("opening.empty");
}

/**
 * passScreen covers the board of a one-device game between South's and
 * North's choices, so that North does not see what South chose. show
 * toggles it; onReady runs when North says it holds the device.
 */
export class PassScreen {
  constructor(host, onReady) {
    this.box = h("div", { class: "pass-screen hidden", role: "dialog", "aria-modal": "true", "aria-labelledby": "pass-title" },
      h("div", { class: "pass-card" },
        h("h2", { id: "pass-title" }, t("opening.pass.title")),
        h("p", {}, t("opening.pass.text")),
        h("button", { type: "button", class: "btn primary", id: "pass-ready", onclick: () => onReady() }, t("opening.pass.ready"))));
    host.appendChild(this.box);
  }

  get shown() {
    return !this.box.classList.contains("hidden");
  }

  show(on) {
    const was = this.shown;
    this.box.classList.toggle("hidden", !on);
    document.body.dataset.pass = on ? "north" : "";
    if (on && !was) this.box.querySelector("button").focus();
  }
}

/**
 * openingPrompt fills the prompt box for the opening and returns
 * {text, sub, active}: what to say to this viewer. act tells whether the
 * viewer may choose now; local is a one-device game; passing is its pass
 * screen being up.
 */
export function openingPrompt(view, op, { act, local, passing }) {
  const players = view.players || {};
  const opp = view.you === "S" ? "N" : "S";
  const oppP = players[opp];
  const oppAI = oppP && oppP.kind === "ai" ? " " + t("opening.ai_choosing", { player: playerText(oppP) }) : "";
  if (local) {
    if (!op.southChosen) {
      return { active: true, text: t("opening.local.south"), sub: t("opening.local.south_sub") };
    }
    if (passing) return { active: false, text: t("opening.local.pass"), sub: "" };
    return { active: true, text: t("opening.local.north"), sub: t("opening.local.north_sub") };
  }
  if (act && !op.southChosen) {
    return { active: true, text: t("opening.south"), sub: t("opening.south_sub") };
  }
  if (act) {
    return { active: true, text: t("opening.north"), sub: t("opening.north_sub") };
  }
  if (view.you === "S" && op.southChosen) {
    const mine = ownChoice(view);
    const wait = t("opening.waiting");
    return { active: false, text: mine ? t("opening.you_chose", { hole: mine }) + " " + wait : wait, sub: t("opening.north_unseen") + oppAI };
  }
  if (view.you === "N" && !op.southChosen) {
    return { active: false, text: t("opening.waiting"), sub: t("opening.south_first") + oppAI };
  }
  const whoP = players[op.southChosen ? "N" : "S"];
  const who = sideName(op.southChosen ? "N" : "S") + (whoP && whoP.kind === "ai" ? ` (${playerText(whoP)})` : "");
  return { active: false, text: op.southChosen ? t("opening.south_chosen_choosing", { side: who }) : t("opening.choosing", { side: who }), sub: t("opening.both_sown") };
}
