// The import box's retry under another reading: a record the server refuses
// with a suggested ruleset (the error's suggest_ruleset, such as an old
// Choro record that plays only as the DLP reading) gets a one-click
// "Import as the DLP reading" button that sends it again under that ruleset.

import { h } from "./ui.js";
import { t } from "./i18n.js";

/** DLP_CHORO is Choro's reading by the Digital Ludeme Project (RULES.md §3.4). */
export const DLP_CHORO = "choro opening=sequential cw=any leave=no";

/** importPath is the import's address, under ruleset when given. */
export function importPath(ruleset = "") {
  return ruleset ? `/api/records?${new URLSearchParams({ ruleset })}` : "/api/records";
}

/**
 * offerReading adds to box, under the error's message, a button that
 * retries the import under the ruleset the server suggests, if it suggests
 * one; it reports whether it did. retry(ruleset) runs on the click.
 */
export function offerReading(box, err, retry) {
  const rs = err && err.suggestRuleset;
  if (!rs) return false;
  const label = rs === DLP_CHORO ? t("archive.import.as_dlp") : t("archive.import.as", { ruleset: rs });
  const btn = h("button", { type: "button", class: "btn small primary", id: "import-as", "data-ruleset": rs, title: t("archive.import.as_title", { ruleset: rs }), onclick: () => {
    btn.disabled = true;
    retry(rs);
  } }, label);
  box.append(h("br"), btn);
  return true;
}
