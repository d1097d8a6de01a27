// Choro's options and decisions in plain words (RULES.md §3.4): the
// new-game form's labels for opening, cw and leave, and the choices of a
// mid-turn decision (the pending hole anticlockwise or clockwise, the leave
// switch, other holes). The legal actions and the hole the decision is
// about (pending_hole) always come from the server's view; this module only
// names them.

import { actionHole } from "./geom.js";
import { t } from "./i18n.js";

/** OPTION_WORDS labels Choro's options in the new-game form, Driberg's readings first. */
export const OPTION_WORDS = {
  opening: { values: ["simultaneous", "sequential"] },
  cw: { values: ["first", "any"] },
  leave: { values: ["yes", "no"] },
};

/**
 * optionWords returns Choro's option key in words from the catalog
 * (choro.opt.<key>.label, .help, .<value>), or null for another key.
 */
export function optionWords(key) {
  const o = OPTION_WORDS[key];
  if (!o) return null;
  const values = {};
  for (const v of o.values) values[v] = t(`choro.opt.${key}.${v}`);
  return { label: t(`choro.opt.${key}.label`), help: t(`choro.opt.${key}.help`), values };
}

/**
 * directionChoices names the actions of a Choro mid-turn decision for the
 * prompt: {text, choices: [{action, label, key}]}, the pending hole (the
 * view's pending_hole: the hole the next lap lifts) first, then its
 * clockwise lap, the leave switch, then any other hole.
 */
export function directionChoices(legal, pending) {
  const x = pending && legal.includes(pending) ? pending : null;
  const choices = [];
  const others = [];
  const parts = [];
  if (x) choices.push({ action: x, label: t("choro.sow_acw", { hole: x }), hint: t("choro.hint.sow_acw", { hole: x }), key: "Enter" });
  for (const a of legal) {
    const { hole, kind } = actionHole(a);
    if (a === x) continue;
    if (kind === "cw" && hole === x) {
      choices.push({ action: a, label: t("choro.sow_cw", { hole: x }), hint: t("choro.hint.sow_cw", { hole: x }), key: "C" });
      parts.push(t("choro.part.cw_capture"));
    } else if (kind === "cw") {
      const label = x ? t("choro.leave_sow_cw", { hole: x, other: hole }) : t("choro.sow_cw", { hole });
      const hint = x ? t("choro.hint.leave_sow_cw", { hole: x, other: hole }) : t("choro.hint.sow_cw", { hole });
      choices.push({ action: a, label, hint, key: "L" });
      parts.push(x ? t("choro.part.leave", { hole: x, other: hole }) : t("choro.part.sow_cw", { hole }));
    } else if (kind === "hole") {
      others.push(a);
    }
  }
  if (others.length) {
    for (const a of others) choices.push({ action: a, label: t("choro.sow_instead", { hole: a }), hint: t("choro.hint.sow_instead", { hole: a }), key: null, other: true });
    parts.push(t("choro.part.other"));
  }
  let text;
  const or = t("choro.or");
  if (x) {
    text = parts.length ? t("choro.next_lap_or", { hole: x, choices: parts.join(or) }) : t("choro.next_lap", { hole: x });
  } else {
    text = t("choro.how_on", { choices: parts.join(or) });
  }
  return { hole: x, text, choices };
}

/** directionHint says a suggested Choro mid-turn action in words. */
export function directionHint(legal, pending, action) {
  const { choices } = directionChoices(legal, pending);
  const c = choices.find((x) => x.action === action);
  return c ? c.hint : action;
}
