package mancala_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"matombo/mancala"
)

// Hand-worked examples of Choro's options (RULES.md §3.4), each worked out
// on paper first; the comments show the working. Positions are written rows
// d/c/b/a, columns 1..8. South sows a1→a8→b8→b1→a1 anticlockwise, so
// clockwise from a1 is b1, b2, b3, …, and from b2 it is b3, b4, ….

const choroStart = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2"

// stepEventsText is eventsText with each event's lockstep step first.
func stepEventsText(events []mancala.Event) string {
	var parts []string
	for _, e := range events {
		parts = append(parts, fmt.Sprintf("%d %s", e.Step, eventsText([]mancala.Event{e})))
	}
	return strings.Join(parts, "; ")
}

func wantToMove(t *testing.T, s *mancala.State, p mancala.Player) {
	t.Helper()
	if s.ToMove() != p {
		t.Fatalf("%s to move, want %s", s.ToMove(), p)
	}
}

func TestChoroSimultaneousOpening(t *testing.T) {
	s := game(t, "choro", "")
	wantPosition(t, s, choroStart+" S opening")
	wantLegal(t, s, "a1 a2 a3 a4 a5 a6 a7 a8")
	if !s.InSimultaneousOpening() || s.OpeningChoiceHidden() || !s.AtTurnStart() {
		t.Fatal("before South's choice: want the simultaneous opening, nothing hidden, a turn start")
	}

	// South chooses a4. The board does not change, and North, to choose
	// next, sees neither the choice nor its effect.
	play(t, s, "a4")
	wantPosition(t, s, choroStart+" N opening")
	wantToMove(t, s, mancala.North)
	wantLegal(t, s, "d1 d2 d3 d4 d5 d6 d7 d8")
	if !s.InSimultaneousOpening() || !s.OpeningChoiceHidden() || s.AtTurnStart() {
		t.Fatal("between the choices: want the simultaneous opening, South's choice hidden, mid-turn")
	}
	before := s.BeforeOpeningChoice()
	wantPosition(t, before, choroStart+" S opening")
	wantLegal(t, before, "a1 a2 a3 a4 a5 a6 a7 a8")
	wantPosition(t, s, choroStart+" N opening") // the copy leaves s alone
	if fresh := game(t, "choro", ""); before.Hash() != fresh.Hash() || before.Stats() != fresh.Stats() || !before.AtTurnStart() {
		t.Fatalf("BeforeOpeningChoice: hash %x stats %+v, want the start's %x %+v at a turn start", before.Hash(), before.Stats(), fresh.Hash(), fresh.Stats())
	}

	// North chooses d3. Both lift (a4, d3: 2 each; steps count drops):
	//  1: S a5 2→3          N d2 2→3
	//  2: S a6 2→3, last    N d1 2→3, last. Both occupied, no inner stone yet:
	//     S takes d6 (2) into a4 and lifts a4 (2); N takes a1 (2) into d3
	//     and lifts d3 (2).
	//  3: S a5 3→4          N d2 3→4
	//  4: S a6 3→4, last    N d1 3→4, last. d6 and a1 are now empty: each
	//     lifts its landing hole, S a6 (4), N d1 (4).
	//  5: S a7 3            N c1 3 (North's inner row: reached)
	//  6: S a8 3            N c2 3
	//  7: S b8 3 (reached)  N c3 3
	//  8: S b7 2→3, last    N c4 2→3, last. S: b7 in opposition (c7 2,
	//     d7 2): both into a6, lift a6 (4). N, on the board as South left
	//     it: c4 faces b4 (2) and a4 (0, lifted in step 2): not in
	//     opposition, lift c4 (3).
	//  9: S a7 4            N c5 3
	// 10: S a8 4            N c6 3
	// 11: S b8 4            N c7 0→1, last: empty, North's opening ends.
	// 12: S b7 3→4, last: c7 1 but d7 0, not in opposition: lift b7 (4).
	// 13–16: S b6 3, b5 3, b4 3, b3 2→3 last: d3 is empty: lift b3 (3).
	// 17–19: S b2 3, b1 3, a1 0→1 last (a1 was taken in step 2): empty,
	//     South's opening ends. North ended first (11 < 19): North moves.
	events := play(t, s, "d3")
	want := "1 sow a4>a6 2; 1 sow d3>d1 2; 2 move d6>a4 2; 3 sow a4>a6 2; 2 move a1>d3 2; 3 sow d3>d1 2; " +
		"5 sow a6>b7 4; 5 sow d1>c4 4; 8 move c7>a6 2; 8 move d7>a6 2; 9 sow a6>b7 4; 9 sow c4>c7 3; " +
		"13 sow b7>b3 4; 17 sow b3>a1 3"
	if got := stepEventsText(events); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	wantPosition(t, s, "0,4,0,2,2,0,0,2/3,3,3,0,3,3,1,2/3,3,0,3,3,3,0,4/1,2,2,0,4,0,4,4 N")
	wantToMove(t, s, mancala.North)
	// North's holes of 2 or more; d8cw (c8 3, c7 2) would face b7, which is
	// empty: no clockwise start.
	wantLegal(t, s, "c1 c2 c3 c5 c6 c8 d2 d4 d5 d8")
	if s.InSimultaneousOpening() || s.InOpening() || !s.AtTurnStart() || s.Turns() != 1 {
		t.Fatalf("after the opening: simultaneous %v, opening %v, turn start %v, turns %d; want false, false, true, 1",
			s.InSimultaneousOpening(), s.InOpening(), s.AtTurnStart(), s.Turns())
	}
	if st := s.Stats(); st.SameStepOpenings != 0 || st.Actions != 2 || st.Captures != 3 {
		t.Errorf("stats %+v: want no same-step opening, 2 actions, 3 captures", st)
	}
}

func TestChoroSameStepOpening(t *testing.T) {
	// a6|d3 from the start, a mirror image in its first 22 steps:
	//  1–2: S a7 3, a8 3 last; N d2 3, d1 3 last: S takes d8 (2) into a6,
	//       N takes a1 (2) into d3; both lift them (2).
	//  3–4: S a7 4, a8 4 last; N d2 4, d1 4 last: d8, a1 empty: lift the
	//       landing holes a8 (4), d1 (4).
	//  5–8: S b8 3, b7 3, b6 3, b5 3 last; N c1 3, c2 3, c3 3, c4 3 last.
	//       S: b5 faces c5 2, d5 2: both into a8, lift a8 (4). N: c4 faces
	//       b4 2, a4 2 (column 4 is untouched by South): both into d1, lift d1 (4).
	//  9–12: S b8 4, b7 4, b6 4, b5 4 last (c5 now empty): lift b5 (4);
	//        N c1 4, c2 4, c3 4, c4 4 last (b4 now empty): lift c4 (4).
	//  13–16: S b4 0→1, b3 3, b2 3, b1 3 last (d1 lifted): lift b1 (3);
	//         N c5 0→1, c6 3, c7 3, c8 3 last (a8 lifted): lift c8 (3).
	//  17–19: S a1 1, a2 3, a3 3 last (outer): lift a3 (3);
	//         N d8 1, d7 3, d6 3 last: lift d6 (3).
	//  20–22: S a4 0→1, a5 3, a6 0→1 last: empty; N d5 0→1, d4 3, d3 0→1
	//         last: empty. Both end in step 22: South moves first.
	s := game(t, "choro", "")
	play(t, s, "a6", "d3")
	wantPosition(t, s, "0,4,1,3,1,0,3,1/4,4,4,0,1,3,3,0/0,3,3,1,0,4,4,4/1,3,0,1,3,1,4,0 S")
	wantToMove(t, s, mancala.South)
	// South's holes of 2 or more; b2cw (3) would drop b3, b4, b5 and end in
	// the empty b5, and a1 holds 1: no clockwise start.
	wantLegal(t, s, "a2 a5 a7 b2 b3 b6 b7 b8")
	if st := s.Stats(); st.SameStepOpenings != 1 {
		t.Errorf("SameStepOpenings %d, want 1", st.SameStepOpenings)
	}
}

func TestChoroOpeningNextHoleCaptured(t *testing.T) {
	// South's only opening hole is a8 (5), North chooses d2 (5).
	//  1–5: S b8 1, b7 1, b6 1, b5 1, b4 1→2 last (reached in step 1);
	//       N d1 1, c1 1 (reached), c2 1, c3 1, c4 1→2 last.
	//  South is judged first: b4 faces c4 (2) and d4 (4): in opposition,
	//  6 stones into a8, which is lifted. Then North: its last stone fell
	//  into an occupied c4, but c4 faces b4 (2) and a4 (0): not in
	//  opposition, so the next lap would lift c4, which South has just
	//  captured: it is empty, and North's opening ends in step 5.
	//  6–11: S b8 2, b7 2, b6 2, b5 2, b4 3, b3 0→1 last: empty, South's
	//  opening ends in step 11. North ended first: North moves.
	const pos = "0,5,0,4,0,2,2,0/0,0,0,1,0,0,0,0/0,0,0,1,0,0,0,0/0,0,0,0,0,0,0,5 S opening"
	s := game(t, "choro", pos)
	wantLegal(t, s, "a8")
	play(t, s, "a8")
	wantLegal(t, s, "d2 d4 d6 d7")
	events := play(t, s, "d2")
	if got, want := stepEventsText(events), "1 sow a8>b4 5; 1 sow d2>c4 5; 5 move c4>a8 2; 5 move d4>a8 4; 6 sow a8>b3 6"; got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	wantPosition(t, s, "1,0,0,0,0,2,2,0/1,1,1,0,0,0,0,0/0,0,1,3,2,2,2,2/0,0,0,0,0,0,0,0 N")
	wantToMove(t, s, mancala.North)
	wantLegal(t, s, "d6 d7")

	// The same with one stone in a4: North's c4, emptied by South, now
	// faces b4 (2) and a4 (1), both holding stones: North captures them
	// into its origin d2 (3) and goes on, since the hole it lifts holds
	// stones. 6–8: N d1 2, c1 2, c2 1→2 last: c2 faces b2 (0), lift c2 (2);
	// 9–10: N c3 2, c4 0→1 last: empty, North's opening ends in step 10.
	// South's a8 (6): b8 2, b7 2, b6 2, b5 2, b4 0→1 (North took b4),
	// b3 0→1 last in step 11. North ended first again.
	s = game(t, "choro", strings.Replace(pos, "0,0,0,0,0,0,0,5 S", "0,0,0,1,0,0,0,5 S", 1))
	events = play(t, s, "a8", "d2")
	want := "1 sow a8>b4 5; 1 sow d2>c4 5; 5 move c4>a8 2; 5 move d4>a8 4; 6 sow a8>b3 6; " +
		"5 move b4>d2 2; 5 move a4>d2 1; 6 sow d2>c2 3; 9 sow c2>c4 2"
	if got := stepEventsText(events); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	wantPosition(t, s, "2,0,0,0,0,2,2,0/2,0,2,1,0,0,0,0/0,0,1,1,2,2,2,2/0,0,0,0,0,0,0,0 N")
	wantLegal(t, s, "c1 c3 d1 d6 d7")
}

func TestChoroClockwiseFirstAfterRelay(t *testing.T) {
	// South's b3 (3): b2 1→2, b1 0→1, a1 1→2 last: occupied, an outer hole,
	// so a relay from a1. a1 (2) clockwise would drop b1 1→2, b2 2→3 and
	// land in opposition (c2 1, d2 1).
	const pos = "0,1,0,0,2,0,0,0/0,1,0,0,0,0,0,0/0,1,3,0,0,0,0,0/1,0,0,0,0,0,0,0 S"

	// cw=first never offers clockwise after a relay: a1 (2) is sown
	// anticlockwise, a2 0→1, a3 0→1 last: empty, the turn ends.
	s := game(t, "choro", pos)
	wantLegal(t, s, "b3")
	events := play(t, s, "b3")
	if got, want := eventsText(events), "sow b3>a1 3; sow a1>a3 2"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantPosition(t, s, "0,1,0,0,2,0,0,0/0,1,0,0,0,0,0,0/1,2,0,0,0,0,0,0/0,1,1,0,0,0,0,0 N")
	if st := s.Stats(); st.ClockwiseLimited != 1 {
		t.Errorf("ClockwiseLimited %d, want 1", st.ClockwiseLimited)
	}

	// cw=any offers it: a1cw captures c2 and d2 (2) into a1; a1 (2)
	// clockwise would now land in b2 facing empty holes, and b2cw (3) would
	// end in the empty b5: a1 is sown anticlockwise, a2, a3.
	s = game(t, "choro cw=any", pos)
	play(t, s, "b3")
	wantLegal(t, s, "a1 a1cw")
	wantToMove(t, s, mancala.South)
	events = play(t, s, "a1cw")
	if got, want := eventsText(events), "sow a1>b2 2cw; move c2>a1 1; move d2>a1 1; sow a1>a3 2"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantPosition(t, s, "0,0,0,0,2,0,0,0/0,0,0,0,0,0,0,0/2,3,0,0,0,0,0,0/0,1,1,0,0,0,0,0 N")
}

func TestChoroClockwiseFirstOneLateLap(t *testing.T) {
	// a1 (8) anticlockwise: a2..a8 0→1, b8 1→2 last: in opposition (c8 1,
	// d8 1): 2 stones into a1. The turn has sown one lap, anticlockwise:
	// one clockwise lap is still allowed. a1 (2) clockwise: b1 0→1,
	// b2 1→2, facing c2 1, d2 2: offered.
	const pos = "0,2,1,0,2,0,0,1/0,1,1,0,0,0,0,1/0,1,1,0,0,0,0,1/8,0,0,0,0,0,0,0 S"
	s := game(t, "choro", pos)
	wantLegal(t, s, "a1 a1cw") // a1cw (8) would end in b8, facing c8 and d8
	events := play(t, s, "a1")
	if got, want := eventsText(events), "sow a1>b8 8; move c8>a1 1; move d8>a1 1"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantLegal(t, s, "a1 a1cw")
	// a1cw: the late clockwise lap, capturing c2, d2 (3) into a1. a1 (3)
	// clockwise would land in b3 facing c3 1, d3 1, but that would be a
	// second late clockwise lap: refused (and b2cw, the switch, would end
	// in the empty b4). a1 (3) anticlockwise: a2 2, a3 2, a4 1→2 last:
	// relay a4 (2): a5 2, a6 2: relay a6 (2): a7 2, a8 2: relay a8 (2):
	// b8 3, b7 0→1 last: empty, the end.
	events = play(t, s, "a1cw")
	if got, want := eventsText(events), "sow a1>b2 2cw; move c2>a1 1; move d2>a1 2; sow a1>a4 3; sow a4>a6 2; sow a6>a8 2; sow a8>b7 2"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantPosition(t, s, "0,0,1,0,2,0,0,0/0,0,1,0,0,0,0,0/1,2,1,0,0,0,1,3/0,2,2,0,2,0,2,0 N")
	if st := s.Stats(); st.ClockwiseLimited != 1 {
		t.Errorf("ClockwiseLimited %d, want 1", st.ClockwiseLimited)
	}

	// cw=any offers the second clockwise lap.
	s = game(t, "choro cw=any", pos)
	play(t, s, "a1", "a1cw")
	wantLegal(t, s, "a1 a1cw")
}

func TestChoroClockwiseChain(t *testing.T) {
	// A turn that begins clockwise may chain clockwise captures.
	// a1cw (2): b1 0→1, b2 1→2, facing c2 1, d2 2: 3 into a1.
	const pos = "0,2,4,3,1,0,2,2/0,1,4,2,1,0,0,2/0,1,1,1,1,0,0,1/2,0,0,0,0,0,0,0 S"
	s := game(t, "choro", pos)
	wantLegal(t, s, "a1 a1cw")
	play(t, s, "a1cw")
	// a1 (3) clockwise would end in b3 facing c3 4, d3 4: every lap so far
	// was clockwise, so it is offered; so is the switch b2cw (2: b3, b4
	// last, facing c4 2, d4 3).
	wantPosition(t, s, "0,0,4,3,1,0,2,2/0,0,4,2,1,0,0,2/1,2,1,1,1,0,0,1/3,0,0,0,0,0,0,0 S")
	wantLegal(t, s, "a1 a1cw b2cw")
	play(t, s, "a1cw")
	// b1 2, b2 3, b3 2 last: 8 into a1. a1 (8) clockwise would end in b8
	// facing c8 2, d8 2; b2cw (3) would end in b5 facing c5 1, d5 1.
	wantPosition(t, s, "0,0,0,3,1,0,2,2/0,0,0,2,1,0,0,2/2,3,2,1,1,0,0,1/8,0,0,0,0,0,0,0 S")
	wantLegal(t, s, "a1 a1cw b2cw")
	// Anticlockwise now: a2..a8 0→1, b8 1→2 last, facing c8, d8: 4 into
	// a1. An anticlockwise capture offers no switch; one clockwise lap is
	// still allowed, in a turn that began clockwise too: a1 (4) clockwise
	// would end in b4 facing c4 2, d4 3.
	play(t, s, "a1")
	wantLegal(t, s, "a1 a1cw")
	// a1cw: b1 3, b2 4, b3 3, b4 2 last: 5 into a1. Clockwise again (a1
	// (5) would end in b5 facing c5 1, d5 1) is refused: that lap was the
	// late one. a1 (5): a2..a6 1→2, last a6: relay a6 (2): a7 2, a8 2:
	// relay a8 (2): b8 3, b7 0→1: empty, the end.
	events := play(t, s, "a1cw")
	if got, want := eventsText(events), "sow a1>b4 4cw; move c4>a1 2; move d4>a1 3; sow a1>a6 5; sow a6>a8 2; sow a8>b7 2"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantPosition(t, s, "0,0,0,0,1,0,2,0/0,0,0,0,1,0,0,0/3,4,3,2,1,0,1,3/0,2,2,2,2,0,2,0 N")

	// cw=any would have offered that last clockwise lap.
	s = game(t, "choro cw=any", pos)
	play(t, s, "a1cw", "a1cw", "a1", "a1cw")
	wantLegal(t, s, "a1 a1cw")
}

func TestChoroLeaveSwitchThenOtherHole(t *testing.T) {
	// a1cw (2): b1 1→2, b2 1→2 last, facing c2 1, d2 1: 2 into a1.
	const pos = "0,1,0,1,2,0,2,0/0,1,0,1,1,0,0,0/1,1,0,1,1,0,2,0/2,0,0,0,0,0,0,0 S"
	s := game(t, "choro", pos)
	wantLegal(t, s, "a1 a1cw b7")
	play(t, s, "a1cw")
	// a1 (2) clockwise would land in b2 facing the emptied c2, d2: not
	// offered. The switch: leave the 2 stones in a1 and sow b2 (2)
	// clockwise instead, b3 0→1, b4 1→2 last, facing c4 1, d4 1.
	wantPosition(t, s, "0,0,0,1,2,0,2,0/0,0,0,1,1,0,0,0/2,2,0,1,1,0,2,0/2,0,0,0,0,0,0,0 S")
	wantLegal(t, s, "a1 b2cw")
	if s.AtTurnStart() || s.Pending() == "" {
		t.Fatalf("the switch is a decision within the turn: pending %q", s.Pending())
	}
	play(t, s, "b2cw")
	// c4, d4 (2) go into b2, the switch lap's origin. b2cw (2) would end in
	// b4 facing empty holes, a1cw (2) in b2 facing empty holes. Stones were
	// left, so every other hole of 2 or more may be sown anticlockwise
	// instead of b2: a1 (the stones left), b1, b4, b7.
	wantPosition(t, s, "0,0,0,0,2,0,2,0/0,0,0,0,1,0,0,0/2,2,1,2,1,0,2,0/2,0,0,0,0,0,0,0 S")
	wantLegal(t, s, "a1 b1 b2 b4 b7")
	// b7 (2): b6 0→1, b5 1→2 last, facing c5 1, d5 2: 3 into b7. That was
	// the anticlockwise lap after a capture: no other hole is offered again,
	// so b7 (3) is sown at once: b6 2, b5 3, b4 2→3 last (c4, d4 empty):
	// relay b4 (3): b3 2, b2 3, b1 2→3 last: relay b1 (3): a1 3, a2 0→1,
	// a3 0→1 last: empty, the end.
	events := play(t, s, "b7")
	if got, want := eventsText(events), "sow b7>b5 2; move c5>b7 1; move d5>b7 2; sow b7>b4 3; sow b4>b1 3; sow b1>a3 3"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	wantPosition(t, s, "0,0,0,0,0,0,2,0/0,0,0,0,0,0,0,0/0,3,2,0,3,2,0,0/3,1,1,0,0,0,0,0 N")
	if st := s.Stats(); st.Switches != 1 || st.OtherHoles != 1 {
		t.Errorf("stats %+v: want 1 switch and 1 other hole", st)
	}

	// leave=no: after a1cw no switch, so a1 (2) is sown anticlockwise at
	// once: a2 0→1, a3 0→1, the end.
	s = game(t, "choro leave=no", pos)
	play(t, s, "a1cw")
	wantPosition(t, s, "0,0,0,1,2,0,2,0/0,0,0,1,1,0,0,0/2,2,0,1,1,0,2,0/0,1,1,0,0,0,0,0 N")
}

func TestChoroOpeningTags(t *testing.T) {
	// Sequential: "S opening" before South's opening, "N opening" after it,
	// both accepted by SetPosition.
	s := game(t, "choro opening=sequential", choroStart+" S opening")
	wantLegal(t, s, "a1 a2 a3 a4 a5 a6 a7 a8")
	play(t, s, "a1")
	mid := s.Position()
	if !strings.HasSuffix(mid, " N opening") || !s.AtTurnStart() {
		t.Fatalf("after South's sequential opening: %s (turn start %v), want N opening at a turn start", mid, s.AtTurnStart())
	}
	legal := legalText(s)
	s2 := game(t, "choro opening=sequential", mid)
	wantPosition(t, s2, mid)
	wantLegal(t, s2, legal)
	if legal == "" || strings.ContainsAny(legal, "abc") { // North's outer row, anticlockwise only
		t.Errorf("North's sequential opening offers %q", legal)
	}

	// Simultaneous: "S opening" is accepted; "N opening" is what a state
	// between the two choices prints, and SetPosition refuses it.
	s = game(t, "choro", choroStart+" S opening")
	if !s.InSimultaneousOpening() {
		t.Fatal("S opening does not start the simultaneous opening")
	}
	play(t, s, "a1")
	wantPosition(t, s, choroStart+" N opening")
	err := s.Clone().SetPosition(choroStart + " N opening")
	var pe *mancala.PositionError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), `"S opening"`) || !strings.Contains(err.Error(), "mid-turn") {
		t.Errorf("SetPosition(N opening) under opening=simultaneous: %v (%T), want a PositionError naming S opening and mid-turn", err, err)
	}
	// After the opening no tag is printed, and the position sets again.
	play(t, s, "d8")
	after := s.Position()
	if strings.Contains(after, "opening") {
		t.Fatalf("after the opening: %s", after)
	}
	wantPosition(t, game(t, "choro", after), after)
	wantLegal(t, game(t, "choro", after), legalText(s))
}
