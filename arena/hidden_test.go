package arena

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"matombo/mancala"
	"matombo/search"
)

// southChoiceOf returns South's opening choice held by s (OpeningChoiceHidden),
// found by trying each of South's choices on the position before it and
// comparing what North's first choice then leads to.
func southChoiceOf(t *testing.T, s *mancala.State) mancala.Action {
	t.Helper()
	before := s.BeforeOpeningChoice()
	north := s.Legal(nil)[0]
	after := func(st *mancala.State) string {
		c := st.Clone()
		if err := c.Apply(north); err != nil {
			t.Fatal(err)
		}
		return c.Position()
	}
	want := after(s)
	var found []mancala.Action
	for _, g := range before.Legal(nil) {
		c := before.Clone()
		if err := c.Apply(g); err != nil {
			t.Fatal(err)
		}
		if after(c) == want {
			found = append(found, g)
		}
	}
	if len(found) != 1 {
		t.Fatalf("cannot tell South's choice from the position: %v match", found)
	}
	return found[0]
}

// recorder plays at random and records, at each hidden North choice of the
// simultaneous opening it is shown, which South choice that state holds.
type recorder struct {
	t    *testing.T
	p    *search.Random
	seen []mancala.Action
}

func (r *recorder) Choose(ctx context.Context, s *mancala.State, lim search.Limits) (mancala.Action, error) {
	if s.OpeningChoiceHidden() {
		r.seen = append(r.seen, southChoiceOf(r.t, s))
	}
	return r.p.Choose(ctx, s, lim)
}

// scripted opens with its first action, then plays at random.
type scripted struct {
	first mancala.Action
	p     *search.Random
}

func (sc scripted) Choose(ctx context.Context, s *mancala.State, lim search.Limits) (mancala.Action, error) {
	if s.InSimultaneousOpening() && s.ToMove() == mancala.South {
		return sc.first, nil
	}
	return sc.p.Choose(ctx, s, lim)
}

// TestNorthNeverSeesSouthsOpeningChoice plays the simultaneous Choro opening
// with South opening from each of its holes in turn and North a player the
// arena does not know (so asked on South's possible choices): what North is
// shown and what it chooses must be the same whatever South chose.
func TestNorthNeverSeesSouthsOpeningChoice(t *testing.T) {
	rs := mancala.Default(mancala.Choro)
	start, err := mancala.NewGame(rs)
	if err != nil {
		t.Fatal(err)
	}
	souths := start.Legal(nil)
	cfg := Config{Ruleset: rs, Limits: search.Limits{Nodes: 800}}
	var firstSeen []mancala.Action
	var firstNorth mancala.Action
	for i, real := range souths {
		north := &recorder{t: t, p: search.NewRandom(7)}
		rec, err := playGame(context.Background(), cfg, [2]seat{plain{scripted{real, search.NewRandom(3)}}, plain{north}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := rec.Turns[0][0]; got != real {
			t.Fatalf("South opened %s, want %s", got, real)
		}
		chose := rec.Turns[0][1]
		if len(north.seen) != len(souths) || !slices.Equal(north.seen, souths) {
			t.Fatalf("South opening %s: North was shown South choices %v, want each of %v once", real, north.seen, souths)
		}
		if i == 0 {
			firstSeen, firstNorth = north.seen, chose
			continue
		}
		if !slices.Equal(north.seen, firstSeen) || chose != firstNorth {
			t.Errorf("South opening %s: North was shown %v and chose %s; after %s it was shown %v and chose %s",
				real, north.seen, chose, souths[0], firstSeen, firstNorth)
		}
	}
}

// TestSearchPlayersOpenTheSameWhateverSouthChose asks every kind of arena
// player of package search for North's opening in each hidden state.
func TestSearchPlayersOpenTheSameWhateverSouthChose(t *testing.T) {
	start, err := mancala.NewGame(mancala.Default(mancala.Choro))
	if err != nil {
		t.Fatal(err)
	}
	lim := search.Limits{Playouts: 200, Nodes: 3000}
	for _, kind := range []string{"random", "uct", "mcts", "alphabeta", "level:2", "level:4"} {
		var choices []mancala.Action
		for _, real := range start.Legal(nil) {
			p, err := mustSpec(t, kind).open(context.Background(), 5)
			if err != nil {
				t.Fatal(err)
			}
			s := start.Clone()
			if err := s.Apply(real); err != nil {
				t.Fatal(err)
			}
			if !s.OpeningChoiceHidden() {
				t.Fatal("South's choice should be hidden")
			}
			a, err := chooseHiddenNorth(context.Background(), p, s, lim)
			if err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			if err := s.Clone().Apply(a); err != nil {
				t.Fatalf("%s chose %s, illegal for North: %v", kind, a, err)
			}
			choices = append(choices, a)
		}
		for _, a := range choices {
			if a != choices[0] {
				t.Errorf("%s: North's choices %v depend on South's", kind, choices)
				break
			}
		}
	}
}

// TestSimultaneousMatchIsReproducible plays a Choro match from the start
// position (the players play the simultaneous opening) twice with one seed.
func TestSimultaneousMatchIsReproducible(t *testing.T) {
	run := func() (Result, map[string]string) {
		dir := t.TempDir()
		cfg := Config{
			Ruleset: mancala.Default(mancala.Choro), A: mustSpec(t, "uct"), B: mustSpec(t, "alphabeta"),
			Games: 4, Seed: 11, Limits: search.Limits{Playouts: 150, Nodes: 2000}, RecordDir: dir,
		}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "game-*.txt"))
		recs := map[string]string{}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			recs[filepath.Base(f)] = string(b)
		}
		return res, recs
	}
	r1, g1 := run()
	r2, g2 := run()
	r1.Records, r2.Records = "", ""
	if r1 != r2 {
		t.Errorf("results differ: %+v and %+v", r1, r2)
	}
	if len(g1) != 4 {
		t.Fatalf("%d records, want 4", len(g1))
	}
	for name, text := range g1 {
		if g2[name] != text {
			t.Errorf("%s differs between runs:\n%s\n%s", name, text, g2[name])
		}
	}
}

func TestShareLimits(t *testing.T) {
	got := shareLimits(search.Limits{MoveTime: 800_000_000, Playouts: 7, Nodes: 16, Depth: 5}, 8)
	want := search.Limits{MoveTime: 100_000_000, Playouts: 1, Nodes: 2, Depth: 5}
	if got != want {
		t.Errorf("shareLimits = %+v, want %+v", got, want)
	}
	if z := shareLimits(search.Limits{}, 8); !z.IsZero() {
		t.Errorf("zero limits shared as %+v", z)
	}
}

// TestRandomOpeningTurnsCoverTheSimultaneousOpening: on Choro at its
// defaults the first random turn is the whole simultaneous opening, two
// choices, after which the main phase has begun.
func TestRandomOpeningTurnsCoverTheSimultaneousOpening(t *testing.T) {
	rs := mancala.Default(mancala.Choro)
	for turns := 1; turns <= 3; turns++ {
		acts, err := randomOpening(rs, turns, 4, openingStream(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		s, err := mancala.NewGame(rs)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range acts {
			if err := s.Apply(a); err != nil {
				t.Fatal(err)
			}
			if i == 1 && s.InSimultaneousOpening() {
				t.Fatalf("%d turns: still in the simultaneous opening after %v", turns, acts[:2])
			}
		}
		if s.Turns() != turns || s.InSimultaneousOpening() || s.OpeningChoiceHidden() {
			t.Errorf("%d turns: the opening %v ends at turn %d (simultaneous opening %v)", turns, acts, s.Turns(), s.InSimultaneousOpening())
		}
		if turns == 1 && len(acts) != 2 {
			t.Errorf("one turn is the simultaneous opening's two choices, got %v", acts)
		}
	}
}
