package web

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"matombo/internal/app"
	"matombo/mancala"
)

// The rules pages show short scenes on a small board, each one turn of a real
// game played by the engine: a relay, a capture and each game's special rule.
// The scenes are found by seeded random games and kept in static/demo/ in the
// server's replay format; this test checks the stored files against the
// engine, and `go test ./internal/web -run TestDemos -update` rewrites them.

var update = flag.Bool("update", false, "rewrite static/demo/*.json from the engine")

// demoEvent and demoStep are the replay format of the web API.
type demoEvent struct {
	Kind      string `json:"kind"`
	From      string `json:"from"`
	To        string `json:"to"`
	Stones    int    `json:"stones"`
	Clockwise bool   `json:"clockwise"`
	Action    string `json:"action"`
	By        string `json:"by"`
	Step      int    `json:"step,omitempty"` // the lockstep step of the simultaneous Choro opening
}

type demoStep struct {
	Action   string      `json:"action"`
	By       string      `json:"by"`
	Events   []demoEvent `json:"events"`
	Position string      `json:"position"`
}

type demoScene struct {
	Key     string     `json:"key"`
	Title   string     `json:"title"`
	Start   string     `json:"start"`
	Actions []demoStep `json:"actions"`
}

// demoFile is a game's scenes with its rule facts, as the replay view has
// them (the board draws the special holes and sows along the loops).
type demoFile struct {
	Ruleset string `json:"ruleset"`
	app.RuleFacts
	Scenes []demoScene `json:"scenes"`
}

// ruleFacts returns the rule facts of ruleset, as the views give them.
func ruleFacts(t *testing.T, ruleset string) app.RuleFacts {
	t.Helper()
	s, err := mancala.NewGame(mancala.MustParseRuleset(ruleset))
	if err != nil {
		t.Fatal(err)
	}
	return app.RuleFactsOf(s)
}

// sceneWant describes a scene: which turns qualify.
type sceneWant struct {
	key, title string
	ok         func(t demoTurn) bool
}

// demoTurn is one whole turn of a random game, with what happened in it.
type demoTurn struct {
	start   string
	steps   []demoStep
	opening bool
}

func (t demoTurn) count(kind string) int {
	n := 0
	for _, s := range t.steps {
		for _, e := range s.Events {
			if e.Kind == kind {
				n++
			}
		}
	}
	return n
}

func (t demoTurn) has(pred func(a string) bool) bool {
	return slices.ContainsFunc(t.steps, func(s demoStep) bool { return pred(s.Action) })
}

func isTake(a string) bool { return len(a) > 1 && a[0] == 'x' }
func isCW(a string) bool   { return len(a) > 2 && a[len(a)-2:] == "cw" }
func isStop(a string) bool { return a == "stop" }
func laps(t demoTurn) int  { return t.count("sow") }

var demoGames = []struct {
	file, ruleset string
	scenes        []sceneWant
}{
	{"tsoro", "tsoro size=8 bonus=2", []sceneWant{
		{"relay", "A relay", func(t demoTurn) bool {
			return laps(t) >= 3 && laps(t) <= 5 && t.count("take") == 0 && !t.has(isStop)
		}},
		{"capture", "A capture and bonus picks", func(t demoTurn) bool {
			return laps(t) >= 2 && laps(t) <= 4 && t.count("take") >= 4 && t.has(isTake)
		}},
		{"head", "Stopping at a head", func(t demoTurn) bool {
			return laps(t) >= 2 && laps(t) <= 4 && t.has(isStop)
		}},
	}},
	{"nsolo", "nsolo size=8", []sceneWant{
		{"relay", "A relay", func(t demoTurn) bool {
			return laps(t) >= 3 && laps(t) <= 5 && t.count("take") == 0
		}},
		{"capture", "A capture, then removing stones", func(t demoTurn) bool {
			return laps(t) >= 2 && laps(t) <= 4 && t.count("take") >= 3 && t.count("take") <= 7
		}},
	}},
	{"choro", "choro", []sceneWant{
		{"opening", "The opening: both at once", func(t demoTurn) bool {
			return t.opening && simultaneous(t) && openingCapture(t) && bothCapture(t) && laps(t) <= 12
		}},
		{"capture", "A capture sown on", func(t demoTurn) bool {
			return !t.opening && t.count("move") >= 1 && laps(t) >= 2 && laps(t) <= 5 && !t.has(isCW)
		}},
		{"clockwise", "Sowing clockwise from a special hole", func(t demoTurn) bool {
			return !t.opening && isCW(t.steps[0].Action) && len(t.steps) == 1 && laps(t) <= 5
		}},
		{"again", "Clockwise again: a turn that began clockwise", func(t demoTurn) bool {
			return !t.opening && isCW(t.steps[0].Action) && len(t.steps) >= 2 && isCW(t.steps[1].Action) &&
				switchAt(t) < 0 && laps(t) <= 6
		}},
		{"leave", "Leaving the stones: the other special hole", func(t demoTurn) bool {
			return !t.opening && switchAt(t) > 0 && laps(t) <= 7
		}},
	}},
}

// simultaneous reports whether t is a simultaneous Choro opening: South's
// choice, then North's, whose events sow both openings in lockstep steps,
// with steps in which both players drop a stone.
func simultaneous(t demoTurn) bool {
	if len(t.steps) != 2 || t.steps[0].By != "S" || t.steps[1].By != "N" || len(t.steps[0].Events) != 0 {
		return false
	}
	sown := map[byte]bool{}
	for _, e := range t.steps[1].Events {
		if e.Step < 1 {
			return false
		}
		if e.Kind == "sow" {
			sown[e.From[0]] = true
		}
	}
	return sown['a'] && sown['d']
}

// switchAt returns the index of the first step of t that is a leave=yes
// switch (a clockwise action from a special hole other than the one the
// captured stones were just put in), or -1.
func switchAt(t demoTurn) int {
	for j := 1; j < len(t.steps); j++ {
		prev := t.steps[j-1].Events
		if a := t.steps[j].Action; isCW(a) && len(prev) > 0 {
			if e := prev[len(prev)-1]; e.Kind == "move" && e.To != a[:len(a)-2] {
				return j
			}
		}
	}
	return -1
}

// openingCapture reports whether a lap of t ended by taking an outer hole
// alone (a Choro opening capture), not the inner-then-outer pair. In the
// simultaneous opening, both players' events are interleaved: a capture
// there is the moves into one origin judged in one step.
func openingCapture(t demoTurn) bool {
	for _, s := range t.steps {
		for i := 1; i < len(s.Events); i++ {
			e, prev := s.Events[i], s.Events[i-1]
			if e.Step > 0 {
				if e.Kind == "move" && (e.From[0] == 'a' || e.From[0] == 'd') && movesInto(s.Events, e.Step, e.To) == 1 {
					return true
				}
				continue
			}
			if e.Kind == "move" && prev.Kind == "sow" && (e.From[0] == 'a' || e.From[0] == 'd') {
				return true
			}
		}
	}
	return false
}

// movesInto counts the captures judged in a step of the simultaneous
// opening into the origin to.
func movesInto(evs []demoEvent, step int, to string) int {
	n := 0
	for _, e := range evs {
		if e.Kind == "move" && e.Step == step && e.To == to {
			n++
		}
	}
	return n
}

// bothCapture reports whether both players capture in t.
func bothCapture(t demoTurn) bool {
	by := map[byte]bool{}
	for _, s := range t.steps {
		for _, e := range s.Events {
			if e.Kind == "move" {
				by[e.To[0]] = true
			}
		}
	}
	return (by['a'] || by['b']) && (by['c'] || by['d'])
}

// playTurns plays a seeded random game and returns its turns.
func playTurns(t *testing.T, ruleset string, seed uint64) []demoTurn {
	t.Helper()
	rs, err := mancala.ParseRuleset(ruleset)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mancala.NewGame(rs)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 77))
	var turns []demoTurn
	var cur *demoTurn
	var buf []mancala.Action
	var evs []mancala.Event
	for ply := 0; ply < 400 && !s.IsOver(); ply++ {
		if s.AtTurnStart() {
			turns = append(turns, demoTurn{start: s.Position(), opening: s.InOpening()})
			cur = &turns[len(turns)-1]
		}
		buf = s.Legal(buf[:0])
		a := buf[rng.IntN(len(buf))]
		by := s.ToMove()
		evs, err = s.ApplyTraced(a, evs[:0])
		if err != nil {
			t.Fatalf("%s seed %d: %v", ruleset, seed, err)
		}
		step := demoStep{Action: a.String(), By: by.String(), Position: s.Position(), Events: []demoEvent{}}
		for _, e := range evs {
			step.Events = append(step.Events, demoEvent{Kind: e.Kind.String(), From: e.From.String(), To: e.To.String(),
				Stones: e.Stones, Clockwise: e.Clockwise, Action: a.String(), By: by.String(), Step: e.Step})
		}
		cur.steps = append(cur.steps, step)
	}
	if !s.AtTurnStart() && !s.IsOver() && len(turns) > 0 {
		turns = turns[:len(turns)-1] // an unfinished last turn
	}
	return turns
}

// buildDemo finds every scene of a game in the first seeded games that show it.
func buildDemo(t *testing.T, ruleset string, wants []sceneWant) demoFile {
	t.Helper()
	out := demoFile{Ruleset: ruleset, RuleFacts: ruleFacts(t, ruleset)}
	for _, w := range wants {
		found := false
		for seed := uint64(1); seed <= 300 && !found; seed++ {
			for _, turn := range playTurns(t, ruleset, seed) {
				if w.ok(turn) {
					out.Scenes = append(out.Scenes, demoScene{Key: w.key, Title: w.title, Start: turn.start, Actions: turn.steps})
					found = true
					break
				}
			}
		}
		if !found {
			t.Fatalf("%s: no seeded game shows the scene %q", ruleset, w.key)
		}
	}
	return out
}

func TestDemos(t *testing.T) {
	for _, g := range demoGames {
		t.Run(g.file, func(t *testing.T) {
			name := "demo/" + g.file + ".json"
			if *update {
				demo := buildDemo(t, g.ruleset, g.scenes)
				var b bytes.Buffer
				enc := json.NewEncoder(&b)
				enc.SetIndent("", " ")
				if err := enc.Encode(demo); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join("static", name), b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				checkScenes(t, demo, g.scenes)
				return
			}
			data, err := fs.ReadFile(FS, name)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/web -run TestDemos -update)", err)
			}
			var demo demoFile
			if err := json.Unmarshal(data, &demo); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if demo.Ruleset != g.ruleset {
				t.Fatalf("%s: ruleset %q, want %q", name, demo.Ruleset, g.ruleset)
			}
			if want := ruleFacts(t, g.ruleset); !reflect.DeepEqual(demo.RuleFacts, want) {
				t.Fatalf("%s: rule facts %+v, want %+v (run -update)", name, demo.RuleFacts, want)
			}
			checkScenes(t, demo, g.scenes)
		})
	}
}

// checkScenes replays each stored scene with the engine: every step must be
// legal from the scene's start, sow and capture as stored, reach the stored
// position, end the turn, and still show what the scene is for.
func checkScenes(t *testing.T, demo demoFile, wants []sceneWant) {
	t.Helper()
	if len(demo.Scenes) != len(wants) {
		t.Fatalf("%d scenes, want %d", len(demo.Scenes), len(wants))
	}
	rs := mancala.MustParseRuleset(demo.Ruleset)
	for i, sc := range demo.Scenes {
		w := wants[i]
		if sc.Key != w.key || sc.Title != w.title {
			t.Errorf("scene %d is %q %q, want %q %q (run -update)", i, sc.Key, sc.Title, w.key, w.title)
		}
		s, err := mancala.NewGame(rs)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetPosition(sc.Start); err != nil {
			t.Fatalf("scene %s: %v", sc.Key, err)
		}
		turn := demoTurn{start: sc.Start, opening: s.InOpening()}
		var evs []mancala.Event
		for j, st := range sc.Actions {
			a, err := mancala.ParseAction(st.Action)
			if err != nil {
				t.Fatalf("scene %s step %d: %v", sc.Key, j, err)
			}
			by := s.ToMove().String()
			if evs, err = s.ApplyTraced(a, evs[:0]); err != nil {
				t.Fatalf("scene %s step %d %s: %v", sc.Key, j, st.Action, err)
			}
			if by != st.By {
				t.Errorf("scene %s step %d: played by %s, stored %s", sc.Key, j, by, st.By)
			}
			if got := s.Position(); got != st.Position {
				t.Fatalf("scene %s step %d: position %s, stored %s (run -update)", sc.Key, j, got, st.Position)
			}
			if len(evs) != len(st.Events) {
				t.Fatalf("scene %s step %d: %d events, stored %d (run -update)", sc.Key, j, len(evs), len(st.Events))
			}
			for k, e := range evs {
				se := st.Events[k]
				if e.Kind.String() != se.Kind || e.From.String() != se.From || e.To.String() != se.To || e.Stones != se.Stones || e.Clockwise != se.Clockwise || e.Step != se.Step || se.Action != st.Action || se.By != by {
					t.Fatalf("scene %s step %d event %d: engine %v, stored %+v (run -update)", sc.Key, j, k, e, se)
				}
			}
			turn.steps = append(turn.steps, st)
		}
		if !s.AtTurnStart() && !s.IsOver() {
			t.Fatalf("scene %s ends mid-turn: %s", sc.Key, s.Pending())
		}
		if !w.ok(turn) {
			t.Errorf("scene %s no longer shows %q", sc.Key, w.title)
		}
	}
}
