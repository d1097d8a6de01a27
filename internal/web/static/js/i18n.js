// i18n formats the page's texts from the message catalog the server embeds
// in every page (<script type="application/json" id="i18n">, see
// internal/i18n): t("game.resign"), t("game.stones", { count: 3 }).
// A message is a text or an object of plural forms; {name} placeholders
// are filled from vars, and vars.count chooses the plural form by the
// language's rule (the same table as internal/i18n/plural.go).

const oneIsOne = (n) => (n === 1 ? "one" : "other");
const zeroAndOne = (n) => (n === 0 || n === 1 ? "one" : "other");
const rules = { en: oneIsOne, fr: zeroAndOne, pt: zeroAndOne, sw: oneIsOne, sn: oneIsOne, ny: oneIsOne };

function embedded() {
  const el = typeof document !== "undefined" ? document.getElementById("i18n") : null;
  if (!el) return { lang: "en", messages: {} };
  try {
    return JSON.parse(el.textContent);
  } catch {
    return { lang: "en", messages: {} };
  }
}

const catalog = embedded();

/** lang is the tag of the language the page is shown in. */
export const lang = catalog.lang || "en";

/** plural returns the plural category of the whole number n in the page's language. */
export function plural(n) {
  return (rules[lang] || oneIsOne)(Math.abs(Math.trunc(n)));
}

/**
 * t formats the message key with vars. A key the catalog lacks comes back
 * as itself, so that it shows (the tests fail on it).
 */
export function t(key, vars = {}) {
  const m = catalog.messages[key];
  if (m === undefined) return key;
  let text = m;
  if (typeof m === "object") {
    text = "count" in vars ? (m[plural(Number(vars.count))] ?? m.other) : (m.other ?? m.one);
  }
  return text.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (all, name) => (name in vars ? String(vars[name]) : all));
}

/** has reports whether the catalog has the message key. */
export function has(key) {
  return key in catalog.messages;
}
