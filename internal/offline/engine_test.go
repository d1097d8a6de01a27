package offline

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"matombo/mancala"
)

func do(t *testing.T, e *Engine, req string) Answer {
	t.Helper()
	var ans Answer
	if err := json.Unmarshal(e.Handle([]byte(req)), &ans); err != nil {
		t.Fatalf("%s: answer is not JSON: %v", req, err)
	}
	return ans
}

func mustOK(t *testing.T, e *Engine, req string) Answer {
	t.Helper()
	ans := do(t, e, req)
	if !ans.OK || ans.View == nil {
		t.Fatalf("%s: %+v", req, ans)
	}
	return ans
}

// checkView checks a view against the engine's own state: its record
// replays to the same position, and it lists the legal actions when the
// game goes on.
func checkView(t *testing.T, v *View) {
	t.Helper()
	if v.Record == "" {
		return // the computer's opening choice is hidden
	}
	rec, err := mancala.ParseRecord(v.Record)
	if err != nil {
		t.Fatalf("record does not parse: %v\n%s", err, v.Record)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("record does not replay: %v\n%s", err, v.Record)
	}
	if v.Status == "playing" && len(v.Legal) == 0 {
		t.Fatalf("a game in play with no legal actions: %+v", v)
	}
	if v.Status == "over" && (len(v.Legal) != 0 || v.Result == "*") {
		t.Fatalf("a game over with legal actions or no result: %+v", v)
	}
	for _, row := range []string{"a", "b", "c", "d"} {
		if len(v.Board.Rows[row]) != v.Size {
			t.Fatalf("row %s has %d holes, want %d", row, len(v.Board.Rows[row]), v.Size)
		}
	}
}

// TestEveryRulesetEveryLevel plays each preset (and the DLP's Choro) with
// the player's side picking its first legal action and the computer at
// each offline level, up to a number of decisions, both sides for the
// player, checking each view and the record.
func TestEveryRulesetEveryLevel(t *testing.T) {
	rulesets := []string{"tsoro size=6", "tsoro", "misoro-tsoro", "musoro-tsoro", "nsolo", "choro",
		mancala.DLPChoro().String()}
	for _, rs := range rulesets {
		for level := 1; level <= OfflineMaxLevel; level++ {
			human := []string{"S", "N"}[level%2]
			t.Run(fmt.Sprintf("%s/level%d/%s", rs, level, human), func(t *testing.T) {
				var e Engine
				req, _ := json.Marshal(Request{Op: "new", Ruleset: rs, Level: level, Human: human, Seed: uint64(level), Date: "2026.12.01"})
				v := mustOK(t, &e, string(req)).View
				limit := 200
				if level >= 5 {
					limit = 40
				}
				aiDecisions := 0
				for i := 0; i < limit && v.Status == "playing"; i++ {
					checkView(t, v)
					var ans Answer
					if v.Thinking {
						ans = mustOK(t, &e, `{"op":"ai"}`)
						aiDecisions++
					} else {
						ans = mustOK(t, &e, `{"op":"play","action":"`+v.Legal[0]+`"}`)
					}
					if ans.By == "" {
						t.Fatalf("no side in %+v", ans)
					}
					v = ans.View
				}
				checkView(t, v)
				if aiDecisions == 0 {
					t.Fatal("the computer never moved")
				}
				if !strings.Contains(v.Record, `[North "`) || !strings.Contains(v.Record, `[Date "2026.12.01"]`) {
					t.Fatalf("record headers: %s", v.Record)
				}
			})
		}
	}
}

// TestFullGameRecord plays a whole game of tsoro size=6 at level 3 and
// checks that its record replays to the end with the result.
func TestFullGameRecord(t *testing.T) {
	var e Engine
	v := mustOK(t, &e, `{"op":"new","ruleset":"tsoro size=6","level":3,"human":"S","seed":1}`).View
	for i := 0; v.Status == "playing"; i++ {
		if i > 5000 {
			t.Fatal("the game does not end")
		}
		if v.Thinking {
			v = mustOK(t, &e, `{"op":"ai"}`).View
		} else {
			v = mustOK(t, &e, `{"op":"play","action":"`+v.Legal[len(v.Legal)-1]+`"}`).View
		}
	}
	rec, err := mancala.ParseRecord(v.Record)
	if err != nil {
		t.Fatal(err)
	}
	s, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if !s.IsOver() || rec.Result.String() != v.Result || v.Result == "*" {
		t.Fatalf("replay: over %v, result %s, view %s", s.IsOver(), rec.Result, v.Result)
	}
}

// TestSimultaneousOpening: the computer's hidden opening choice is not
// shown to the player, and its reply as North is made without South's.
func TestSimultaneousOpening(t *testing.T) {
	var e Engine
	v := mustOK(t, &e, `{"op":"new","ruleset":"choro","level":2,"human":"N","seed":3}`).View
	if !v.Thinking || v.ToMove != "S" {
		t.Fatalf("South (the computer) should choose first: %+v", v)
	}
	ans := mustOK(t, &e, `{"op":"ai"}`)
	// The answer and the move list must not show the hidden choice.
	if ans.Action != "" || len(ans.View.Turns) != 0 || ans.View.Record != "" {
		t.Fatalf("the hidden choice leaks: action %q turns %v", ans.Action, ans.View.Turns)
	}
	if ans.View.Thinking || ans.View.Decision != "opening" {
		t.Fatalf("North (the player) should choose now: %+v", ans.View)
	}
	ans = mustOK(t, &e, `{"op":"play","action":"`+ans.View.Legal[0]+`"}`)
	if len(ans.View.Turns) != 1 || len(ans.View.Turns[0]) != 2 || len(ans.Events) == 0 {
		t.Fatalf("after both choices: turns %v, %d events", ans.View.Turns, len(ans.Events))
	}
	// The lockstep events: South's laps are South's opening, North's North's.
	sides := map[string]string{"S": ans.View.Turns[0][0], "N": ans.View.Turns[0][1]}
	for _, ev := range ans.Events {
		if ev.Step == 0 || ev.Action != sides[ev.By] {
			t.Errorf("opening event %+v: want a step and the action of %s, %s", ev, ev.By, sides[ev.By])
		}
		if ev.Kind == "sow" && ev.From != "" && (ev.From[0] == 'a' || ev.From[0] == 'b') != (ev.By == "S") {
			t.Errorf("a lap from %s attributed to %s", ev.From, ev.By)
		}
	}

	// As North the computer chooses the same whatever South chose.
	var replies []string
	for _, south := range []string{"a1", "a8"} {
		var e Engine
		v := mustOK(t, &e, `{"op":"new","ruleset":"choro","level":2,"human":"S","seed":3}`).View
		if !strings.Contains(strings.Join(v.Legal, " "), south) {
			t.Fatalf("%s is not legal: %v", south, v.Legal)
		}
		mustOK(t, &e, `{"op":"play","action":"`+south+`"}`)
		ans := mustOK(t, &e, `{"op":"ai"}`)
		replies = append(replies, ans.Action)
	}
	if replies[0] != replies[1] || replies[0] == "" {
		t.Fatalf("North's replies depend on South's hidden choice: %v", replies)
	}
}

func TestBadRequests(t *testing.T) {
	var e Engine
	for req, want := range map[string]string{
		`nonsense`:                    "bad request",
		`{"op":"fly"}`:                `op "fly" does not exist`,
		`{}`:                          "has no op",
		`{"op":"play","action":"a1"}`: "no game yet",
		`{"op":"ai"}`:                 "no game yet",
		`{"op":"view"}`:               "no game yet",
		`{"op":"new","ruleset":"go"}`: "go",
		`{"op":"new","ruleset":"tsoro","level":7}`:             "level 7 cannot be played offline; levels are 1 to 6",
		`{"op":"new","ruleset":"tsoro","level":0}`:             "level 0",
		`{"op":"new","ruleset":"tsoro","level":1,"human":"X"}`: `human "X" is not a side`,
		`{"op":"new","ruleset":"tsoro","level":1,"extra":1}`:   "unknown field",
	} {
		ans := do(t, &e, req)
		if ans.OK || !strings.Contains(ans.Error, want) {
			t.Errorf("%s: %+v, want an error with %q", req, ans, want)
		}
	}
	mustOK(t, &e, `{"op":"new","ruleset":"tsoro size=6","level":1,"human":"N","seed":1}`)
	for req, want := range map[string]string{
		`{"op":"play","action":"a1"}`: "computer's decision",
	} {
		if ans := do(t, &e, req); ans.OK || !strings.Contains(ans.Error, want) {
			t.Errorf("%s: %+v, want %q", req, ans, want)
		}
	}
	for v := mustOK(t, &e, `{"op":"ai"}`).View; v.Thinking; {
		v = mustOK(t, &e, `{"op":"ai"}`).View
	}
	if ans := do(t, &e, `{"op":"play","action":"z9"}`); ans.OK || ans.Error == "" {
		t.Errorf("a bad action was taken: %+v", ans)
	}
	if ans := do(t, &e, `{"op":"ai"}`); ans.OK || !strings.Contains(ans.Error, "your decision") {
		t.Errorf("ai on the player's turn: %+v", ans)
	}
	v := mustOK(t, &e, `{"op":"resign"}`).View
	if v.Status != "over" || v.Result != "S" || v.Reason != "resigned" || !strings.Contains(v.Record, `[Result "S"]`) {
		t.Errorf("after resigning: %+v", v)
	}
	if ans := do(t, &e, `{"op":"play","action":"`+"c1"+`"}`); ans.OK || !strings.Contains(ans.Error, "over") {
		t.Errorf("play after resigning: %+v", ans)
	}
	if p := do(t, &e, `{"op":"presets"}`); !p.OK || len(p.Presets) != 5 {
		t.Errorf("presets: %+v", p)
	}
}
