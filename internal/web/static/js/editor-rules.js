// The board editor's choice of rules: a preset (GET /api/rulesets) and its
// options, each a list of the values the server gives (values, or the
// whole numbers min..max), written as a ruleset "name key=value …" (RULES.md
// §3) with the options that differ from the preset's defaults. Whether the
// ruleset is valid is the engine's to say (the page checks it).

import { optionWords as choroWords } from "./choro.js";
import { h } from "./ui.js";
import { has, t } from "./i18n.js";

/**
 * words returns an option's label and its values' words from the catalog,
 * as the new-game form has them (Choro's own, home.opt.<key>.…); the key and
 * the value themselves where the catalog has none.
 */
function words(game, key) {
  const choro = game === "choro" ? choroWords(key) : null;
  if (choro) return { label: choro.label, value: (v) => choro.values[v] || v };
  const k = `home.opt.${key}`;
  return {
    label: has(`${k}.label`) ? t(`${k}.label`) : key,
    value: (v) => (has(`${k}.${v}`) ? t(`${k}.${v}`) : v),
  };
}

/** splitRuleset reads "name key=value …" into {name, opts}, without judging it. */
export function splitRuleset(text) {
  const [name = "", ...rest] = String(text || "").trim().split(/\s+/);
  const opts = {};
  for (const kv of rest) {
    const [k, v] = kv.split("=");
    if (k && v !== undefined) opts[k] = v;
  }
  return { name, opts };
}

/** optionValues lists the values an option of the server's presets may take. */
function optionValues(o) {
  if (o.values && o.values.length) return o.values;
  if (o.max !== undefined) {
    const out = [];
    for (let i = o.min || 0; i <= o.max; i++) out.push(String(i));
    return out;
  }
  return [String(o.default)];
}

/**
 * RulesPicker draws a preset select and the option selects into box.
 * onChange(ruleset) is called when the player changes any of them.
 */
export class RulesPicker {
  constructor(box, presets, onChange) {
    this.box = box;
    this.presets = presets;
    this.onChange = onChange;
    this.preset = presets[0];
    this.values = {};
  }

  /** text returns the ruleset chosen: the preset and its changed options. */
  text() {
    if (!this.preset) return "";
    const parts = [this.preset.ruleset];
    for (const o of this.preset.options || []) {
      const v = this.values[o.key];
      if (v !== undefined && v !== String(o.default)) parts.push(`${o.key}=${v}`);
    }
    return parts.join(" ");
  }

  /** game returns the game of the chosen preset ("tsoro", "choro", …). */
  game() {
    return this.preset ? this.preset.game : "";
  }

  /**
   * select shows the ruleset text: its preset and option values, where the
   * presets have them. It returns false when the text names no preset (the
   * picker then keeps its choice, and the engine says what is wrong).
   */
  select(text) {
    const { name, opts } = splitRuleset(text);
    const p = this.presets.find((x) => x.ruleset === name);
    if (!p) return false;
    this.preset = p;
    this.values = {};
    for (const o of p.options || []) this.values[o.key] = opts[o.key] !== undefined ? opts[o.key] : String(o.default);
    this.draw();
    return true;
  }

  draw() {
    this.box.textContent = "";
    const game = h("select", { id: "e-game", onchange: (e) => {
      this.select(e.target.value);
      this.onChange(this.text());
    } });
    for (const p of this.presets) game.appendChild(h("option", { value: p.ruleset, selected: p === this.preset }, p.title || p.ruleset));
    this.box.appendChild(h("div", { class: "option" }, h("label", { for: "e-game" }, t("editor.game")), game));
    for (const o of this.preset.options || []) {
      const values = optionValues(o);
      const cur = this.values[o.key];
      const sel = h("select", { id: `e-opt-${o.key}`, "data-key": o.key, disabled: values.length < 2, onchange: (e) => {
        this.values[o.key] = e.target.value;
        this.onChange(this.text());
      } });
      const w = words(this.preset.game, o.key);
      if (!values.includes(cur)) sel.appendChild(h("option", { value: cur, selected: true }, cur));
      for (const v of values) sel.appendChild(h("option", { value: v, selected: v === cur }, w.value(v)));
      this.box.appendChild(h("div", { class: "option" }, h("label", { for: `e-opt-${o.key}` }, w.label, " ", h("code", { class: "small muted" }, o.key)), sel));
    }
  }
}
