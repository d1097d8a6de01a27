package mancala

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// invariantRulesets are the presets and a few option variants.
var invariantRulesets = []string{
	"tsoro", "misoro-tsoro", "musoro-tsoro", "nsolo", "choro",
	"tsoro size=8 heads=none bonus=0", "tsoro size=6 heads=ends bonus=3", "nsolo size=36 outer=yes",
	"nsolo extra=2", "choro opening=sequential cw=any leave=no", "choro opening=sequential",
	"choro cw=any", "choro leave=no",
}

// TestInvariants plays 10,000 seeded random games of every preset (1,000 of
// the variants; a tenth of each with -short) and checks after every action:
// stones are conserved (board plus removed equals the start), the hash kept
// up to date equals the hash computed afresh, a copy plays on exactly like
// the original, and at every turn start the position round-trips through its
// notation. Every game ends within the turn limit, and its record
// round-trips and replays to the same final state.
func TestInvariants(t *testing.T) {
	for k, text := range invariantRulesets {
		t.Run(text, func(t *testing.T) {
			t.Parallel()
			games := 10000
			if k >= 5 {
				games = 1000
			}
			if testing.Short() {
				games /= 10
			}
			rs, err := ParseRuleset(text)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := NewGame(rs)
			total := s.Stones(South) + s.Stones(North)
			twin, reread := s.Clone(), s.Clone()
			var buf, twinBuf []Action
			for seed := range games {
				rng := rand.New(rand.NewPCG(uint64(seed), 1))
				s.Reset()
				rec, err := NewRecorder(s)
				if err != nil {
					t.Fatal(err)
				}
				g := rec.State()
				for step := 0; !g.IsOver(); step++ {
					buf = g.Legal(buf[:0])
					if len(buf) == 0 {
						t.Fatalf("seed %d: no legal action in a game in play: %s", seed, g.Position())
					}
					a := buf[rng.IntN(len(buf))]
					if step%7 == 0 {
						twin.CopyFrom(g)
					}
					if err := rec.Apply(a); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					checkState(t, g, total)
					if step%7 == 0 {
						if err := twin.Apply(a); err != nil {
							t.Fatalf("seed %d: the copy refused %s: %v", seed, a, err)
						}
						twinBuf = twin.Legal(twinBuf[:0])
						if twin.Position() != g.Position() || twin.Hash() != g.Hash() || twin.Outcome() != g.Outcome() || !slices.Equal(twinBuf, g.Legal(buf[:0])) {
							t.Fatalf("seed %d: a copy diverged after %s: %s vs %s", seed, a, twin.Position(), g.Position())
						}
					}
					if step%5 == 0 && g.AtTurnStart() && !g.IsOver() && g.phase != phaseSetup {
						if err := reread.SetPosition(g.Position()); err != nil {
							t.Fatalf("seed %d: %s does not read back: %v", seed, g.Position(), err)
						}
						if reread.Position() != g.Position() || reread.Hash() != g.Hash() {
							t.Fatalf("seed %d: %s reads back as %s", seed, g.Position(), reread.Position())
						}
					}
				}
				if g.Turns() > MaxTurns {
					t.Fatalf("seed %d: %d turns", seed, g.Turns())
				}
				if seed%25 == 0 {
					checkRecord(t, rec.Record(), g)
				}
			}
		})
	}
}

func checkState(t *testing.T, s *State, total int) {
	t.Helper()
	var count [2]int
	for p := range 2 {
		for i := 0; i < s.r.loop; i++ {
			count[p] += int(s.board[p][i])
		}
		for i := s.r.loop; i < maxLoop; i++ {
			if s.board[p][i] != 0 {
				t.Fatalf("stones beyond the loop at %d", i)
			}
		}
	}
	if count != s.stones {
		t.Fatalf("stone counts %v, kept %v", count, s.stones)
	}
	if got := count[0] + count[1] + s.stats.Removed; got != total {
		t.Fatalf("%d stones on the board and %d removed, want %d in all", count[0]+count[1], s.stats.Removed, total)
	}
	if h := boardHashOf(&s.board, s.r.loop); h != s.boardHash {
		t.Fatalf("hash kept %x, computed %x", s.boardHash, h)
	}
	saved := s.markHash
	s.rehashMarks()
	if s.markHash != saved {
		t.Fatal("head and opening hash out of date")
	}
}

func checkRecord(t *testing.T, rec *Record, final *State) {
	t.Helper()
	text := rec.String()
	back, err := ParseRecord(text)
	if err != nil {
		t.Fatalf("record does not parse back: %v\n%s", err, text)
	}
	if back.String() != text {
		t.Fatalf("record does not round-trip:\n%s\n---\n%s", text, back.String())
	}
	s, err := back.Replay()
	if err != nil {
		t.Fatalf("record does not replay: %v\n%s", err, text)
	}
	if s.Position() != final.Position() || s.Hash() != final.Hash() || s.Outcome() != final.Outcome() {
		t.Fatalf("replay ends at %s (%v), the game at %s (%v)", s.Position(), s.Outcome(), final.Position(), final.Outcome())
	}
}

// TestTurnLimit drives a game to its 2,000th turn and checks that it is
// adjudicated there by the stones on each side.
func TestTurnLimit(t *testing.T) {
	s, _ := NewGame(MustParseRuleset("tsoro size=8 heads=none bonus=0"))
	s.turns = MaxTurns - 1
	a, _ := ParseAction("a1")
	if err := s.Apply(a); err != nil {
		t.Fatal(err)
	}
	if o := s.Outcome(); !s.IsOver() || o.Reason != TurnLimit || o.Result != Draw {
		t.Fatalf("outcome %+v, want a draw by the turn limit (16 stones each)", o)
	}
	s, _ = NewGame(MustParseRuleset("tsoro size=6 heads=none bonus=0"))
	if err := s.SetPosition("1,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/2,0,0,0,0,0 S"); err != nil {
		t.Fatal(err)
	}
	s.turns = MaxTurns - 1
	if err := s.Apply(a); err != nil {
		t.Fatal(err)
	}
	if o := s.Outcome(); o.Reason != TurnLimit || o.Result != SouthWins {
		t.Fatalf("outcome %+v, want South to win by the turn limit, 2 stones to 1", o)
	}
}
