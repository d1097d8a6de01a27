package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// clickChoice clicks the prompt's button for action.
func clickChoice(action string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(fmt.Sprintf(`#prompt.active button[data-action=%q]`, action)))
}

// tryClick clicks the element of the CSS selector sel if the page shows it
// now, and reports whether it did.
func (s *session) tryClick(ctx context.Context, sel string) bool {
	return js[bool](s, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false;
		e.dispatchEvent(new MouseEvent("click", {bubbles: true})); return true; })()`, sel))
}

// randomClick plays one random legal action with the mouse: a prompt's
// button or a highlighted hole, then waits until the page shows the next
// ply. It never sows clockwise, so that the tests below reach those
// choices by their own clicks. What it read may be gone by the time it
// clicks (the page was still showing the last action): it then clicks
// nothing, and the caller's loop looks again.
func (s *session) randomClick(ctx context.Context, rng *rand.Rand) {
	ply := js[int](s, ctx, `Number(document.body.dataset.ply || 0)`)
	buttons := js[[]string](s, ctx, `[...document.querySelectorAll("#prompt.active button[data-action]")].map(b => b.dataset.action)`)
	buttons = slices.DeleteFunc(buttons, func(a string) bool { return strings.HasSuffix(a, "cw") })
	holes := s.legalHoles(ctx)
	switch {
	case js[string](s, ctx, gameState) == "pass":
		// Choro's simultaneous opening on one device: North takes the device.
		s.tryClick(ctx, "#pass-ready")
		return
	case len(buttons) > 0:
		if !s.tryClick(ctx, fmt.Sprintf(`#prompt.active button[data-action=%q]`, buttons[rng.IntN(len(buttons))])) {
			return
		}
	case len(holes) > 0:
		if !s.tryClick(ctx, fmt.Sprintf(`#board g.hole.legal[data-hole=%q]`, holes[rng.IntN(len(holes))])) {
			return
		}
		// A hole that may be sown either way asks which, at once: take
		// anticlockwise. (A hole of one action asked nothing: the prompt is
		// still the one without buttons until the server answers.)
		if js[bool](s, ctx, `!!document.querySelector("#prompt.active button[data-action$='cw']")`) {
			s.tryClick(ctx, `#prompt.active button[data-action]:not([data-action$='cw'])`)
		}
	default:
		return
	}
	s.waitJS(ctx, fmt.Sprintf(`Number(document.body.dataset.ply || 0) > %d || %s === "over"`, ply, gameState), 10*time.Second)
}

// actionsPlayed lists every action of a game so far, from the server.
func (s *session) actionsPlayed(id string) []string {
	var v gameView
	s.api("GET", "/api/games/"+id, "", nil, &v)
	return slices.Concat(v.Turns...)
}

// synced reads game id from the server and waits until the page shows the
// same ply and lets the viewer act (or shows the end).
func (s *session) synced(ctx context.Context, id string) gameView {
	var v gameView
	s.api("GET", "/api/games/"+id, "", nil, &v)
	s.waitJS(ctx, fmt.Sprintf(`Number(document.body.dataset.ply || 0) === %d && %s !== "wait"`, v.Ply, gameState), 10*time.Second)
	return v
}

// choroClockwise plays Choro under the DLP's reading on one device by clicks
// until it has sown clockwise with the mouse both at the start of a turn
// (the hole's own prompt) and in mid-turn (the direction prompt).
func choroClockwise(s *session) {
	t := s.t
	ctx := s.tab("choro", desktopW, desktopH)
	rng := rand.New(rand.NewPCG(5, 6))
	done := map[bool]bool{} // by mid-turn
	for game := 0; game < 8; game++ {
		// The DLP's reading: clockwise whenever it captures, openings one after the other.
		id := s.newGame(ctx, "choro", map[string]string{"opening": "sequential", "cw": "any", "leave": "no"}, "local", "", "")
		if rs := s.text(ctx, "#ruleset"); rs != "choro opening=sequential cw=any leave=no" {
			t.Fatalf("the form made the ruleset %q", rs)
		}
		s.run(ctx, setSpeed("instant"))
		for i := 0; i < 400; i++ {
			v := s.synced(ctx, id)
			if v.Status == "over" {
				break
			}
			cw := slices.IndexFunc(v.Legal, func(a string) bool { return strings.HasSuffix(a, "cw") })
			midTurn := v.Decision == "direction"
			if cw < 0 || done[midTurn] {
				s.randomClick(ctx, rng)
				continue
			}
			action := v.Legal[cw]
			hole := strings.TrimSuffix(action, "cw")
			prompt := s.text(ctx, "#prompt")
			if midTurn {
				if !strings.Contains(prompt, "The next lap starts from "+hole) {
					t.Fatalf("the direction prompt says %q", prompt)
				}
			} else {
				// At the start of a turn the hole itself is clicked, and asks.
				s.run(ctx, clickHole(hole))
				s.waitJS(ctx, `!!document.querySelector("#prompt.active button[data-action$='cw']")`, 5*time.Second)
				if prompt = s.text(ctx, "#prompt"); !strings.Contains(prompt, "Sow "+hole+" anticlockwise, or clockwise") {
					t.Fatalf("the prompt after clicking %s says %q", hole, prompt)
				}
			}
			s.shot(ctx, map[bool]string{true: "desktop-choro-direction", false: "desktop-choro-clockwise"}[midTurn])
			before := len(s.actionsPlayed(id))
			s.run(ctx, clickChoice(action))
			deadline := time.Now().Add(5 * time.Second)
			for {
				played := s.actionsPlayed(id)
				if len(played) > before {
					if played[before] != action {
						t.Fatalf("clicked Clockwise for %s, the server recorded %s", action, played[before])
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the server did not record %s", action)
				}
				time.Sleep(30 * time.Millisecond)
			}
			s.synced(ctx, id)
			s.noDesync(ctx, "choro clockwise")
			t.Logf("game %s: sowed %s clockwise (%s), action %d", id, hole, map[bool]string{true: "mid-turn", false: "turn start"}[midTurn], before+1)
			if done[midTurn] = true; done[!midTurn] {
				return
			}
		}
	}
	t.Fatalf("in eight games of Choro, clockwise sowing was taken at a turn's start: %v, in mid-turn: %v", done[false], done[true])
}

// nsoloRemoval plays Nsolo on one device by clicks until a capture, then
// removes the opponent's stones one click at a time and checks that each
// click took exactly one stone and was recorded as x<hole>.
func nsoloRemoval(s *session) {
	t := s.t
	ctx := s.tab("nsolo", phoneW, phoneH)
	rng := rand.New(rand.NewPCG(7, 8))
	id := s.newGame(ctx, "nsolo", nil, "local", "", "")
	s.run(ctx, setSpeed("instant"))
	removed := 0
	for i := 0; i < 400; i++ {
		v := s.synced(ctx, id)
		if v.Status == "over" {
			break
		}
		if v.Decision != "remove" {
			if removed > 0 {
				t.Logf("game %s: removed %d stones by clicks", id, removed)
				return
			}
			s.randomClick(ctx, rng)
			continue
		}
		if prompt := s.text(ctx, "#prompt"); !strings.Contains(prompt, "remove stones") {
			t.Fatalf("the removal prompt says %q", prompt)
		}
		if removed == 0 {
			s.shot(ctx, "phone-nsolo-removal")
		}
		holes := s.legalHoles(ctx)
		want := make([]string, len(v.Legal))
		for i, a := range v.Legal {
			want[i] = strings.TrimPrefix(a, "x")
		}
		slices.Sort(holes)
		slices.Sort(want)
		if !slices.Equal(holes, want) {
			t.Fatalf("the board highlights %v for removal, the server allows %v", holes, v.Legal)
		}
		hole := holes[rng.IntN(len(holes))]
		north := hole[0] >= 'c' // rows c and d are North's
		stones := func(v gameView) int {
			n := 0
			for r, row := range v.Board.Rows {
				if (r[0] >= 'c') == north {
					for _, k := range row {
						n += k
					}
				}
			}
			return n
		}
		before, count := stones(v), len(slices.Concat(v.Turns...))
		s.run(ctx, clickHole(hole))
		deadline := time.Now().Add(5 * time.Second)
		for {
			var after gameView
			s.api("GET", "/api/games/"+id, "", nil, &after)
			played := slices.Concat(after.Turns...)
			if len(played) > count {
				if played[count] != "x"+hole {
					t.Fatalf("clicked %s to remove, the server recorded %s", hole, played[count])
				}
				if got := stones(after); got != before-1 {
					t.Fatalf("removing from %s took %d stones from that side, want 1", hole, before-got)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the server did not record the removal from %s", hole)
			}
			time.Sleep(30 * time.Millisecond)
		}
		removed++
		s.noDesync(ctx, "nsolo removal")
	}
	t.Fatalf("no capture with a removal in game %s (%d removals)", id, removed)
}
