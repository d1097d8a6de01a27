// The texts of the board editor, by key, with {name} placeholders and
// plurals by count.

const TEXTS = {
  "editor.badge.invalid": "not valid",
  "editor.badge.over": "game over",
  "editor.badge.valid": "{side} to move",
  "editor.board": "Board editor: tap a hole to change it",
  "editor.counts": "South holds {south} stones, North {north}.",
  "editor.game": "Game",
  "editor.head": "head",
  "editor.invalid.network": "Cannot check the position:",
  "editor.invalid.position": "Not a valid position:",
  "editor.invalid.ruleset": "Not a valid ruleset:",
  "editor.legal": "{side} may play: {actions}.",
  "editor.over": "Valid, but the game is over here: {result} ({reason}).",
  "editor.over.draw": "a draw",
  "editor.over.noplay": "A game cannot start from it.",
  "editor.over.wins": "{side} wins",
  "editor.stones": { one: "{count} stone", other: "{count} stones" },
  "editor.valid": "Valid position.",
};

/** t returns the text of key with its placeholders filled. */
export function t(key, params = {}) {
  let text = TEXTS[key];
  if (text === undefined) return key;
  if (typeof text === "object") text = params.count === 1 ? text.one : text.other;
  return text.replace(/\{(\w+)\}/g, (m, name) => (params[name] !== undefined ? String(params[name]) : m));
}
