package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// created is the server's answer to POST /api/games.
type created struct {
	ID     string            `json:"id"`
	Token  string            `json:"token"`
	Tokens map[string]string `json:"tokens"`
	URL    string            `json:"url"`
}

// playLocal stores a game of two players on one device, played through the
// API with the first legal action each time, for at most n actions.
func (s *session) playLocal(ruleset string, n int) (string, gameView) {
	s.t.Helper()
	var c created
	if code := s.api("POST", "/api/games", "", map[string]any{"ruleset": ruleset, "opponent": "local"}, &c); code != 201 {
		s.t.Fatalf("create a local game: status %d", code)
	}
	var v gameView
	s.api("GET", "/api/games/"+c.ID, "", nil, &v)
	for i := 0; i < n && v.Status == "playing"; i++ {
		var res struct {
			Game gameView `json:"game"`
		}
		body := map[string]any{"action": v.Legal[0], "ply": v.Ply}
		if code := s.api("POST", "/api/games/"+c.ID+"/actions", c.Tokens[v.ToMove], body, &res); code != 200 {
			s.t.Fatalf("action %s: status %d", v.Legal[0], code)
		}
		v = res.Game
	}
	return c.ID, v
}

// boardCounts reads every hole's count from the board's aria-labels.
func (s *session) boardCounts(ctx context.Context, board string) map[string]int {
	labels := js[[]string](s, ctx, `[...document.querySelectorAll("`+board+` g.hole")].map(g => g.getAttribute("aria-label"))`)
	out := map[string]int{}
	for _, l := range labels {
		parts := strings.Split(l, ", ")
		if len(parts) < 2 {
			s.t.Fatalf("aria-label %q", l)
		}
		n, err := strconv.Atoi(strings.Fields(parts[1])[0])
		if err != nil {
			s.t.Fatalf("aria-label %q: %v", l, err)
		}
		out[parts[0]] = n
	}
	return out
}

// sameBoard checks the page's counts against the server's rows.
func (s *session) sameBoard(got map[string]int, rows map[string][]int) {
	s.t.Helper()
	n := 0
	for row, counts := range rows {
		for i, c := range counts {
			h := row + strconv.Itoa(i+1)
			n++
			if got[h] != c {
				s.t.Errorf("hole %s shows %d stones, the server has %d", h, got[h], c)
			}
		}
	}
	if n != len(got) || n == 0 {
		s.t.Errorf("the page shows %d holes, the server %d", len(got), n)
	}
}

// replayAndArchive replays a stored game step by step, shares a ply by URL,
// lists it in the archive, and imports its record again.
func replayAndArchive(s *session) {
	t := s.t
	id, final := s.playLocal("tsoro size=6 heads=none bonus=3", 10)
	var rep struct {
		Actions []struct {
			Action string `json:"action"`
		} `json:"actions"`
	}
	s.api("GET", "/api/games/"+id+"/replay", "", nil, &rep)
	n := len(rep.Actions)
	if n < 5 {
		t.Fatalf("the stored game has only %d actions", n)
	}
	ctx := s.tab("replay", desktopW, desktopH)
	s.run(ctx, chromedp.Navigate(s.base+"/replay/"+id))
	total := fmt.Sprintf(" / %d", n)
	s.waitJS(ctx, `document.querySelector("#player output") && document.querySelector("#player output").textContent === "0`+total+`"`, 10*time.Second)
	if js[bool](s, ctx, `document.querySelector("#play-link").getAttribute("aria-disabled") === "true"`) {
		t.Error("the replay's start offers no Play from here")
	}
	s.run(ctx, setSpeed("fast"), chromedp.Click(chromedp.CSS(`button[aria-label="Next action"]`)))
	s.waitJS(ctx, `document.querySelector("#player output").textContent === "1`+total+`"`, 5*time.Second)
	s.waitJS(ctx, `document.querySelector("#moves td.last") && document.querySelector("#moves td.last").textContent.startsWith("`+rep.Actions[0].Action+`")`, 5*time.Second)
	s.waitJS(ctx, `location.search === "?ply=1"`, 5*time.Second)
	// Jump to the end: the board is the server's final board.
	s.run(ctx, chromedp.Click(chromedp.CSS(`button[aria-label="Last position"]`)))
	s.waitJS(ctx, `document.querySelector("#player output").textContent === "`+strconv.Itoa(n)+total+`"`, 5*time.Second)
	s.sameBoard(s.boardCounts(ctx, "#player"), final.Board.Rows)
	// The slider, then a shared link to ply 3.
	s.run(ctx, runJS(`(() => { const r = document.querySelector("#player input[type=range]"); r.value = "2"; r.dispatchEvent(new Event("input")); })()`))
	s.waitJS(ctx, `document.querySelector("#player output").textContent === "2`+total+`"`, 5*time.Second)
	s.run(ctx, chromedp.Navigate(s.base+"/replay/"+id+"?ply=3"))
	s.waitJS(ctx, `document.querySelector("#player output") && document.querySelector("#player output").textContent === "3`+total+`"`, 10*time.Second)
	// Play runs to the end by itself.
	s.run(ctx, setSpeed("instant"), chromedp.Click(chromedp.CSS(`button[aria-label="Play"]`)))
	s.waitJS(ctx, `document.querySelector("#player output").textContent === "`+strconv.Itoa(n)+total+`"`, 20*time.Second)
	s.noDesync(ctx, "replay")
	s.shot(ctx, "desktop-replay")

	// The position of the end, shareable by URL.
	q := url.Values{"ruleset": {"tsoro size=6 heads=none bonus=3"}, "pos": {final.Position}}
	s.run(ctx, chromedp.Navigate(s.base+"/position?"+q.Encode()))
	s.waitJS(ctx, `document.querySelector("#board svg") && document.querySelector("#to-move").textContent !== ""`, 10*time.Second)
	s.sameBoard(s.boardCounts(ctx, "#board"), final.Board.Rows)

	// Play from here: the home page shows that position in place of the
	// choice of game, and the game starts from it.
	s.run(ctx, chromedp.Click(chromedp.CSS("#play-link")))
	s.waitJS(ctx, `location.pathname === "/" && !document.querySelector("#from-box").classList.contains("hidden") && document.querySelector("#from-preview svg")`, 10*time.Second)
	s.sameBoard(s.boardCounts(ctx, "#from-preview"), final.Board.Rows)
	if side := s.text(ctx, `input[name="side"][value="N"] + span b`); side != "I play North" {
		t.Errorf("from a position, the side choice reads %q", side)
	}
	s.shot(ctx, "desktop-play-from-position")
	s.run(ctx, chromedp.Click(chromedp.CSS(`input[name="opponent"][value="local"] + span`)), chromedp.Click(chromedp.ID("#start")))
	s.waitJS(ctx, `location.pathname.startsWith("/game/") && document.querySelector("#board svg")`, 15*time.Second)
	var from gameView
	s.api("GET", "/api/games/"+js[string](s, ctx, `location.pathname.split("/")[2]`), "", nil, &from)
	if from.Ply != 0 || from.Status != "playing" {
		t.Fatalf("the game from a position: ply %d, %s", from.Ply, from.Status)
	}
	s.sameBoard(s.boardCounts(ctx, "#board"), from.Board.Rows)
	s.sameBoard(s.boardCounts(ctx, "#board"), final.Board.Rows)

	// The archive lists the game; its record imports as a new game.
	s.run(ctx, chromedp.Navigate(s.base+"/archive"))
	s.waitJS(ctx, `document.querySelector('#games a[href="/replay/`+id+`"]')`, 10*time.Second)
	var record string
	if code := s.api("GET", "/api/games/"+id+"/record", "", nil, &record); code != 200 || !strings.Contains(record, "[Ruleset") {
		t.Fatalf("record: status %d: %q", code, record)
	}
	s.run(ctx, chromedp.SetValue(chromedp.CSS("#record"), record), chromedp.Click(chromedp.CSS(`#import button[type="submit"]`)))
	s.waitJS(ctx, `document.querySelector("#import-done a")`, 10*time.Second)
	s.shot(ctx, "desktop-archive")
	s.run(ctx, chromedp.Click(chromedp.CSS("#import-done a")))
	s.waitJS(ctx, `location.pathname !== "/replay/`+id+`" && location.pathname.startsWith("/replay/") && document.querySelector("#player output") && document.querySelector("#player output").textContent === "0`+total+`"`, 10*time.Second)
	// The import keeps the record's headers: the original game's Site.
	if h := s.text(ctx, "#headers"); !strings.Contains(h, "Site: matombo "+id) {
		t.Errorf("the imported game's replay shows the headers %q", h)
	}
	// Its game page says that nobody plays it here, and where to go on.
	imported := js[string](s, ctx, `location.pathname.split("/")[2]`)
	s.run(ctx, chromedp.Navigate(s.base+"/game/"+imported))
	s.waitJS(ctx, `document.querySelector("#prompt a") !== null`, 10*time.Second)
	if p, badge := s.text(ctx, "#prompt"), s.text(ctx, "#mode"); !strings.Contains(p, "nobody plays it here") || badge != "imported record" {
		t.Errorf("an unfinished imported record's game page says %q, badge %q", p, badge)
	}
	// A bad record is refused with the server's reason.
	s.run(ctx, chromedp.Navigate(s.base+"/archive"), chromedp.WaitVisible(chromedp.CSS("#record")))
	s.run(ctx, chromedp.SetValue(chromedp.CSS("#record"), "[Ruleset \"tsoro size=6\"]\n[Result \"*\"]\n\n1. a1 zz9"),
		chromedp.Click(chromedp.CSS(`#import button[type="submit"]`)))
	s.waitJS(ctx, `document.querySelector("#import-error").textContent.length > 0`, 10*time.Second)
}

// darkMode asks the page for prefers-color-scheme: dark.
func darkMode(on bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		p := emulation.SetEmulatedMediaParams{}
		if on {
			p.Features = []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}
		}
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, p)
		return err
	})
}

// pages takes a screenshot of every page on a phone and on a desktop.
func pages(s *session) {
	replayID, _ := s.playLocal("nsolo size=8", 12)
	var big created
	if code := s.api("POST", "/api/games", "", map[string]any{"ruleset": "nsolo size=36", "opponent": "ai", "level": 1, "side": "S"}, &big); code != 201 {
		s.t.Fatalf("create an nsolo 36 game: status %d", code)
	}
	var choro created
	if code := s.api("POST", "/api/games", "", map[string]any{"ruleset": "choro", "opponent": "ai", "level": 1, "side": "S"}, &choro); code != 201 {
		s.t.Fatalf("create a choro game: status %d", code)
	}
	board := `document.querySelector("#board svg g.hole")`
	list := []struct {
		name, path, ready string
		phone             bool // also on a phone (every page is shot on a desktop)
	}{
		{"home", "/", `document.querySelector('input[name="game"]') && !document.querySelector("#playing").textContent.includes("Loading")`, true},
		{"game-choro", choro.URL, board + ` && document.querySelector("#prompt.active")`, true},
		{"game-nsolo36", big.URL, board + ` && document.querySelector("#prompt.active")`, true},
		{"replay", "/replay/" + replayID + "?ply=7", `document.querySelector("#player output") && document.querySelector("#player output").textContent.startsWith("7 /")`, true},
		{"archive", "/archive", `document.querySelector("#games tbody a")`, true},
		{"rules-tsoro", "/rules/tsoro", `document.querySelector("#demo-board svg g.hole")`, true},
		{"rules-nsolo", "/rules/nsolo", `document.querySelector("#demo-board svg g.hole")`, false},
		{"rules-choro", "/rules/choro", `document.querySelector("#demo-board svg g.hole")`, false},
	}
	for _, vp := range []struct {
		name string
		w, h int
	}{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		ctx := s.tab(vp.name, vp.w, vp.h)
		for _, p := range list {
			if vp.name == "phone" && !p.phone {
				continue
			}
			t0 := time.Now()
			s.run(ctx, chromedp.Navigate(s.base+p.path))
			s.waitJS(ctx, p.ready, 10*time.Second)
			if vp.name == "phone" {
				// Nothing may stick out sideways but the board's own scroller.
				wide := js[bool](s, ctx, `document.documentElement.scrollWidth > window.innerWidth + 1`)
				if wide {
					s.t.Errorf("%s on a phone: the page is wider than the screen", p.name)
				}
			}
			t1 := time.Now()
			s.shot(ctx, vp.name+"-"+p.name)
			s.t.Logf("%s %s: load %v, shot %v", vp.name, p.name, t1.Sub(t0).Round(time.Millisecond), time.Since(t1).Round(time.Millisecond))
		}
		if vp.name == "desktop" {
			// The Choro board in dark mode.
			s.run(ctx, darkMode(true), chromedp.Navigate(s.base+choro.URL))
			s.waitJS(ctx, list[1].ready, 10*time.Second)
			s.shot(ctx, vp.name+"-game-choro-dark")
			s.run(ctx, darkMode(false))
		}
	}
}
