package search

import (
	"context"
	"fmt"
	"testing"

	"matombo/mancala"
)

// choroStart is Driberg's Choro at its start: the simultaneous opening.
func choroStart(t *testing.T) *mancala.State {
	t.Helper()
	s, err := mancala.NewGame(mancala.Default(mancala.Choro))
	if err != nil {
		t.Fatal(err)
	}
	if !s.InSimultaneousOpening() || s.OpeningChoiceHidden() {
		t.Fatal("Choro's start should be before the simultaneous opening")
	}
	return s
}

// openingLimit keeps the slowest levels' matrices small in tests: 500 nodes
// for each joint opening.
var openingLimit = Limits{Nodes: 64 * 500}

func TestJointOpenings(t *testing.T) {
	s := choroStart(t)
	south, north, after, err := JointOpenings(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(south) != 8 || len(north) != 8 || len(after) != 8 {
		t.Fatalf("%d×%d joint openings, want 8×8", len(south), len(north))
	}
	for i, a := range south {
		for j, b := range north {
			c := s.Clone()
			if err := c.Apply(a); err != nil {
				t.Fatal(err)
			}
			if err := c.Apply(b); err != nil {
				t.Fatal(err)
			}
			if got := after[i][j]; got.Position() != c.Position() || got.InSimultaneousOpening() {
				t.Errorf("after %s|%s: %s, want %s", a, b, got.Position(), c.Position())
			}
		}
	}
	mid := s.Clone()
	if err := mid.Apply(south[3]); err != nil {
		t.Fatal(err)
	}
	s2, n2, after2, err := JointOpenings(mid) // the same from the state holding South's choice
	if err != nil || fmt.Sprint(s2, n2) != fmt.Sprint(south, north) || after2[5][2].Position() != after[5][2].Position() {
		t.Errorf("from the state holding South's choice: %v %v (%v)", s2, n2, err)
	}
	tsoro, _ := mancala.NewGame(mancala.Default(mancala.Tsoro))
	if _, _, _, err := JointOpenings(tsoro); err == nil {
		t.Error("Tsoro has no simultaneous opening")
	}
}

// openingPlayers returns a fresh player of each kind that chooses in the
// simultaneous opening, seeded with seed, with the limits it is given.
func openingPlayers(t *testing.T, seed uint64) map[string]func() (Player, Limits) {
	t.Helper()
	out := map[string]func() (Player, Limits){
		"random": func() (Player, Limits) { return NewRandom(seed), Limits{} },
		"mcts": func() (Player, Limits) {
			m, err := NewMCTS(DefaultMCTS(seed))
			if err != nil {
				t.Fatal(err)
			}
			return m, Limits{Playouts: 64 * 20}
		},
		"alphabeta": func() (Player, Limits) {
			cfg := DefaultAlphaBeta(seed)
			cfg.TableBits = 16
			ab, err := NewAlphaBeta(cfg)
			if err != nil {
				t.Fatal(err)
			}
			return ab, openingLimit
		},
	}
	for k := MinLevel; k <= MaxLevel; k++ {
		out[fmt.Sprintf("level %d", k)] = func() (Player, Limits) {
			lp, err := NewLevel(k, seed)
			if err != nil {
				t.Fatal(err)
			}
			lim := Limits{}
			if k >= 7 {
				lim = openingLimit
			}
			return lp, lim
		}
	}
	return out
}

// TestNorthIgnoresSouthsChoice checks that every player's choice for North
// in the simultaneous opening is the same, for a given seed, whatever South
// chose: each is asked by a fresh player (so that nothing is remembered
// from one to the next) after each of South's choices.
func TestNorthIgnoresSouthsChoice(t *testing.T) {
	s := choroStart(t)
	south := s.Legal(nil)
	for name, mk := range openingPlayers(t, 7) {
		var first mancala.Action
		for i, a := range south {
			mid := s.Clone()
			if err := mid.Apply(a); err != nil {
				t.Fatal(err)
			}
			p, lim := mk()
			b, err := p.Choose(context.Background(), mid, lim)
			if err != nil {
				t.Fatalf("%s, North after %s: %v", name, a, err)
			}
			if !isLegal(mid, b) {
				t.Fatalf("%s, North after %s: %s is not legal", name, a, b)
			}
			if i == 0 {
				first = b
			} else if b != first {
				t.Errorf("%s: North chose %s after South's %s but %s after %s", name, b, a, first, south[0])
			}
		}
		p, lim := mk()
		a, err := p.Choose(context.Background(), s, lim)
		if err != nil || !isLegal(s, a) {
			t.Errorf("%s, South: %s (%v)", name, a, err)
		}
	}
}

// TestLevelOpeningIsAnEquilibrium checks that a level's choice comes from
// an equilibrium of the matrix game it solved, whose entries are the
// level's own scores of the joint openings.
func TestLevelOpeningIsAnEquilibrium(t *testing.T) {
	s := choroStart(t)
	for _, k := range []int{4, 6} {
		lp, err := NewLevel(k, 3)
		if err != nil {
			t.Fatal(err)
		}
		a, err := lp.Choose(context.Background(), s, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		g := lp.LastOpening()
		if len(g.Payoff) != 8 || len(g.Payoff[0]) != 8 {
			t.Fatalf("level %d: a %d-row matrix", k, len(g.Payoff))
		}
		checkEquilibrium(t, fmt.Sprintf("level %d's opening", k), g.Payoff, g.Equilibrium)
		chosen := false
		for i, c := range g.South {
			if c == a {
				chosen = g.Row[i] > 0
			}
		}
		if !chosen {
			t.Errorf("level %d chose %s, outside its mix %v of %v", k, a, g.Row, g.South)
		}
		// An entry is the level's score: a fresh player of the same level
		// scores the position after the joint opening the same.
		spec, _ := Level(k)
		_, _, after, _ := JointOpenings(s)
		fresh, _ := NewLevel(k, 3)
		st := after[2][5]
		v := fresh.ab.value(context.Background(), st, openingLimits(spec.Limits(), spec.OpeningNodes))
		if st.ToMove() == mancala.North {
			v = -v
		}
		if g.Payoff[2][5] != float64(v) {
			t.Errorf("level %d: entry (2, 5) is %v, the level scores it %d", k, g.Payoff[2][5], v)
		}
		// The same seed chooses the same again, for either side.
		again, _ := NewLevel(k, 3)
		if b, _ := again.Choose(context.Background(), s, Limits{}); b != a {
			t.Errorf("level %d, seed 3: %s then %s", k, a, b)
		}
		mid := s.Clone()
		if err := mid.Apply(a); err != nil {
			t.Fatal(err)
		}
		n, err := lp.Choose(context.Background(), mid, Limits{}) // the game is remembered, the draw is North's
		if err != nil || !isLegal(mid, n) {
			t.Fatalf("level %d, North: %s (%v)", k, n, err)
		}
		for j, c := range g.North {
			if c == n && g.Col[j] == 0 {
				t.Errorf("level %d: North chose %s, outside its mix %v", k, n, g.Col)
			}
		}
	}
}

func TestOpeningLimits(t *testing.T) {
	for _, tc := range []struct {
		total Limits
		nodes int
		want  Limits
	}{
		{Limits{Nodes: 64_000, Depth: 4}, 0, Limits{Nodes: 1000, Depth: 4}},
		{Limits{Nodes: 64_000}, 500, Limits{Nodes: 500}},
		{Limits{Nodes: 6_400}, 500, Limits{Nodes: 100}},
		{Limits{MoveTime: 6400e6, Depth: 3}, 500, Limits{Nodes: 500, Depth: 3}},
		{Limits{Nodes: 10}, 0, Limits{Nodes: 1}},
	} {
		if got := openingLimits(tc.total, tc.nodes); got != tc.want {
			t.Errorf("openingLimits(%+v, %d) = %+v, want %+v", tc.total, tc.nodes, got, tc.want)
		}
	}
	for k := 4; k <= MaxLevel; k++ {
		spec, _ := Level(k)
		if spec.OpeningNodes == 0 || (spec.Nodes > 0 && 64*spec.OpeningNodes > spec.Nodes) {
			t.Errorf("level %d: %d nodes for each joint opening, %d for a decision", k, spec.OpeningNodes, spec.Nodes)
		}
	}
}

// TestMCTSOpeningIsAnEquilibrium checks the tree search's opening: an
// equilibrium of its matrix of expected scores, reproducible with a
// playout limit.
func TestMCTSOpeningIsAnEquilibrium(t *testing.T) {
	s := choroStart(t)
	var first mancala.Action
	for try := range 2 {
		m, err := NewMCTS(DefaultMCTS(4))
		if err != nil {
			t.Fatal(err)
		}
		a, err := m.Choose(context.Background(), s, Limits{Playouts: 64 * 50})
		if err != nil || !isLegal(s, a) {
			t.Fatalf("%s (%v)", a, err)
		}
		g := m.LastOpening()
		if len(g.Payoff) != 8 || len(g.Payoff[0]) != 8 {
			t.Fatalf("a %d-row matrix", len(g.Payoff))
		}
		for _, row := range g.Payoff {
			for _, v := range row {
				if v < -1000 || v > 1000 {
					if v != WinScore && v != -WinScore {
						t.Errorf("entry %v is neither an expected score nor a proof", v)
					}
				}
			}
		}
		checkEquilibrium(t, "the tree search's opening", g.Payoff, g.Equilibrium)
		if try == 0 {
			first = a
		} else if a != first {
			t.Errorf("seed 4 chose %s, then %s", first, a)
		}
	}
}
