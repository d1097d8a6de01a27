package puzzles

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// TestShippedSets checks that every preset ships its puzzles, of its own
// ruleset, with the fields a page needs.
func TestShippedSets(t *testing.T) {
	for _, name := range Presets() {
		st, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		g := mancala.Default(mustGame(t, name))
		if st.Preset != name || st.Ruleset != g.String() {
			t.Errorf("%s: the set is of %q (%q)", name, st.Preset, st.Ruleset)
		}
		if len(st.Puzzles) < MinPerPreset {
			t.Errorf("%s: %d puzzles shipped, want at least %d", name, len(st.Puzzles), MinPerPreset)
		}
		for _, p := range st.Puzzles {
			if p.ID == "" || p.Position == "" || len(p.Line) == 0 || p.Rating <= 0 || (p.Kind != KindOnly && p.Kind != KindKeeps) {
				t.Errorf("%s: puzzle %+v lacks a field", name, p)
			}
		}
	}
}

func mustGame(t *testing.T, name string) mancala.Game {
	t.Helper()
	for _, g := range mancala.Games() {
		if g.String() == name {
			return g
		}
	}
	t.Fatalf("no game %q", name)
	return 0
}

// TestVerifyShipped proves the shipped puzzles again with the solver:
// every one in a full run, every tenth (the same ones each time) with
// -short.
func TestVerifyShipped(t *testing.T) {
	every := 1
	if testing.Short() {
		every = 10
	}
	for _, name := range Presets() {
		st, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		rep, err := VerifySet(context.Background(), st, every)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Failures {
			t.Error(f)
		}
		want := (len(st.Puzzles) + every - 1) / every
		if rep.Verified != want {
			t.Errorf("%s: %d of %d puzzles verified", name, rep.Verified, want)
		}
		t.Logf("%s: %d puzzles verified, %d solver nodes, %v", name, rep.Verified, rep.Nodes, time.Since(start).Round(time.Millisecond))
	}
}

// firstPuzzle returns the first shipped puzzle whose main line has three
// actions or more.
func firstPuzzle(t *testing.T) (mancala.Ruleset, Puzzle) {
	t.Helper()
	for _, name := range Presets() {
		st, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range st.Puzzles {
			if len(p.Line) >= 3 {
				rs, err := st.rules()
				if err != nil {
					t.Fatal(err)
				}
				return rs, p
			}
		}
	}
	t.Fatal("no puzzles shipped")
	return mancala.Ruleset{}, Puzzle{}
}

// TestPlayMainLine plays a puzzle's main line as the page does: each
// answer's replies are the main line's next actions, and the last answer
// says solved.
func TestPlayMainLine(t *testing.T) {
	ctx := context.Background()
	pv := NewProver(0)
	for _, name := range Presets() {
		st, _ := Load(name)
		if len(st.Puzzles) == 0 {
			continue
		}
		rs, _ := st.rules()
		p := st.Puzzles[len(st.Puzzles)/2]
		var played []string
		status := StatusPlaying
		for status == StatusPlaying {
			if len(played) >= len(p.Line) {
				t.Fatalf("%s: the main line ended, the puzzle did not", p.ID)
			}
			ans, err := Play(ctx, rs, p, append(played, p.Line[len(played)]), pv)
			if err != nil {
				t.Fatalf("%s after %v: %v", p.ID, played, err)
			}
			if ans.Checked {
				t.Errorf("%s: a main line action was checked by the solver", p.ID)
			}
			played = append(played, p.Line[len(played)])
			for _, r := range ans.Replies {
				if len(played) >= len(p.Line) || r.String() != p.Line[len(played)] {
					t.Fatalf("%s: reply %s after %v is not the main line's", p.ID, r, played)
				}
				played = append(played, r.String())
			}
			status = ans.Status
		}
		if status != StatusSolved || len(played) != len(p.Line) {
			t.Errorf("%s: %s after %d of %d actions", p.ID, status, len(played), len(p.Line))
		}
	}
}

// TestPlayWrongFirst plays every other first action of a puzzle: each
// fails at once, naming the winning action.
func TestPlayWrongFirst(t *testing.T) {
	rs, p := firstPuzzle(t)
	s, err := fromPosition(rs, p.Position)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range s.Legal(nil) {
		if a.String() == p.Action {
			continue
		}
		ans, err := Play(context.Background(), rs, p, []string{a.String()}, NewProver(0))
		if err != nil {
			t.Fatal(err)
		}
		if ans.Status != StatusFailed || ans.Best.String() != p.Action || len(ans.Replies) != 0 {
			t.Errorf("%s: %s answered %s, best %s, replies %v", p.ID, a, ans.Status, ans.Best, ans.Replies)
		}
	}
}

// TestPlayOffLine plays, at the player's second decision of puzzles, each
// action other than the main line's: the answer must agree with the
// solver's own proof of that action.
func TestPlayOffLine(t *testing.T) {
	ctx := context.Background()
	pv := NewProver(0)
	tried := 0
	for _, name := range Presets() {
		st, _ := Load(name)
		rs, _ := st.rules()
		for _, p := range st.Puzzles[:min(len(st.Puzzles), 8)] {
			s, _ := fromPosition(rs, p.Position)
			me := s.ToMove()
			i := 0
			for ; i < len(p.Line); i++ { // to the player's second decision
				if i > 0 && s.ToMove() == me {
					break
				}
				a, _ := mancala.ParseAction(p.Line[i])
				if err := s.Apply(a); err != nil {
					t.Fatal(err)
				}
			}
			if s.IsOver() || i == len(p.Line) {
				continue
			}
			for _, a := range s.Legal(nil) {
				if a.String() == p.Line[i] {
					continue
				}
				tried++
				ans, err := Play(ctx, rs, p, append(slices.Clone(p.Line[:i]), a.String()), pv)
				if err != nil {
					t.Fatal(err)
				}
				v, err := NewProver(0).ValueOf(ctx, s, a)
				if err != nil {
					t.Fatal(err)
				}
				won := v.Verdict == search.Win
				if !ans.Checked || (ans.Status == StatusFailed) == won {
					t.Errorf("%s: %v then %s: %s (checked %v), the solver says %s", p.ID, p.Line[:i], a, ans.Status, ans.Checked, v.Verdict)
				}
			}
		}
	}
	if tried == 0 {
		t.Fatal("no puzzle offered an action off the main line at the player's second decision")
	}
	t.Logf("%d actions off the main line checked", tried)
}

// TestPlayRefuses checks that sequences that cannot be played are refused
// with a PlayError that says why.
func TestPlayRefuses(t *testing.T) {
	rs, p := firstPuzzle(t)
	cases := map[string][]string{
		"none":     nil,
		"garbage":  {"zz9"},
		"illegal":  {"d1cw"},
		"too many": make([]string, MaxPlayed+1),
		"over":     append(slices.Clone(p.Line), p.Line[0]),
	}
	s, _ := fromPosition(rs, p.Position)
	me := s.ToMove()
	for i, text := range p.Line[:len(p.Line)-1] { // the engine's decision: not the player's to play
		a, _ := mancala.ParseAction(text)
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		if s.ToMove() != me {
			cases["not yours"] = slices.Clone(p.Line[:i+2])
			break
		}
	}
	for name, played := range cases {
		_, err := Play(context.Background(), rs, p, played, NewProver(0))
		var pe *PlayError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a PlayError", name, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// TestClassifyRefuses checks positions that are not puzzles.
func TestClassifyRefuses(t *testing.T) {
	ctx := context.Background()
	choro, _ := mancala.NewGame(mancala.Default(mancala.Choro))
	if _, err := NewProver(1000).Classify(ctx, choro); !errors.Is(err, ErrNotPuzzle) {
		t.Errorf("Choro's simultaneous opening: %v, want ErrNotPuzzle", err)
	}
	tsoro, _ := mancala.NewGame(mancala.Default(mancala.Tsoro))
	if _, err := NewProver(1000).Classify(ctx, tsoro); !errors.Is(err, ErrNotPuzzle) {
		t.Errorf("Tsoro's start within 1000 nodes: %v, want ErrNotPuzzle", err)
	}
}

// TestFromRecords finds a shipped puzzle again in a stored game that
// passes through its position: the game starts there and plays its main
// line.
func TestFromRecords(t *testing.T) {
	rs, p := firstPuzzle(t)
	s, err := fromPosition(rs, p.Position)
	if err != nil {
		t.Fatal(err)
	}
	var line []mancala.Action
	for _, text := range p.Line {
		a, _ := mancala.ParseAction(text)
		line = append(line, a)
	}
	end := s.Clone()
	for _, a := range line {
		if err := end.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	rec := &mancala.Record{Ruleset: rs, Position: p.Position, Result: end.Outcome().Result, Turns: search.SplitTurns(s, line)}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	cfg := DefaultGenerate()
	cfg.Want, cfg.Branch, cfg.MaxStones, cfg.Screen = 1, false, 0, 0
	other := mancala.Default(mancala.Choro)
	if rs == other {
		other = mancala.Default(mancala.Nsolo)
	}
	games := []Recorded{{Name: "other.txt", Record: &mancala.Record{Ruleset: other}}, {Name: "game.txt", Record: rec}}
	st, err := FromRecords(context.Background(), rs, games, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Puzzles) != 1 || st.Puzzles[0].Position != p.Position || st.Puzzles[0].Action != p.Action || !strings.HasPrefix(st.Puzzles[0].Source, "stored game game.txt, turn 1") {
		t.Errorf("found %+v, want %s at turn 1 of game.txt", st.Puzzles, p.ID)
	}
}
