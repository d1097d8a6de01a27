package e2e

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestAnalysisBrowser: a finished game reviewed from the replay page, a
// blunder clicked to see the better line; a variation played on the
// analysis board and walked with the arrow keys.
func TestAnalysisBrowser(t *testing.T) {
	s := newSession(t)
	t.Run("ReviewBlunder", func(t *testing.T) { reviewBlunder(s.with(t)) })
	t.Run("BoardVariation", func(t *testing.T) { boardVariation(s.with(t)) })
}

// reviewTurn is a turn of the server's review.
type reviewTurn struct {
	Number    string `json:"number"`
	Actions   string `json:"actions"`
	Best      string `json:"best"`
	PV        string `json:"pv"`
	Judgement string `json:"judgement"`
}

// reviewBlunder imports a finished game, opens its replay on a phone,
// follows "Review this game", waits for the progress bar to end, clicks
// the first blunder in the move list and checks the better turn and line
// shown against the server's review.
func reviewBlunder(s *session) {
	text, err := os.ReadFile("../cli/testdata/replay-tsoro-finished.txt")
	if err != nil {
		s.t.Fatal(err)
	}
	var imp struct{ ID string }
	if code := s.api("POST", "/api/records", "", string(text), &imp); code != 201 {
		s.t.Fatalf("import: status %d", code)
	}
	ctx := s.tab("review", 360, 740)
	s.run(ctx, chromedp.Navigate(s.base+"/replay/"+imp.ID))
	s.waitJS(ctx, `document.querySelector("#review-link:not(.hidden)")`, 10*time.Second)
	s.run(ctx, chromedp.Click(chromedp.CSS("#review-link")))
	s.waitJS(ctx, `document.body.dataset.ready === "1" && document.querySelector("#review-status, .review-counts")`, 20*time.Second)
	s.shot(ctx, "review-running-phone")
	s.waitJS(ctx, `document.querySelector(".tree .mark.blunder")`, 90*time.Second)
	var rev struct {
		Status string       `json:"status"`
		Turns  []reviewTurn `json:"turns"`
	}
	s.api("GET", "/api/games/"+imp.ID+"/review", "", nil, &rev)
	first := -1
	for i, tr := range rev.Turns {
		if tr.Judgement == "blunder" {
			first = i
			break
		}
	}
	if rev.Status != "done" || first < 0 {
		s.t.Fatalf("review %s without a blunder: %+v", rev.Status, rev.Turns)
	}
	// The mark follows the last action of the turn it judges: click that action.
	s.run(ctx, runJS(`document.querySelector(".tree .mark.blunder").previousElementSibling.click()`))
	want := rev.Turns[first]
	s.waitJS(ctx, fmt.Sprintf(`(document.querySelector("#review-best")||{}).textContent === %q`, want.Best), 10*time.Second)
	if got := s.text(ctx, "#review-pv"); got != want.PV {
		s.t.Errorf("better line %q, want %q", got, want.PV)
	}
	if got := s.text(ctx, ".review-turn"); !strings.Contains(got, "blunder") || !strings.Contains(got, want.Number+" "+want.Actions) {
		s.t.Errorf("turn shown %q, want %s %s judged a blunder", got, want.Number, want.Actions)
	}
	if js[bool](s, ctx, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
		s.t.Error("the review on a phone: the page is wider than the screen")
	}
	s.shot(ctx, "review-blunder-phone")
	s.run(ctx, darkMode(true))
	s.shot(ctx, "review-blunder-phone-dark")
	s.run(ctx, darkMode(false))
	// The better line goes onto the board as a variation.
	s.run(ctx, chromedp.Click(chromedp.CSS("#review-play")))
	s.waitJS(ctx, `document.querySelector(".tree .var a[aria-current]")`, 20*time.Second)
	best := strings.Split(strings.Split(want.Best, " ")[0], ",")[0]
	if got := s.text(ctx, ".tree a[aria-current]"); got != best {
		s.t.Errorf("the variation starts at %q, want %q", got, best)
	}
}

// boardVariation plays an action on the analysis board, goes back with the
// left arrow key, plays another (a variation), and walks the tree with the
// arrow keys, checking the position shown and the shared address.
func boardVariation(s *session) {
	ctx := s.tab("analysis", 1366, 900)
	s.run(ctx, chromedp.Navigate(s.base+"/analysis?"+url.Values{"ruleset": {"tsoro size=8"}}.Encode()))
	s.waitJS(ctx, `document.body.dataset.ready === "1"`, 20*time.Second)
	s.waitJS(ctx, `document.querySelectorAll("#top li").length === 3`, 60*time.Second)
	holes := s.legalHoles(ctx)
	if len(holes) < 2 {
		s.t.Fatalf("legal holes %v", holes)
	}
	ply := func() string { return js[string](s, ctx, `document.body.dataset.ply`) }
	key := func(k string) {
		s.run(ctx, runJS(`document.activeElement && document.activeElement.blur()`), chromedp.KeyEvent(k))
	}
	s.run(ctx, clickHole(holes[0]))
	s.waitJS(ctx, `document.body.dataset.ply === "1"`, 10*time.Second)
	key(kb.ArrowLeft)
	s.waitJS(ctx, `document.body.dataset.ply === "0"`, 10*time.Second)
	s.run(ctx, clickHole(holes[1]))
	s.waitJS(ctx, `document.body.dataset.ply === "1" && document.querySelector(".tree .var")`, 10*time.Second)
	if got := s.text(ctx, ".tree a[aria-current]"); got != holes[1] {
		s.t.Fatalf("current action %q, want the variation %s", got, holes[1])
	}
	s.waitJS(ctx, fmt.Sprintf(`location.search.includes("moves=%s")`, holes[1]), 5*time.Second)
	key(kb.ArrowUp) // the main line beside it
	s.waitJS(ctx, fmt.Sprintf(`(document.querySelector(".tree a[aria-current]")||{}).textContent === %q`, holes[0]), 10*time.Second)
	key(kb.ArrowDown)
	s.waitJS(ctx, fmt.Sprintf(`(document.querySelector(".tree a[aria-current]")||{}).textContent === %q`, holes[1]), 10*time.Second)
	key(kb.ArrowLeft)
	s.waitJS(ctx, `document.body.dataset.ply === "0" && !document.querySelector(".tree a[aria-current]")`, 10*time.Second)
	key(kb.ArrowRight) // the main line's first action
	s.waitJS(ctx, fmt.Sprintf(`(document.querySelector(".tree a[aria-current]")||{}).textContent === %q`, holes[0]), 10*time.Second)
	if p := ply(); p != "1" {
		s.t.Errorf("ply %s after the right arrow, want 1", p)
	}
	// The shared address opens the same line.
	shared := js[string](s, ctx, `location.href`)
	other := s.tab("shared", 360, 740)
	s.run(other, chromedp.Navigate(shared))
	s.waitJS(other, fmt.Sprintf(`document.body.dataset.ready === "1" && (document.querySelector(".tree a[aria-current]")||{}).textContent === %q`, holes[0]), 20*time.Second)
	s.waitJS(other, `document.querySelector("#eval-text").textContent.includes("%")`, 60*time.Second)
	if js[bool](s, other, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
		s.t.Error("the analysis board on a phone: the page is wider than the screen")
	}
	s.shot(other, "analysis-phone")
	s.shot(ctx, "analysis-desktop")
}
