package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"matombo/mancala"
	"matombo/puzzles"
)

// puzzleWithReplies returns a shipped puzzle whose main line has the
// engine answer at least once before the win, so that the page shows a
// reply and a second move of the player.
func puzzleWithReplies(t *testing.T, preset string) puzzles.Puzzle {
	t.Helper()
	st, err := puzzles.Load(preset)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range st.Puzzles {
		if len(p.Line) >= 3 && len(p.Line) <= 12 {
			return p
		}
	}
	t.Fatalf("no %s puzzle with a main line of 3 to 12 actions", preset)
	return puzzles.Puzzle{}
}

// TestPuzzlesBrowser solves a puzzle on a phone by clicking its main line,
// the engine answering on the server, and fails another with a wrong first
// move: the rating kept in the browser rises, then falls, the solved
// puzzle's live rating shows the result, and the page links to the
// analysis board.
func TestPuzzlesBrowser(t *testing.T) {
	s := newSession(t)
	ctx := s.tab("puzzles", 360, 740)
	p := puzzleWithReplies(t, "nsolo")
	s.run(ctx, chromedp.Navigate(s.base+"/puzzles?preset=nsolo&id="+p.ID))
	s.waitJS(ctx, `document.body.dataset.puzzle === "`+p.ID+`" && document.body.dataset.turn === "you"`, 20*time.Second)
	for i := 0; i < 40; i++ {
		status := js[string](s, ctx, `document.body.dataset.status`)
		if status != "playing" {
			break
		}
		plies := js[string](s, ctx, `document.body.dataset.plies`)
		n, err := strconv.Atoi(plies)
		if err != nil || n >= len(p.Line) {
			t.Fatalf("%s: %s actions played, the main line has %d", p.ID, plies, len(p.Line))
		}
		s.clickAction(ctx, p.Line[n])
		s.waitJS(ctx, `document.body.dataset.plies !== "`+plies+`" && (document.body.dataset.turn === "you" || document.body.dataset.status !== "playing")`, 20*time.Second)
	}
	s.waitJS(ctx, `document.body.dataset.status === "solved" && document.querySelector("#prompt.solved")`, 10*time.Second)
	s.waitJS(ctx, `document.querySelector("#analysis-link")`, 10*time.Second)
	if got := js[string](s, ctx, `document.body.dataset.plies`); got != strconv.Itoa(len(p.Line)) {
		t.Errorf("solved after %s actions, the main line has %d", got, len(p.Line))
	}
	href := js[string](s, ctx, `document.querySelector("#analysis-link").getAttribute("href")`)
	if !strings.HasPrefix(href, "/analysis?") || !strings.Contains(href, "pos=") || !strings.Contains(href, "ruleset=nsolo") {
		t.Errorf("the analysis link is %q", href)
	}
	s.waitJS(ctx, `JSON.parse(localStorage.getItem("matombo.puzzles.rating") || "null")`, 10*time.Second)
	after := js[float64](s, ctx, `JSON.parse(localStorage.getItem("matombo.puzzles.rating")).rating`)
	if after <= 1500 {
		t.Errorf("the rating after a solved puzzle is %v, want above 1500 (unrated)", after)
	}
	// The solve lowered the puzzle's live rating from its shipped one,
	// which the page shows with the result counted.
	s.waitJS(ctx, `document.querySelector("#puzzle-rating").textContent.includes("1 try")`, 10*time.Second)
	if txt := s.text(ctx, "#puzzle-rating"); strings.Contains(txt, strconv.Itoa(p.Rating)+" ") {
		t.Errorf("the puzzle's rating after a solve is %q, still its shipped %d", txt, p.Rating)
	}
	s.noDesync(ctx, "the solved puzzle")
	s.shot(ctx, "puzzles-solved-360")

	// A wrong first move fails at once, shows the solution, and costs rating.
	q := puzzleWithReplies(t, "misoro-tsoro")
	s.run(ctx, chromedp.Navigate(s.base+"/puzzles?preset=misoro-tsoro&id="+q.ID), darkMode(true))
	s.waitJS(ctx, `document.body.dataset.puzzle === "`+q.ID+`" && document.body.dataset.turn === "you"`, 20*time.Second)
	wrong := ""
	legal := js[[]string](s, ctx, `[...document.querySelectorAll("#board g.hole.legal")].map(g => g.dataset.hole)`)
	for _, h := range legal {
		if a, err := mancala.ParseAction(q.Action); err == nil && a.Hole().String() != h {
			wrong = h
			break
		}
	}
	if wrong == "" {
		t.Fatalf("%s: no legal hole other than the solution's %s among %v", q.ID, q.Action, legal)
	}
	s.clickAction(ctx, wrong)
	s.waitJS(ctx, `document.body.dataset.status === "failed" && document.querySelector("#prompt.failed")`, 20*time.Second)
	if txt := s.text(ctx, "#prompt"); !strings.Contains(txt, q.Action) {
		t.Errorf("the failure says %q, without the winning %s", txt, q.Action)
	}
	s.waitJS(ctx, fmt.Sprintf(`JSON.parse(localStorage.getItem("matombo.puzzles.rating")).rating < %v`, after), 10*time.Second)
	if txt := s.text(ctx, "#themes"); !strings.Contains(txt, strings.Join(q.Line, " ")) {
		t.Errorf("the solution shown is %q, want the main line %v", txt, q.Line)
	}
	s.noDesync(ctx, "the failed puzzle")
	s.shot(ctx, "puzzles-failed-360-dark")
	s.run(ctx, darkMode(false))

	// On a desktop: the board beside the rating card.
	desk := s.tab("puzzles-desktop", 1280, 900)
	s.run(desk, chromedp.Navigate(s.base+"/puzzles?preset=tsoro"))
	s.waitJS(desk, `document.body.dataset.puzzle && document.body.dataset.turn === "you"`, 20*time.Second)
	s.shot(desk, "puzzles-desktop")
}

// clickAction plays action on the puzzle page as a player would: its
// button in the prompt when there is one, else its hole, then the button
// the hole opens when the hole offers more than one action.
func (s *session) clickAction(ctx context.Context, action string) {
	s.t.Helper()
	sel := fmt.Sprintf(`#prompt.active button[data-action=%q]`, action)
	if s.tryClick(ctx, sel) {
		return
	}
	a, err := mancala.ParseAction(action)
	if err != nil || a.Kind() == mancala.KindStop {
		s.t.Fatalf("no button for %s", action)
	}
	if !s.tryClick(ctx, fmt.Sprintf(`#board g.hole.legal[data-hole=%q]`, a.Hole().String())) {
		s.t.Fatalf("hole %s of %s is not a legal hole on the board", a.Hole(), action)
	}
	if js[bool](s, ctx, `document.body.dataset.turn === "you" && !!document.querySelector("#prompt.active button[data-action]")`) {
		s.tryClick(ctx, sel)
	}
}
