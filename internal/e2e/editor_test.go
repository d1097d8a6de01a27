package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestEditor sets up a position in the board editor on a phone, by taps
// and keys: an invalid one first, which shows the engine's own reason;
// then a valid one, which the address keeps (a link reopens it), links to
// the analysis board, and plays: a game against the computer starts from
// it and a move is played there. Choro's opening flag is checked by the
// engine too.
func TestEditor(t *testing.T) {
	s := newSession(t)
	t.Run("SetUpAndPlay", func(t *testing.T) { editorSetUpAndPlay(s.with(t)) })
	t.Run("ChoroOpening", func(t *testing.T) { editorChoroOpening(s.with(t)) })
	t.Run("NotationLinks", func(t *testing.T) { notationLinks(s.with(t)) })
}

// editorSettled waits until the engine's verdict is about the position shown.
func (s *session) editorSettled(ctx context.Context) {
	s.t.Helper()
	s.waitJS(ctx, `document.body.dataset.ready && !document.body.dataset.checking && document.body.dataset.checked === document.querySelector("#e-pos").value`, 10*time.Second)
}

// notWider fails when the page sticks out sideways on a phone (only the
// board's own scroller may).
func (s *session) notWider(ctx context.Context, name string) {
	s.t.Helper()
	if js[bool](s, ctx, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
		s.t.Errorf("%s on a phone: the page is wider than the screen", name)
	}
}

// editorTap taps a hole of the editor's board.
func (s *session) editorTap(ctx context.Context, holes ...string) {
	s.t.Helper()
	for _, h := range holes {
		s.run(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board g.hole[data-hole=%q]`, h))))
	}
}

// positionCheck is the answer of GET /api/position/check.
type positionCheck struct {
	Valid bool   `json:"valid"`
	Field string `json:"field"`
	Error string `json:"error"`
}

func (s *session) checkPosition(ruleset, pos string) positionCheck {
	s.t.Helper()
	var c positionCheck
	s.api("GET", "/api/position/check?"+url.Values{"ruleset": {ruleset}, "pos": {pos}}.Encode(), "", nil, &c)
	return c
}

func editorSetUpAndPlay(s *session) {
	t := s.t
	ctx := s.tab("editor", 360, 740)
	s.run(ctx, chromedp.Navigate(s.base+"/editor?ruleset="+url.QueryEscape("tsoro size=6")))
	s.editorSettled(ctx)
	start := "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* S"
	if got := js[string](s, ctx, `document.querySelector("#e-pos").value`); got != start {
		t.Fatalf("the editor opens tsoro size=6 at %q, want its start %q", got, start)
	}
	if layout := js[string](s, ctx, `document.querySelector("#board svg").dataset.layout`); layout != "portrait" {
		t.Errorf("on a phone held upright the editor's board is drawn %s", layout)
	}
	s.notWider(ctx, "the editor")

	// An empty board has none of the ruleset's heads: the engine says so,
	// in its own words, and nothing can be played or analysed.
	s.run(ctx, chromedp.Click(chromedp.CSS("#e-empty")))
	s.editorSettled(ctx)
	empty := "0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 S"
	if got := js[string](s, ctx, `document.querySelector("#e-pos").value`); got != empty {
		t.Fatalf("the empty board is %q, want %q", got, empty)
	}
	want := s.checkPosition("tsoro size=6", empty)
	if want.Valid || !strings.Contains(want.Error, "heads marked are not those") {
		t.Fatalf("the engine's verdict on the empty board: %+v", want)
	}
	if got := s.text(ctx, "#e-reason"); got != want.Error {
		t.Errorf("the editor shows %q, the engine says %q", got, want.Error)
	}
	if js[string](s, ctx, `document.body.dataset.valid`) != "no" || !js[bool](s, ctx, `document.querySelector("#e-play").disabled`) ||
		js[string](s, ctx, `document.querySelector("#e-analyse").getAttribute("aria-disabled")`) != "true" {
		t.Error("an invalid position can still be played or analysed")
	}
	s.shot(ctx, "editor-invalid-phone")

	// Set it up: the heads, stones by taps (two on a3, one on a4) and by
	// keys (2 on d4, + on d3), North's d5 set to 3 with the count tool.
	s.run(ctx, chromedp.Click(chromedp.CSS(`[data-tool="head"]`)))
	s.editorTap(ctx, "a5", "a6", "d1", "d2")
	s.run(ctx, chromedp.Click(chromedp.CSS(`[data-tool="add"]`)))
	s.editorTap(ctx, "a3", "a3", "a4")
	s.run(ctx, runJS(`document.querySelector('#board g.hole[data-hole="d4"]').focus()`), chromedp.KeyEvent("2"))
	s.run(ctx, runJS(`document.querySelector('#board g.hole[data-hole="d3"]').focus()`), chromedp.KeyEvent("+"))
	s.run(ctx, chromedp.SetValue(chromedp.CSS("#e-n"), "3"), chromedp.Click(chromedp.CSS(`[data-tool="set"]`)))
	s.editorTap(ctx, "d5")
	s.editorSettled(ctx)
	pos := "0*,0*,1,2,3,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,2,1,0*,0* S"
	if got := js[string](s, ctx, `document.querySelector("#e-pos").value`); got != pos {
		t.Fatalf("the editor set up %q, want %q", got, pos)
	}
	if v := js[string](s, ctx, `document.body.dataset.valid`); v != "yes" {
		t.Fatalf("the position is not valid to the editor: %s", s.text(ctx, "#verdict"))
	}
	if got := s.text(ctx, "#e-badge"); got != "South to move" {
		t.Errorf("badge %q", got)
	}
	if label := js[string](s, ctx, `document.querySelector('#board g.hole[data-hole="a5"]').getAttribute("aria-label")`); label != "a5, 0 stones, head" {
		t.Errorf("the hole a5 is named %q", label)
	}
	analyse := js[string](s, ctx, `document.querySelector("#e-analyse").getAttribute("href")`)
	if u, err := url.Parse(analyse); err != nil || u.Path != "/analysis" || u.Query().Get("ruleset") != "tsoro size=6" || u.Query().Get("pos") != pos {
		t.Errorf("the analyse link is %q", analyse)
	}
	s.shot(ctx, "editor-valid-phone")

	// Shared by its address: a desktop opens the same position.
	link := js[string](s, ctx, `location.href`)
	desk := s.tab("editor-desk", desktopW, desktopH)
	s.run(desk, chromedp.Navigate(link))
	s.editorSettled(desk)
	if got := js[string](s, desk, `document.querySelector("#e-pos").value`); got != pos || js[string](s, desk, `document.body.dataset.valid`) != "yes" {
		t.Fatalf("the link %s opens %q", link, got)
	}
	if got := js[string](s, desk, `document.querySelector("#e-game").value + " " + document.querySelector("#e-opt-size").value`); got != "tsoro 6" {
		t.Errorf("the link opens the rules %q", got)
	}
	s.shot(desk, "editor-valid-desktop")

	// Play it against the computer, as South: the game starts there.
	s.run(ctx, runJS(`(() => { const l = document.querySelector("#e-level"); l.value = "1"; l.dispatchEvent(new Event("change")); })()`))
	s.run(ctx, chromedp.Click(chromedp.CSS("#e-play")))
	s.waitJS(ctx, `location.pathname.startsWith("/game/") && document.querySelector("#board svg")`, 15*time.Second)
	id := js[string](s, ctx, `location.pathname.split("/")[2]`)
	var v gameView
	s.api("GET", "/api/games/"+id, "", nil, &v)
	if v.Ruleset != "tsoro size=6" || v.Position != pos || !strings.Contains(v.Record, `[Position "`+pos+`"]`) {
		t.Fatalf("the game from the editor: ruleset %q, position %q, record %q", v.Ruleset, v.Position, v.Record)
	}
	s.waitJS(ctx, gameState+` === "act"`, 10*time.Second)
	if holes := strings.Join(s.legalHoles(ctx), " "); holes != "a3" {
		t.Fatalf("South's legal holes in the game: %q, want a3", holes)
	}
	s.run(ctx, setSpeed("instant"), clickHole("a3"))
	s.waitJS(ctx, `document.querySelectorAll("#moves td").length > 0 && [...document.querySelectorAll("#moves td")].some(td => td.textContent.trim() === "a3")`, 15*time.Second)
	s.api("GET", "/api/games/"+id, "", nil, &v)
	if len(v.Turns) == 0 || strings.Join(v.Turns[0], ",") != "a3" {
		t.Errorf("the game's turns after a3: %v", v.Turns)
	}
}

// editorChoroOpening: Choro's opening flag is offered and judged by the
// engine: with the simultaneous opening, "N opening" is refused with its
// reason; with the sequential opening it is valid.
func editorChoroOpening(s *session) {
	t := s.t
	ctx := s.tab("editor-choro", desktopW, desktopH)
	s.run(ctx, chromedp.Navigate(s.base+"/editor?ruleset=choro"))
	s.editorSettled(ctx)
	if !js[bool](s, ctx, `!document.querySelector("#opening-box").classList.contains("hidden") && document.querySelector("#e-opening").checked`) {
		t.Fatal("the Choro start has no opening flag checked")
	}
	if n := js[int](s, ctx, `document.querySelectorAll("#board .special-mark:not(.hidden)").length`); n != 4 {
		t.Errorf("%d special holes marked, want 4", n)
	}
	// By keyboard alone: Tab from the tools reaches the board, an arrow
	// moves along it, Enter applies the tool (add a stone).
	s.run(ctx, runJS(`document.querySelector('[data-tool="head"]').focus()`), chromedp.KeyEvent(kb.Tab))
	if f := js[string](s, ctx, `document.activeElement.dataset.hole || ""`); f != "d1" {
		t.Fatalf("Tab after the tools focuses %q, want the hole d1", f)
	}
	s.run(ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter))
	s.editorSettled(ctx)
	if got := js[string](s, ctx, `document.querySelector("#e-pos").value`); !strings.HasPrefix(got, "2,3,2,") {
		t.Fatalf("ArrowRight and Enter from d1 should add a stone to d2; the position is %q", got)
	}
	s.run(ctx, chromedp.KeyEvent("-"))
	s.run(ctx, chromedp.Click(chromedp.CSS("#e-side-N")))
	s.editorSettled(ctx)
	pos := js[string](s, ctx, `document.querySelector("#e-pos").value`)
	if !strings.HasPrefix(pos, "2,2,2,") {
		t.Fatalf("the key - on d2 should take the stone back; the position is %q", pos)
	}
	if !strings.HasSuffix(pos, " N opening") || js[string](s, ctx, `document.body.dataset.valid`) != "no" {
		t.Fatalf("North to move before the simultaneous opening: %q valid %s", pos, js[string](s, ctx, `document.body.dataset.valid`))
	}
	want := s.checkPosition("choro", pos)
	if got := s.text(ctx, "#e-reason"); got != want.Error || !strings.Contains(got, "opening=simultaneous") {
		t.Errorf("the editor shows %q, the engine says %q", got, want.Error)
	}
	// The sequential opening: South has opened, North has not.
	s.run(ctx, chromedp.SetValue(chromedp.CSS("#e-opt-opening"), "sequential"),
		runJS(`document.querySelector("#e-opt-opening").dispatchEvent(new Event("change"))`))
	s.waitJS(ctx, `document.querySelector("#ruleset").textContent === "choro opening=sequential"`, 10*time.Second)
	s.editorSettled(ctx)
	if got := js[string](s, ctx, `document.querySelector("#e-pos").value`); got != pos || js[string](s, ctx, `document.body.dataset.valid`) != "yes" {
		t.Errorf("under opening=sequential %q is valid to the engine; the editor shows %q: %s", pos, got, s.text(ctx, "#verdict"))
	}
	if !strings.Contains(js[string](s, ctx, `location.search`), "sequential") {
		t.Error("the address does not keep the ruleset")
	}
	s.shot(ctx, "editor-choro-desktop")
}

// notationLinks: the notation page draws its examples, and is linked from
// the move lists and the archive's import box.
func notationLinks(s *session) {
	t := s.t
	ctx := s.tab("notation", 360, 740)
	s.run(ctx, chromedp.Navigate(s.base+"/notation"))
	s.waitJS(ctx, `document.body.dataset.ready`, 15*time.Second)
	if n := js[int](s, ctx, `[...document.querySelectorAll("figure.example, figure.position")].filter(f => f.dataset.shown && f.dataset.shown !== "refused" && f.querySelector("svg")).length`); n != js[int](s, ctx, `document.querySelectorAll("figure.example, figure.position").length`) || n < 5 {
		t.Errorf("only %d examples drawn", n)
	}
	s.run(ctx, chromedp.Click(chromedp.CSS(`#ex-b2-picks [data-show="after"]`)))
	s.waitJS(ctx, `document.querySelector("#ex-b2-picks").dataset.shown === "after"`, 10*time.Second)
	if got := s.text(ctx, "#ex-b2-picks .ex-pos code"); got != js[string](s, ctx, `document.querySelector("#ex-b2-picks").dataset.after`) {
		t.Errorf("after b2,xd4,xc7 the page shows %q", got)
	}
	s.notWider(ctx, "the notation page")
	s.shot(ctx, "notation-phone")
	// Every size: Nsolo's 4x36 in the editor, upright, with its long verdict.
	s.run(ctx, chromedp.Navigate(s.base+"/editor?ruleset="+url.QueryEscape("nsolo size=36")))
	s.editorSettled(ctx)
	if n := js[int](s, ctx, `document.querySelectorAll("#board g.hole").length`); n != 4*36 || js[string](s, ctx, `document.body.dataset.valid`) != "yes" {
		t.Errorf("the nsolo size=36 editor draws %d holes, valid %s", n, js[string](s, ctx, `document.body.dataset.valid`))
	}
	s.notWider(ctx, "the editor of nsolo size=36")
	s.shot(ctx, "editor-nsolo36-phone")
	// The position viewer opens its position in the editor.
	pos := "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* N"
	s.run(ctx, chromedp.Navigate(s.base+"/position?"+url.Values{"ruleset": {"tsoro size=6"}, "pos": {pos}}.Encode()))
	s.waitJS(ctx, `document.querySelector("#edit-link")`, 10*time.Second)
	s.run(ctx, runJS(`document.querySelector("#edit-link").click()`))
	s.waitJS(ctx, `location.pathname === "/editor"`, 10*time.Second)
	s.editorSettled(ctx)
	if got := js[string](s, ctx, `document.querySelector("#e-pos").value`); got != pos || js[string](s, ctx, `document.body.dataset.valid`) != "yes" || !js[bool](s, ctx, `document.querySelector("#e-side-N").checked`) {
		t.Errorf("the viewer's edit link opens %q in the editor, want %q with North to move", got, pos)
	}
	s.run(ctx, chromedp.Navigate(s.base+"/archive"))
	s.waitJS(ctx, `document.querySelector('#import-title ~ p a[href="/notation#records"]')`, 10*time.Second)
	id, _ := s.playLocal("tsoro size=6", 2)
	s.run(ctx, chromedp.Navigate(s.base+"/replay/"+id))
	s.waitJS(ctx, `document.querySelector("#moves td") && document.querySelector('#moves + .moves-help a[href="/notation#turns"]')`, 10*time.Second)
}
