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

// randomClick plays one random legal action with the mouse: a prompt's
// button or a highlighted hole. It never sows clockwise, so that the tests
// below reach those choices by their own clicks.
func (s *session) randomClick(ctx context.Context, rng *rand.Rand) {
	buttons := js[[]string](s, ctx, `[...document.querySelectorAll("#prompt.active button[data-action]")].map(b => b.dataset.action)`)
	buttons = slices.DeleteFunc(buttons, func(a string) bool { return strings.HasSuffix(a, "cw") })
	if len(buttons) > 0 {
		s.run(ctx, clickChoice(buttons[rng.IntN(len(buttons))]))
		return
	}
	holes := s.legalHoles(ctx)
	if len(holes) == 0 {
		s.t.Fatal("the page offers neither a button nor a hole, yet says the viewer may act")
	}
	s.run(ctx, clickHole(holes[rng.IntN(len(holes))]))
	// A hole that may be sown either way asks which: take anticlockwise.
	if js[bool](s, ctx, `!!document.querySelector("#prompt.active button[data-action$='cw']")`) {
		plain := js[string](s, ctx, `document.querySelector("#prompt.active button:not([data-action$='cw'])").dataset.action`)
		s.run(ctx, clickChoice(plain))
	}
}

// actionsPlayed lists every action of a game so far, from the server.
func (s *session) actionsPlayed(id string) []string {
	var v gameView
	s.api("GET", "/api/games/"+id, "", nil, &v)
	return slices.Concat(v.Turns...)
}

// waitAct waits until the viewer may act or the game is over, and says which.
func (s *session) waitAct(ctx context.Context) string {
	s.waitJS(ctx, gameState+` !== "wait"`, 10*time.Second)
	return js[string](s, ctx, gameState)
}

// choroClockwise plays Choro on one device by clicks until it has sown
// clockwise with the mouse both at the start of a turn (the hole's own
// prompt) and in mid-turn (the direction prompt).
func choroClockwise(s *session) {
	t := s.t
	ctx := s.tab("choro", desktopW, desktopH)
	rng := rand.New(rand.NewPCG(5, 6))
	done := map[bool]bool{} // by mid-turn
	for game := 0; game < 8; game++ {
		id := s.newGame(ctx, "choro", nil, "local", "", "")
		s.run(ctx, setSpeed("instant"))
		for i := 0; i < 400; i++ {
			if s.waitAct(ctx) == "over" {
				break
			}
			var v gameView
			s.api("GET", "/api/games/"+id, "", nil, &v)
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
			s.waitAct(ctx)
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
		if s.waitAct(ctx) == "over" {
			break
		}
		var v gameView
		s.api("GET", "/api/games/"+id, "", nil, &v)
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
