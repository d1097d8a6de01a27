package mancala_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"matombo/mancala"
)

// differentialRulesets covers every game and every option value at least once.
var differentialRulesets = []string{
	"tsoro", "tsoro size=6 heads=none bonus=0", "tsoro size=8 heads=none bonus=3",
	"tsoro size=7 heads=left2 bonus=1", "tsoro size=9 heads=ends bonus=2",
	"tsoro size=12 heads=right1 bonus=3", "tsoro size=6 heads=choose bonus=1",
	"misoro-tsoro", "misoro-tsoro heads=ends", "musoro-tsoro",
	"nsolo", "nsolo outer=yes", "nsolo outer=yes extra=1", "nsolo extra=2",
	"nsolo size=13 extra=3", "nsolo size=36",
	// The five Choro rows of docs/PERFT.md: every value of opening, cw and leave.
	"choro", "choro opening=sequential cw=any leave=no", "choro opening=sequential",
	"choro cw=any", "choro leave=no",
}

// TestDifferential plays seeded random games with the engine and with the
// plain reference implementation side by side, and checks that they agree on
// every position, every set of legal actions and every result.
func TestDifferential(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 20
	}
	for _, text := range differentialRulesets {
		t.Run(text, func(t *testing.T) {
			rs := mancala.MustParseRuleset(text)
			n := games
			if rs.Size > 21 { // the reference is slow on the largest boards
				n = games / 10
			}
			var seen refCounts // the rare Choro rules the games compared
			for _, seed := range differentialSeeds(rs, n) {
				rng := rand.New(rand.NewPCG(uint64(seed), 7))
				s, err := mancala.NewGame(rs)
				if err != nil {
					t.Fatal(err)
				}
				ref := newRef(rs)
				var moves []string
				for step := 0; ; step++ {
					if got, want := s.Position(), ref.position(); got != want {
						t.Fatalf("seed %d after %v: position %s, reference %s", seed, moves, got, want)
					}
					legal := actionStrings(s.Legal(nil))
					if want := ref.legal(); !slices.Equal(legal, want) && !(ref.phase == "over" && len(legal) == 0) {
						t.Fatalf("seed %d after %v (%s): legal %v, reference %v", seed, moves, s.Position(), legal, want)
					}
					if got, want := choroCounts(s.Stats()), ref.counts; got != want {
						t.Fatalf("seed %d after %v (%s): Choro counts %+v, reference %+v", seed, moves, s.Position(), got, want)
					}
					if s.IsOver() != (ref.phase == "over") {
						t.Fatalf("seed %d after %v: over %v, reference phase %s", seed, moves, s.IsOver(), ref.phase)
					}
					if s.IsOver() {
						if got := s.Outcome().Result.String(); got != ref.result {
							t.Fatalf("seed %d: result %s, reference %s", seed, got, ref.result)
						}
						seen.sameStep += ref.counts.sameStep
						seen.limited += ref.counts.limited
						seen.switches += ref.counts.switches
						seen.others += ref.counts.others
						break
					}
					a := legal[rng.IntN(len(legal))]
					moves = append(moves, a)
					act, err := mancala.ParseAction(a)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.Apply(act); err != nil {
						t.Fatalf("seed %d after %v: %v", seed, moves, err)
					}
					if err := ref.play(a); err != nil {
						t.Fatal(err)
					}
				}
			}
			if rs.Game == mancala.Choro {
				wantChoroCoverage(t, rs, seen)
			}
		})
	}
}

// wantChoroCoverage fails unless the games compared played every rule of
// rs's Choro options at least once.
func wantChoroCoverage(t *testing.T, rs mancala.Ruleset, seen refCounts) {
	t.Helper()
	if rs.Opening == mancala.OpeningSimultaneous && seen.sameStep == 0 {
		t.Error("no simultaneous opening ended in the same step")
	}
	if rs.Clockwise == mancala.ClockwiseFirst && seen.limited == 0 {
		t.Error("cw=first never withheld a clockwise lap")
	}
	if rs.Leave && (seen.switches == 0 || seen.others == 0) {
		t.Errorf("leave=yes: %d switches and %d other holes played; want both", seen.switches, seen.others)
	}
}

// differentialSeeds returns the first n seeds, plus up to 10 seeds among the
// next 20,000 (500 on the largest boards) whose games reach the lap limit,
// end by repetition or (Choro, leave=yes) sow another hole after stones were
// left, found with the engine alone, so that the rare rules are compared too.
func differentialSeeds(rs mancala.Ruleset, n int) []int {
	seeds := make([]int, 0, n+10)
	for seed := range n {
		seeds = append(seeds, seed)
	}
	s, _ := mancala.NewGame(rs)
	rare := 0
	var buf []mancala.Action
	scan := 20000
	if rs.Size > 21 {
		scan = 500
	}
	for seed := n; seed < n+scan && rare < 10; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		s.Reset()
		for !s.IsOver() {
			buf = s.Legal(buf[:0])
			if err := s.Apply(actionAt(buf, rng.IntN(len(buf)))); err != nil {
				panic(err)
			}
		}
		if st := s.Stats(); st.LapCuts > 0 || s.Outcome().Reason == mancala.Repetition || st.OtherHoles > 0 {
			seeds = append(seeds, seed)
			rare++
		}
	}
	return seeds
}

// actionAt returns the i-th action of legal in byte order, as the
// differential test chooses.
func actionAt(legal []mancala.Action, i int) mancala.Action {
	a, err := mancala.ParseAction(actionStrings(legal)[i])
	if err != nil {
		panic(err)
	}
	return a
}

// choroCounts returns the Choro counts of st in the reference's form.
func choroCounts(st mancala.Stats) refCounts {
	return refCounts{sameStep: st.SameStepOpenings, limited: st.ClockwiseLimited, switches: st.Switches, others: st.OtherHoles}
}

func actionStrings(acts []mancala.Action) []string {
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = a.String()
	}
	mancala.SortActionStrings(out)
	return out
}

// TestDifferentialChoroOpenings compares the engine and the reference from
// random boards before the simultaneous opening ("S opening"), where the
// two openings meet far more often than from the start: captures of a hole
// the other player's lap has just landed in or would lift next.
func TestDifferentialChoroOpenings(t *testing.T) {
	boards := 2000
	if testing.Short() {
		boards = 600
	}
	for _, text := range []string{"choro", "choro cw=any", "choro leave=no"} {
		t.Run(text, func(t *testing.T) {
			rs := mancala.MustParseRuleset(text)
			cut, same := 0, 0
			for seed := range boards {
				rng := rand.New(rand.NewPCG(uint64(seed), 13))
				pos := randomChoroBoard(rng) + " S opening"
				s, err := mancala.NewGame(rs)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.SetPosition(pos); err != nil {
					t.Fatalf("%s: %v", pos, err)
				}
				ref := newRef(rs)
				ref.setPosition(pos)
				moves := []string{}
				// The opening and a few turns of the main phase.
				for step := 0; step < 12; step++ {
					if got, want := s.Position(), ref.position(); got != want {
						t.Fatalf("from %s after %v: position %s, reference %s", pos, moves, got, want)
					}
					legal := actionStrings(s.Legal(nil))
					if want := ref.legal(); !slices.Equal(legal, want) && !(ref.phase == "over" && len(legal) == 0) {
						t.Fatalf("from %s after %v: legal %v, reference %v", pos, moves, legal, want)
					}
					if s.ToMove().String() != ref.side && !s.IsOver() {
						t.Fatalf("from %s after %v: %s to move, reference %s", pos, moves, s.ToMove(), ref.side)
					}
					if got, want := choroCounts(s.Stats()), ref.counts; got != want {
						t.Fatalf("from %s after %v: Choro counts %+v, reference %+v", pos, moves, got, want)
					}
					if s.IsOver() != (ref.phase == "over") {
						t.Fatalf("from %s after %v: over %v, reference phase %s", pos, moves, s.IsOver(), ref.phase)
					}
					if s.IsOver() {
						if got := s.Outcome().Result.String(); got != ref.result {
							t.Fatalf("from %s: result %s, reference %s", pos, got, ref.result)
						}
						break
					}
					a := legal[rng.IntN(len(legal))]
					moves = append(moves, a)
					act, _ := mancala.ParseAction(a)
					if err := s.Apply(act); err != nil {
						t.Fatalf("from %s after %v: %v", pos, moves, err)
					}
					if err := ref.play(a); err != nil {
						t.Fatal(err)
					}
				}
				cut += ref.openingsCut
				same += ref.counts.sameStep
			}
			if cut == 0 || same == 0 {
				t.Errorf("%d openings ended by a captured next hole and %d in the same step; want some of each", cut, same)
			}
		})
	}
}

// randomChoroBoard returns the rows of a random Choro board in notation:
// 0 to 4 stones a hole, with at least one outer hole of 2 or more a side
// most of the time.
func randomChoroBoard(rng *rand.Rand) string {
	rows := make([]string, 4)
	for r := range rows {
		cells := make([]string, 8)
		for c := range cells {
			cells[c] = strconv.Itoa(rng.IntN(5))
		}
		rows[r] = strings.Join(cells, ",")
	}
	return strings.Join(rows, "/")
}
