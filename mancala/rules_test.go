package mancala_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"matombo/mancala"
)

// These are hand-worked examples of RULES.md: each position was worked out on
// paper first; the comments show the working.

// game sets up rs at the given position (or the start for "").
func game(t *testing.T, rs, pos string) *mancala.State {
	t.Helper()
	s, err := mancala.NewGame(mancala.MustParseRuleset(rs))
	if err != nil {
		t.Fatal(err)
	}
	if pos != "" {
		if err := s.SetPosition(pos); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// play applies actions given in notation, failing the test on any error.
func play(t *testing.T, s *mancala.State, actions ...string) []mancala.Event {
	t.Helper()
	var events []mancala.Event
	for _, text := range actions {
		a, err := mancala.ParseAction(text)
		if err != nil {
			t.Fatal(err)
		}
		if events, err = s.ApplyTraced(a, events); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	return events
}

func legalText(s *mancala.State) string { return strings.Join(actionStrings(s.Legal(nil)), " ") }

func eventsText(events []mancala.Event) string {
	var parts []string
	for _, e := range events {
		cw := ""
		if e.Clockwise {
			cw = "cw"
		}
		parts = append(parts, fmt.Sprintf("%s %s>%s %d%s", e.Kind, e.From, e.To, e.Stones, cw))
	}
	return strings.Join(parts, "; ")
}

func wantPosition(t *testing.T, s *mancala.State, want string) {
	t.Helper()
	if got := s.Position(); got != want {
		t.Fatalf("position\n got %s\nwant %s", got, want)
	}
}

func wantLegal(t *testing.T, s *mancala.State, want string) {
	t.Helper()
	if got := legalText(s); got != want {
		t.Fatalf("legal actions %q, want %q", got, want)
	}
}

func TestStartPositions(t *testing.T) {
	twos := func(n int) string { return strings.TrimSuffix(strings.Repeat("2,", n), ",") }
	zeros := func(n int) string { return strings.TrimSuffix(strings.Repeat("0,", n), ",") }
	for _, c := range []struct{ ruleset, want string }{
		// Tsoro 4×21, heads right2 (South a20 a21, North d2 d1), 2 in each outer hole.
		{"tsoro", "2*,2*," + twos(19) + "/" + zeros(21) + "/" + zeros(21) + "/" + twos(19) + ",2*,2* S"},
		{"tsoro size=6", "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* S"}, // RULES.md §5's example
		{"tsoro size=6 heads=left2", "2,2,2,2,2*,2*/0,0,0,0,0,0/0,0,0,0,0,0/2*,2*,2,2,2,2 S"},
		{"tsoro size=6 heads=ends", "3*,2,2,2,2,2*/0,0,0,0,0,0/0,0,0,0,0,0/2*,2,2,2,2,3* S"},
		{"tsoro size=6 heads=none", "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 S"},
		// Misoro Tsoro: heads are named before play, so none is marked yet.
		{"misoro-tsoro", twos(8) + "/" + zeros(8) + "/" + zeros(8) + "/" + twos(8) + " S"},
		// Musoro Tsoro: a single head, the rightmost outer hole, with 3 stones.
		{"musoro-tsoro", "3*," + twos(7) + "/" + zeros(8) + "/" + zeros(8) + "/" + twos(7) + ",3* S"},
		// Nsolo: 2 everywhere but each player's rightmost inner hole (b8, c1).
		{"nsolo", twos(8) + "/0," + twos(7) + "/" + twos(7) + ",0/" + twos(8) + " S"},
		{"nsolo size=36", twos(36) + "/0," + twos(35) + "/" + twos(35) + ",0/" + twos(36) + " S"},
		// Choro: 2 everywhere, and South has yet to make its opening turn.
		{"choro", twos(8) + "/" + twos(8) + "/" + twos(8) + "/" + twos(8) + " S opening"},
	} {
		s := game(t, c.ruleset, "")
		wantPosition(t, s, c.want)
		if start, _ := mancala.StartPosition(s.Ruleset()); start != c.want {
			t.Errorf("%s: StartPosition %s", c.ruleset, start)
		}
	}
}

func TestRelay(t *testing.T) {
	// South lifts a1 (2): a2 0→1, a3 1→2; a3 was occupied, so South lifts
	// its 2 stones: a4 0→1, a5 0→1; a5 was empty and is an outer hole: the
	// turn ends without a capture.
	s := game(t, "tsoro size=6 heads=none bonus=0", "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,0,1,0,0,0 S")
	events := play(t, s, "a1")
	if got, want := eventsText(events), "sow a1>a3 2; sow a3>a5 2"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantPosition(t, s, "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/0,1,0,1,1,0 N")
	if st := s.Stats(); st.Laps != 2 || st.Turns != 1 || st.Captures != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestHeadStopAndRelay(t *testing.T) {
	// Heads right2: South a5 a6. a3 (2): a4 0→1, a5 1→2: the last stone is
	// in an occupied head, so South chooses: a5 (relay) or stop.
	const pos = "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/0,0,2,0,1*,0* S"
	s := game(t, "tsoro size=6 bonus=0", pos)
	play(t, s, "a3")
	wantLegal(t, s, "a5 stop")
	if s.ToMove() != mancala.South || s.AtTurnStart() {
		t.Fatal("the head choice belongs to South's turn")
	}
	stop := s.Clone()
	play(t, stop, "stop")
	wantPosition(t, stop, "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,1,2*,0* N")

	// Relay: a5 (2): a6 0→1, b6 0→1; b6 was empty, an inner hole, but c6 is
	// empty: no capture.
	play(t, s, "a5")
	wantPosition(t, s, "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,1/0,0,0,1,0*,1* N")

	// Any other action is refused and changes nothing.
	t2 := game(t, "tsoro size=6 bonus=0", pos)
	play(t, t2, "a3")
	before := t2.Position()
	for _, bad := range []string{"a4", "a6", "xd1", "a5cw"} {
		a, _ := mancala.ParseAction(bad)
		if err := t2.Apply(a); err == nil || !strings.Contains(err.Error(), "relay from it or stop") {
			t.Errorf("%s at a head choice: %v", bad, err)
		}
	}
	if t2.Position() != before {
		t.Error("a refused action changed the game")
	}
}

func TestCaptureWithBonusPicks(t *testing.T) {
	// bonus=2. a6 (2): b6 0→1, b5 0→1; b5 was empty and is South's inner
	// row; c5 holds 3: South captures c5 and d5 (2), 5 stones. Then two
	// whole-hole picks among North's occupied holes c1, d1, d2.
	const pos = "1,2,0,0,2,0/1,0,0,0,3,0/0,0,0,0,0,0/0,0,0,0,0,2 S"
	s := game(t, "tsoro size=6 heads=none bonus=2", pos)
	events := play(t, s, "a6")
	if got, want := eventsText(events), "sow a6>b5 2; take c5>c5 3; take d5>d5 2"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantLegal(t, s, "xc1 xd1 xd2")
	wantPending(t, s, "take 2 more holes from the opponent's side")
	play(t, s, "xd2")
	wantLegal(t, s, "xc1 xd1")
	wantPending(t, s, "take 1 more hole from the opponent's side")
	play(t, s, "xc1")
	wantPosition(t, s, "1,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,1,1/0,0,0,0,0,0 N")
	if s.Stones(mancala.North) != 1 || s.Stats().Captures != 1 {
		t.Errorf("North has %d stones, captures %d", s.Stones(mancala.North), s.Stats().Captures)
	}

	// With only c5, d5, d1 and d2 occupied, the two picks take everything
	// left: they are automatic, and North, with no stones, loses.
	s = game(t, "tsoro size=6 heads=none bonus=2", "1,2,0,0,2,0/0,0,0,0,3,0/0,0,0,0,0,0/0,0,0,0,0,2 S")
	play(t, s, "a6")
	if !s.IsOver() || s.Outcome() != (mancala.Outcome{Result: mancala.SouthWins, Reason: mancala.NoMoves}) {
		t.Fatalf("outcome %+v, want South wins by no legal action", s.Outcome())
	}
	wantPosition(t, s, "0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,1,1/0,0,0,0,0,0 N")

	// No capture when the opposite inner hole is empty, even if the outer
	// hole opposite is not.
	s = game(t, "tsoro size=6 heads=none bonus=2", "1,2,0,0,2,0/1,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,2 S")
	play(t, s, "a6")
	wantPosition(t, s, "1,2,0,0,2,0/1,0,0,0,0,0/0,0,0,0,1,1/0,0,0,0,0,0 N")
}

func TestNsoloStoneRemoval(t *testing.T) {
	// a8 (2): b8 0→1, b7 0→1; b7 empty, inner; c7 holds 2: South captures
	// them (not d7: outer=no), then removes 2 single stones from North's
	// side, one action each.
	const pos = "3,0,0,0,0,0,1,0/0,1,0,0,0,0,2,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,2 S"
	s := game(t, "nsolo", pos)
	play(t, s, "a8")
	wantLegal(t, s, "xc2 xd1 xd7")
	wantPending(t, s, "remove 2 more stones from the opponent's side")
	play(t, s, "xd1")
	wantLegal(t, s, "xc2 xd1 xd7")
	wantPending(t, s, "remove 1 more stone from the opponent's side")
	play(t, s, "xd7")
	wantPosition(t, s, "2,0,0,0,0,0,0,0/0,1,0,0,0,0,0,0/0,0,0,0,0,0,1,1/0,0,0,0,0,0,0,0 N")

	// From a single occupied hole the removals are forced, so automatic.
	s = game(t, "nsolo", "5,0,0,0,0,0,0,0/0,0,0,0,0,0,2,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,2 S")
	play(t, s, "a8")
	wantPosition(t, s, "3,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,1,1/0,0,0,0,0,0,0,0 N")

	// outer=yes takes d7 too and removes all 3 captured stones' worth;
	// extra=1 instead picks one whole hole.
	s = game(t, "nsolo outer=yes extra=1", pos)
	play(t, s, "a8")
	wantLegal(t, s, "xc2 xd1")
	play(t, s, "xd1")
	wantPosition(t, s, "0,0,0,0,0,0,0,0/0,1,0,0,0,0,0,0/0,0,0,0,0,0,1,1/0,0,0,0,0,0,0,0 N")
}

// wantPending checks the description of the decision within the turn.
func wantPending(t *testing.T, s *mancala.State, want string) {
	t.Helper()
	if got := s.Pending(); got != want {
		t.Errorf("pending %q, want %q", got, want)
	}
}

func TestSinglesRule(t *testing.T) {
	// South has single stones only: a1 (a2 empty) and a4 (a5 empty) may
	// move; a3 (a4 occupied) and b1 (its next hole is a1) may not.
	const pos = "2,2,2,2,2,2/0,0,0,0,0,0/1,0,0,0,0,0/1,0,1,1,0,0 S"
	s := game(t, "tsoro size=6 heads=none bonus=0", pos)
	wantLegal(t, s, "a1 a4")
	a3, _ := mancala.ParseAction("a3")
	if err := s.Apply(a3); err == nil || !strings.Contains(err.Error(), "only be sown into an empty hole") {
		t.Errorf("a3: %v", err)
	}
	play(t, s, "a4")
	wantPosition(t, s, "2,2,2,2,2,2/0,0,0,0,0,0/1,0,0,0,0,0/1,0,1,0,1,0 N")

	// With a hole of 2, singles may not be lifted at all.
	s = game(t, "tsoro size=6 heads=none bonus=0", "2,2,2,2,2,2/0,0,0,0,0,0/1,0,0,0,0,0/1,0,2,0,0,0 S")
	wantLegal(t, s, "a3")
	a1, _ := mancala.ParseAction("a1")
	if err := s.Apply(a1); err == nil || !strings.Contains(err.Error(), "none of your holes has 2 or more") {
		t.Errorf("a1: %v", err)
	}
}

// dlpChoro is the DLP's reading of Choro, the only Choro before the options
// of RULES.md §3.4.
const dlpChoro = "choro opening=sequential cw=any leave=no"

func TestChoroOpeningBackCapture(t *testing.T) {
	// South's opening: a1 (2): a2 0→1, a3 1→2. No stone has reached the inner
	// row, a3 was occupied and d3 (same column, North's outer row) holds 3:
	// they go into the origin a1, which is lifted next: a1 (3): a2 1→2,
	// a3 2→3, a4 0→1; a4 was empty: the turn ends.
	s := game(t, dlpChoro, "2,2,3,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,0,1,0,0,0,0,0 S opening")
	wantLegal(t, s, "a1") // an opening lifts the outer row only
	events := play(t, s, "a1")
	if got, want := eventsText(events), "sow a1>a3 2; move d3>a1 3; sow a1>a4 3"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantPosition(t, s, "2,2,0,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,2,3,1,0,0,0,0 N opening")
	// North's opening offers its outer row only, anticlockwise.
	wantLegal(t, s, "d1 d2 d4 d5 d6 d7 d8")
}

func TestChoroClockwiseCaptureAndResowing(t *testing.T) {
	// Main phase. a1 is special: a1cw (2) drops b1 0→1, b2 1→2; b2 was
	// occupied and c2, d2 both hold stones: in opposition. They (1+2) go into
	// a1, which is lifted next. a1 (3) clockwise would drop b1, b2, b3 and
	// land in b3 (1→2) with c3 and d3 occupied: in opposition, so South
	// chooses the direction.
	const pos = "0,2,1,0,0,0,0,2/0,1,1,0,0,0,0,0/0,1,1,0,0,0,0,0/2,0,0,0,0,0,0,0 S"
	s := game(t, dlpChoro, pos)
	wantLegal(t, s, "a1 a1cw")
	play(t, s, "a1cw")
	wantLegal(t, s, "a1 a1cw")
	// Clockwise again: b1 1→2, b2 2→3, b3 1→2, in opposition: c3 and d3 (2)
	// go into a1. a1 (2) clockwise would land in b2 with c2 empty: no
	// choice, it is sown anticlockwise: a2 0→1, a3 0→1, empty: the end.
	events := play(t, s, "a1cw")
	if got, want := eventsText(events), "sow a1>b3 3cw; move c3>a1 1; move d3>a1 1; sow a1>a3 2"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantPosition(t, s, "0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0/2,3,2,0,0,0,0,0/0,1,1,0,0,0,0,0 N")

	// Anticlockwise at the choice: a1 (3): a2, a3, a4, the last empty.
	s = game(t, dlpChoro, pos)
	play(t, s, "a1cw", "a1")
	wantPosition(t, s, "0,0,1,0,0,0,0,2/0,0,1,0,0,0,0,0/1,2,1,0,0,0,0,0/0,1,1,1,0,0,0,0 N")

	// Clockwise is refused where it does not land in opposition, and in
	// the opening.
	// (a1cw would land in b2, and c2 is empty.)
	s = game(t, dlpChoro, "2,2,2,2,2,2,2,2/2,0,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S")
	wantLegal(t, s, "a1 a2 a3 a4 a5 a6 a7 a8 b1 b2 b2cw b3 b4 b5 b6 b7 b8") // b2cw: b3, b4, in opposition to c4 and d4
	a1cw, _ := mancala.ParseAction("a1cw")
	if err := s.Apply(a1cw); err == nil || !strings.Contains(err.Error(), "lands in opposition") {
		t.Errorf("a1cw: %v", err)
	}
	s = game(t, dlpChoro, "")
	if err := s.Apply(a1cw); err == nil || !strings.Contains(err.Error(), "opening turn sows anticlockwise") {
		t.Errorf("a1cw in the opening: %v", err)
	}
}

func TestHeadSetup(t *testing.T) {
	// heads=choose: South, North, South, North each name an outer hole; then
	// South sows. Each naming is a turn of its own.
	s := game(t, "misoro-tsoro", "")
	wantLegal(t, s, "a1 a2 a3 a4 a5 a6 a7 a8")
	play(t, s, "a1")
	wantLegal(t, s, "d1 d2 d3 d4 d5 d6 d7 d8")
	play(t, s, "d8", "a2")
	wantLegal(t, s, "d1 d2 d3 d4 d5 d6 d7")
	play(t, s, "d7")
	if s.InSetup() || s.Turns() != 4 || s.ToMove() != mancala.South {
		t.Fatalf("after four namings: setup %v, turns %d, to move %s", s.InSetup(), s.Turns(), s.ToMove())
	}
	wantPosition(t, s, "2,2,2,2,2,2,2*,2*/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2*,2*,2,2,2,2,2,2 S")
}

func TestLapLimit(t *testing.T) {
	// In this Tsoro position South's b4 relays without end; the 1,000th lap
	// would relay again, so the turn ends there, with no capture and no
	// choice. Found by search; the reference implementation agrees on the
	// board the 1,000 laps leave.
	rs := mancala.MustParseRuleset(lapLimitRuleset)
	s := game(t, lapLimitRuleset, lapLimitPosition)
	ref := newRef(rs)
	ref.setPosition(lapLimitPosition)
	play(t, s, lapLimitAction)
	if err := ref.play(lapLimitAction); err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	if st.Laps != mancala.MaxLaps || st.LapCuts != 1 || st.Captures != 0 || st.Turns != 1 {
		t.Fatalf("stats %+v: want 1,000 laps, one cut turn, no capture", st)
	}
	if s.ToMove() != mancala.North || !s.AtTurnStart() {
		t.Fatal("the cut turn must pass the move to North")
	}
	wantPosition(t, s, ref.position())
}

func TestNoLegalActionLoses(t *testing.T) {
	// Every South hole holds one stone and every next hole is occupied: no
	// action, so South loses at once.
	s := game(t, "tsoro size=6 heads=none", "2,2,2,2,2,2/0,0,0,0,0,0/1,1,1,1,1,1/1,1,1,1,1,1 S")
	if o := s.Outcome(); !s.IsOver() || o.Result != mancala.NorthWins || o.Reason != mancala.NoMoves {
		t.Fatalf("outcome %+v", o)
	}
	if got := s.Legal(nil); len(got) != 0 {
		t.Fatalf("legal %v in a finished game", got)
	}
	a1, _ := mancala.ParseAction("a1")
	if err := s.Apply(a1); err == nil || !strings.Contains(err.Error(), "game is over") {
		t.Fatalf("apply in a finished game: %v", err)
	}
	// Choro: no hole of 2 or more is no move (singletons never move).
	s = game(t, "choro", "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/1,0,1,0,1,0,1,0/0,1,0,1,0,1,0,1 S")
	if s.Outcome().Result != mancala.NorthWins {
		t.Fatalf("choro outcome %+v", s.Outcome())
	}
	// A Choro opening needs an outer hole of 2 or more.
	s = game(t, "choro", "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/1,1,1,1,1,1,1,1 S opening")
	if s.Outcome().Result != mancala.NorthWins {
		t.Fatalf("choro opening outcome %+v", s.Outcome())
	}
}

// TestRepetitionEndsGames replays random games that ended by repetition and
// checks them against a count made here, position by position: Nsolo draws
// at a position's second occurrence, the others end, adjudicated, at its
// third.
func TestRepetitionEndsGames(t *testing.T) {
	for _, text := range []string{"nsolo", "tsoro size=6 heads=none bonus=0", "musoro-tsoro"} {
		rs := mancala.MustParseRuleset(text)
		found := 0
		for seed := 0; seed < 50000 && found < 3; seed++ {
			s, _ := mancala.NewGame(rs)
			counts := map[string]int{}
			rng := newRand(uint64(seed))
			var first string
			for !s.IsOver() {
				if s.AtTurnStart() {
					key := s.Position()
					counts[key]++
					limit := 3
					if rs.Game == mancala.Nsolo {
						limit = 2
					}
					if counts[key] >= limit {
						first = key
						break
					}
				}
				legal := s.Legal(nil)
				if err := s.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			if s.Outcome().Reason != mancala.Repetition {
				if first != "" {
					t.Fatalf("%s seed %d: %s occurred too often but the game went on", text, seed, first)
				}
				continue
			}
			found++
			if first == "" {
				// The engine ended the game: this count must agree.
				key := s.Position()
				if want := map[bool]int{true: 2, false: 3}[rs.Game == mancala.Nsolo]; counts[key]+1 != want {
					t.Fatalf("%s seed %d: ended by repetition at occurrence %d of %s", text, seed, counts[key]+1, key)
				}
			}
			wantResult := mancala.Draw
			if rs.Game != mancala.Nsolo {
				switch south, north := s.Stones(mancala.South), s.Stones(mancala.North); {
				case south > north:
					wantResult = mancala.SouthWins
				case north > south:
					wantResult = mancala.NorthWins
				}
			}
			if s.Outcome().Result != wantResult {
				t.Fatalf("%s seed %d: result %s, want %s", text, seed, s.Outcome().Result, wantResult)
			}
		}
		if found == 0 {
			t.Errorf("%s: no game ended by repetition in the seeds tried", text)
		}
	}
}

func TestIllegalActionsAreRefused(t *testing.T) {
	s := game(t, "tsoro size=8", "")
	before, hash := s.Position(), s.Hash()
	for _, c := range []struct{ action, why string }{
		{"a9", "columns 1 to 8"},
		{"d1", "your own holes"},
		{"b1", "the hole is empty"},
		{"stop", "starts by lifting"},
		{"xd1", "starts by lifting"},
		{"a1cw", "starts by lifting"},
	} {
		a, err := mancala.ParseAction(c.action)
		if err != nil {
			t.Fatal(err)
		}
		err = s.Apply(a)
		if err == nil || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "legal actions are a1 a2") {
			t.Errorf("%s: %v", c.action, err)
		}
	}
	if s.Position() != before || s.Hash() != hash {
		t.Error("refused actions changed the game")
	}
}

// A turn that relays without end, found by searching random games: South's
// b4 in this Tsoro position.
const (
	lapLimitRuleset  = "tsoro size=6 heads=none bonus=0"
	lapLimitPosition = "1,0,1,0,0,0/0,0,1,0,0,0/0,1,0,2,1,2/1,0,1,0,1,0 S"
	lapLimitAction   = "b4"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 99)) }
