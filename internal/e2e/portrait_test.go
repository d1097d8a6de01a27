package e2e

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// screen is a browser window the board is checked on.
type screen struct {
	name  string
	w, h  int
	phone bool // held upright: the board is drawn turned, holes of 44 px or more
}

// boardCase is a game whose board is checked.
type boardCase struct {
	name string
	game string
	opts map[string]string
}

// TestPortrait checks the board on two phones held upright and on a
// desktop, for boards of 6, 21 and 36 holes a row: the layout, no sideways
// scrolling of the page, every legal hole reachable and big enough to tap,
// a real tap playing its hole on the server, and the hole being sown kept
// in view while our lap and the AI's answer are animated.
func TestPortrait(t *testing.T) {
	s := newSession(t)
	screens := []screen{{"phone360", 360, 740, true}, {"phone390", 390, 844, true}, {"desktop1280", 1280, 900, false}}
	boards := []boardCase{
		{"4x6", "tsoro", map[string]string{"size": "6", "heads": "none", "bonus": "3"}},
		{"4x21", "tsoro", map[string]string{"size": "21"}},
		{"4x36", "nsolo", map[string]string{"size": "36"}},
		// Choro's simultaneous opening: both hands sow at once (lockstep).
		{"choro", "choro", nil},
	}
	for _, sc := range screens {
		for _, b := range boards {
			t.Run(sc.name+"/"+b.name, func(t *testing.T) { portraitBoard(s.with(t), sc, b) })
		}
	}
}

// holeCheck is what the page measures of one legal hole after scrolling to it.
type holeCheck struct {
	Hole   string  `json:"hole"`
	W      float64 `json:"w"`      // the hole's tap target (its group's box), CSS px
	H      float64 `json:"h"`      //
	Pit    float64 `json:"pit"`    // the drawn hole's diameter, CSS px
	Inside bool    `json:"inside"` // the box is inside the viewport and the board's visible box
	Hit    string  `json:"hit"`    // the hole a tap at the box's centre lands on
	X      float64 `json:"x"`      // the box's centre
	Y      float64 `json:"y"`
}

// checkHoles scrolls to each hole in turn, as the browser does for a tap
// target, and measures it.
const checkHoles = `((holes) => holes.map((hole) => {
  const g = document.querySelector('#board g.hole[data-hole="' + hole + '"]');
  g.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  const r = g.getBoundingClientRect();
  const box = document.querySelector("#board").getBoundingClientRect();
  const left = Math.max(0, box.left), right = Math.min(innerWidth, box.right);
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  const at = document.elementFromPoint(x, y);
  const hit = at && at.closest("g.hole");
  return {
    hole, w: r.width, h: r.height, x, y,
    pit: g.querySelector("circle.pit").getBoundingClientRect().width,
    inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= left && r.right <= right,
    hit: hit ? hit.dataset.hole : "",
  };
}))`

// followSampler records, every 15 ms, where the holes being sown are drawn
// (two in Choro's simultaneous opening).
const followSampler = `(() => {
  const s = window.__follow = { samples: 0, sowing: 0, north: 0, outside: [], ys: [], xs: [] };
  s.timer = setInterval(() => {
    s.samples++;
    const gs = [...document.querySelectorAll("#board g.hole.sowing")];
    if (!gs.length) return;
    s.sowing++;
    if (gs.some((g) => "cd".includes(g.dataset.hole[0]))) s.north++; // the AI sows its own rows
    const box = document.querySelector("#board").getBoundingClientRect();
    const left = Math.max(0, box.left), right = Math.min(innerWidth, box.right);
    const y = Math.round(scrollY), x = Math.round(document.querySelector("#board").scrollLeft);
    if (!s.ys.includes(y)) s.ys.push(y);
    if (!s.xs.includes(x)) s.xs.push(x);
    for (const g of gs) {
      const r = g.getBoundingClientRect();
      if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < left - 0.5 || r.right > right + 0.5) {
        s.outside.push(g.dataset.hole + " at " + Math.round(r.left) + "," + Math.round(r.top));
      }
    }
  }, 15);
})()`

// followReport is what the sampler saw.
type followReport struct {
	Samples int      `json:"samples"`
	Sowing  int      `json:"sowing"`
	North   int      `json:"north"`
	Outside []string `json:"outside"`
	Ys      []int    `json:"ys"`
	Xs      []int    `json:"xs"`
}

func portraitBoard(s *session, sc screen, b boardCase) {
	t := s.t
	ctx := s.tab(sc.name+"-"+b.name, sc.w, sc.h)
	id := s.newGame(ctx, b.game, b.opts, "ai", "1", "S")
	s.run(ctx, setSpeed("normal"))
	s.waitJS(ctx, gameState+` === "act"`, 15*time.Second)

	layout := js[string](s, ctx, `document.querySelector("#board svg").dataset.layout`)
	if want := map[bool]string{true: "portrait", false: "landscape"}[sc.phone]; layout != want {
		t.Fatalf("%s: the board is drawn %s, want %s", sc.name, layout, want)
	}
	noSideways := func(when string) {
		t.Helper()
		sw := js[[]int](s, ctx, `[document.scrollingElement.scrollWidth, innerWidth]`)
		if sw[0] > sw[1] {
			t.Errorf("%s: the page scrolls sideways: scrollWidth %d > innerWidth %d", when, sw[0], sw[1])
		}
	}
	noSideways("at the start")

	legal := s.legalHoles(ctx)
	if len(legal) == 0 {
		t.Fatal("no legal hole at the start")
	}
	checks := js[[]holeCheck](s, ctx, checkHoles+"("+mustJSON(legal)+")")
	minW, minPit, maxPit := 1e9, 1e9, 0.0
	for _, c := range checks {
		if !c.Inside {
			t.Errorf("hole %s is not inside the viewport after scrolling to it (box %.0f×%.0f at %.0f,%.0f)", c.Hole, c.W, c.H, c.X, c.Y)
		}
		if c.Hit != c.Hole {
			t.Errorf("a tap at the centre of %s lands on %q", c.Hole, c.Hit)
		}
		if sc.phone && (c.W < 44 || c.H < 44) {
			t.Errorf("hole %s is %.1f×%.1f px, want at least 44×44", c.Hole, c.W, c.H)
		}
		minW = min(minW, c.W, c.H)
		minPit = min(minPit, c.Pit)
		maxPit = max(maxPit, c.Pit)
	}
	boardPx := js[[]float64](s, ctx, `(() => { const r = document.querySelector("#board svg").getBoundingClientRect(); return [r.width, r.height]; })()`)
	t.Logf("%s %s (%s): %d legal holes, tap targets ≥ %.1f px, holes %.1f–%.1f px across, board %.0f×%.0f px",
		sc.name, b.name, layout, len(checks), minW, minPit, maxPit, boardPx[0], boardPx[1])
	s.run(ctx, runJS(`scrollTo(0, 0)`))
	s.shot(ctx, "board-"+sc.name+"-"+b.name)

	// Arrow keys follow the drawn layout: along South's outer row a1 → a2 is
	// up in portrait (column 1 at the bottom), right in landscape.
	along, back := kb.ArrowRight, kb.ArrowLeft
	if sc.phone {
		along, back = kb.ArrowUp, kb.ArrowDown
	}
	focused := func() string { return js[string](s, ctx, `document.activeElement.dataset.hole || ""`) }
	if slices.Contains(legal, "a1") && slices.Contains(legal, "a2") {
		s.run(ctx, runJS(`document.querySelector('#board g.hole[data-hole="a1"]').focus()`), chromedp.KeyEvent(along))
		if got := focused(); got != "a2" {
			t.Errorf("%s: the arrow along the row from a1 moved to %q, want a2", layout, got)
		}
		s.run(ctx, chromedp.KeyEvent(back))
		if got := focused(); got != "a1" {
			t.Errorf("%s: the arrow back from a2 moved to %q, want a1", layout, got)
		}
	} else {
		t.Errorf("a1 and a2 are not both legal at the start: %v", legal)
	}

	// Tap the legal hole farthest along the row (the far end of a long board).
	target := checks[0]
	for _, c := range checks {
		if col(c.Hole) > col(target.Hole) {
			target = c
		}
	}
	c := js[[]holeCheck](s, ctx, checkHoles+"("+mustJSON([]string{target.Hole})+")")[0]
	s.run(ctx, runJS(followSampler))
	s.tap(ctx, sc, c)
	deadline := time.Now().Add(slack * 10 * time.Second)
	for {
		var v gameView
		s.api("GET", "/api/games/"+id, "", nil, &v)
		if played := slices.Concat(v.Turns...); len(played) > 0 {
			if played[0] != target.Hole {
				t.Fatalf("tapped %s, the server recorded %s", target.Hole, played[0])
			}
			t.Logf("tapped %s at (%.0f, %.0f): the server's ply is %d", target.Hole, c.X, c.Y, v.Ply)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a tap on %s at (%.0f, %.0f) played nothing", target.Hole, c.X, c.Y)
		}
		time.Sleep(30 * time.Millisecond)
	}
	// A capture asks for more (Nsolo's removals): tap on until the AI has answered.
	for deadline := time.Now().Add(slack * 20 * time.Second); ; {
		var v gameView
		s.api("GET", "/api/games/"+id, "", nil, &v)
		if len(v.Turns) >= 2 || v.Status == "over" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the AI did not answer; the server is at ply %d", v.Ply)
		}
		if js[string](s, ctx, gameState) == "act" && !js[bool](s, ctx, `!!document.body.dataset.animating`) {
			if holes := s.legalHoles(ctx); len(holes) > 0 {
				c := js[[]holeCheck](s, ctx, checkHoles+"("+mustJSON(holes[:1])+")")[0]
				s.tap(ctx, sc, c)
				time.Sleep(100 * time.Millisecond)
			}
		}
		time.Sleep(30 * time.Millisecond)
	}
	// The AI answers; wait until its move is drawn and it is our turn again.
	s.waitJS(ctx, `(`+gameState+` === "act" || `+gameState+` === "over") && !document.body.dataset.animating && document.querySelectorAll("#moves tbody tr").length >= 1 && [...document.querySelectorAll("#moves td")].filter(td => td.textContent.trim()).length >= 2`, 40*time.Second)
	s.run(ctx, runJS(`clearInterval(window.__follow.timer)`))
	f := js[followReport](s, ctx, `window.__follow`)
	if f.Sowing < 5 {
		t.Errorf("only %d of %d samples saw a hole being sown", f.Sowing, f.Samples)
	}
	if f.North < 3 {
		t.Errorf("only %d samples saw the AI's lap (a hole of rows c and d being sown)", f.North)
	}
	if len(f.Outside) > 0 {
		t.Errorf("the hole being sown was out of view in %d of %d samples: %v", len(f.Outside), f.Sowing, f.Outside[:min(len(f.Outside), 8)])
	}
	t.Logf("animation: %d samples, %d with a hole being sown (%d of them the AI's), all in view: %v; page scrolled to %d places (y %v), board sideways to %d",
		f.Samples, f.Sowing, f.North, len(f.Outside) == 0, len(f.Ys), f.Ys[:min(len(f.Ys), 6)], len(f.Xs))
	if b.game == "choro" {
		if n := s.lockstepSteps(ctx); n == 0 {
			t.Error("Choro's opening was not sown in lockstep")
		} else {
			t.Logf("Choro's opening: %d lockstep steps drawn, both hands in view", n)
		}
	}
	noSideways("after the AI's move")
	s.noDesync(ctx, sc.name+" "+b.name)
	s.shot(ctx, "board-"+sc.name+"-"+b.name+"-after")

	if !sc.phone {
		return
	}
	// Turned sideways the phone gets today's board, and upright again the
	// turned one, with the same holes, counts and highlights.
	labels := `[...document.querySelectorAll("#board g.hole")].map(g => g.getAttribute("aria-label")).join("|")`
	before := js[string](s, ctx, labels)
	s.run(ctx, chromedp.EmulateViewport(int64(sc.h), int64(sc.w), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateLandscape))
	s.waitJS(ctx, `document.querySelector("#board svg").dataset.layout === "landscape"`, 5*time.Second)
	if got := js[string](s, ctx, labels); got != before {
		t.Errorf("turned sideways, the holes read %q, upright %q", got, before)
	}
	s.shot(ctx, "board-"+sc.name+"-"+b.name+"-sideways")
	s.run(ctx, chromedp.EmulateViewport(int64(sc.w), int64(sc.h), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	s.waitJS(ctx, `document.querySelector("#board svg").dataset.layout === "portrait"`, 5*time.Second)
	if got := js[string](s, ctx, labels); got != before {
		t.Errorf("upright again, the holes read %q, before %q", got, before)
	}
}

// tap taps a measured hole at its centre: a touch on a phone, a click on a desktop.
func (s *session) tap(ctx context.Context, sc screen, c holeCheck) {
	s.t.Helper()
	if !c.Inside || c.Hit != c.Hole {
		s.t.Fatalf("hole %s cannot be tapped: inside the view %v, a tap lands on %q", c.Hole, c.Inside, c.Hit)
	}
	if sc.phone {
		s.run(ctx, chromedp.TapXY(c.X, c.Y))
	} else {
		s.run(ctx, chromedp.MouseClickXY(c.X, c.Y))
	}
}

// col returns a hole's column number ("a12" -> 12), 0 for a bad name.
func col(hole string) int {
	if len(hole) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(hole[1:])
	return n
}
