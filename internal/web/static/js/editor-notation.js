// The notation page /notation: each worked example's board before and
// after its turn, and each position's board, drawn from the engine's view
// of the position (GET /api/position/check: its board and rule facts),
// with a link that opens the position in the board editor. The examples
// themselves are checked against the engine by internal/web's tests.

import { get } from "./http.js";
import { Board } from "./board.js";
import { t } from "./i18n.js";
import { $ } from "./ui.js";

/** FlatBoard is a Board always drawn across, small enough for a page of examples. */
class FlatBoard extends Board {
  constructor(host, opts) {
    super(host, opts);
    this.portrait = false;
  }

  relayout() {}
}

/** editorLink is the board editor's address for a position. */
const editorLink = (ruleset, pos) => `/editor?${new URLSearchParams({ ruleset, pos })}`;

/** draw shows the engine's view of pos under ruleset on board; it returns false when refused. */
async function draw(board, ruleset, pos) {
  const c = await get(`/api/position/check?${new URLSearchParams({ ruleset, pos })}`);
  if (!c.valid) return false;
  board.setRules(c.view);
  board.set({ size: c.view.size, rows: c.view.board.rows, heads: c.view.board.heads || [] });
  return true;
}

async function example(fig) {
  const { ruleset, before, after, turn } = fig.dataset;
  const board = new FlatBoard($(".ex-board", fig), { label: t("notation.board", { turn }) });
  const posText = $(".ex-pos code", fig);
  const edit = $("[data-edit]", fig);
  const show = async (which) => {
    const pos = which === "after" ? after : before;
    fig.querySelectorAll("[data-show]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.show === which)));
    posText.textContent = pos;
    edit.href = editorLink(ruleset, pos);
    fig.dataset.shown = (await draw(board, ruleset, pos)) ? which : "refused";
  };
  fig.querySelectorAll("[data-show]").forEach((b) => b.addEventListener("click", () => show(b.dataset.show)));
  await show("before");
}

async function position(fig) {
  const { ruleset, position: pos } = fig.dataset;
  const board = new FlatBoard($(".ex-board", fig), { label: t("notation.position_board") });
  $("[data-edit]", fig).href = editorLink(ruleset, pos);
  fig.dataset.shown = (await draw(board, ruleset, pos)) ? "position" : "refused";
}

async function setup() {
  const jobs = [...document.querySelectorAll("figure.example")].map(example);
  jobs.push(...[...document.querySelectorAll("figure.position")].map(position));
  const results = await Promise.allSettled(jobs);
  for (const r of results) if (r.status === "rejected") console.warn("matombo: an example board could not be drawn", r.reason);
  document.body.dataset.ready = "1";
}

setup();
