// Choro's options and decisions in plain words (RULES.md §3.4): the
// new-game form's labels for opening, cw and leave, and the choices of a
// mid-turn decision (the pending hole anticlockwise or clockwise, the leave
// switch, other holes). The legal actions and the hole the decision is
// about (pending_hole) always come from the server's view; this module only
// names them.

import { actionHole } from "./geom.js";

/** OPTION_WORDS labels Choro's options in the new-game form, Driberg's readings first. */
export const OPTION_WORDS = {
  opening: {
    label: "Opening",
    help: "How the first turn is played. At the same time (Driberg): both choose an outer hole without seeing the other's, then both openings are sown together. One after the other (the Digital Ludeme Project): South opens, then North.",
    values: {
      simultaneous: "at the same time (Driberg)",
      sequential: "one after the other (DLP)",
    },
  },
  cw: {
    label: "Clockwise",
    help: "When a special hole may sow clockwise (always only to capture). Driberg: to start a turn, and again after a capture; a turn that began clockwise may go on clockwise, otherwise once. DLP: any lap from a special hole that would capture.",
    values: {
      first: "Driberg: after captures, mainly in a turn begun clockwise",
      any: "DLP: any lap that would capture",
    },
  },
  leave: {
    label: "Leave the stones",
    help: "Driberg: after a clockwise capture you may leave the captured stones and sow your other special hole clockwise instead; then any hole of yours may be sown instead. The DLP has no such choice.",
    values: { yes: "yes (Driberg)", no: "no (DLP)" },
  },
};

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
  if (x) choices.push({ action: x, label: `Sow ${x} anticlockwise`, key: "Enter" });
  for (const a of legal) {
    const { hole, kind } = actionHole(a);
    if (a === x) continue;
    if (kind === "cw" && hole === x) {
      choices.push({ action: a, label: `Sow ${x} clockwise`, key: "C" });
      parts.push("clockwise to capture");
    } else if (kind === "cw") {
      const label = x ? `Leave the stones in ${x}, sow ${hole} clockwise` : `Sow ${hole} clockwise`;
      choices.push({ action: a, label, key: "L" });
      parts.push(x ? `leave the stones in ${x} and sow ${hole} clockwise` : `sow ${hole} clockwise`);
    } else if (kind === "hole") {
      others.push(a);
    }
  }
  if (others.length) {
    for (const a of others) choices.push({ action: a, label: `Sow ${a} instead`, key: null, other: true });
    parts.push("sow another hole of yours anticlockwise instead");
  }
  let text;
  if (x) {
    text = `The next lap starts from ${x}. Sow ${x} anticlockwise`;
    text += parts.length ? `, or ${parts.join(", or ")}?` : ".";
  } else {
    text = `Choose how the turn goes on: ${parts.join(", or ")}.`;
  }
  return { hole: x, text, choices };
}

/** directionHint says a suggested Choro mid-turn action in words. */
export function directionHint(legal, pending, action) {
  const { choices } = directionChoices(legal, pending);
  const c = choices.find((x) => x.action === action);
  return c ? c.label.replace(/^./, (ch) => ch.toLowerCase()) : action;
}
