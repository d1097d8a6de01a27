package mancala

import "fmt"

// DecisionKind is the kind of decision a State waits for.
type DecisionKind uint8

// The kinds of decision (RULES.md §3, §5).
const (
	DecisionOver    DecisionKind = iota // the game has ended: no decision
	DecisionTurn                        // the first action of a turn: lift a hole (a Choro opening or the sequential one included)
	DecisionSetup                       // heads=choose: name a head
	DecisionHead                        // the last stone is in an occupied head: relay from it or stop
	DecisionPick                        // whole-hole picks on the opponent's side
	DecisionRemove                      // Nsolo: single stones to remove from the opponent's side
	DecisionLap                         // Choro: how the next lap goes on (direction, leave switch, another hole)
	DecisionOpening                     // the simultaneous Choro opening: North's choice, South's held unseen
)

var decisionNames = [...]string{"over", "start", "setup", "head", "pick", "remove", "direction", "opening"}

// String names the kind as the web app does: "over", "start", "setup",
// "head", "pick", "remove", "direction" or "opening".
func (k DecisionKind) String() string {
	if int(k) >= len(decisionNames) {
		return fmt.Sprintf("decision(%d)", uint8(k))
	}
	return decisionNames[k]
}

// Decision describes the decision a State waits for, as values: what kind,
// the hole it is about, and what it offers beyond the obvious. Legal lists
// the actions themselves.
type Decision struct {
	Kind DecisionKind
	// Hole is the head of a DecisionHead and the hole the next lap lifts in
	// a DecisionLap; zero otherwise.
	Hole Hole
	// Left counts the picks or stones still to take (DecisionPick,
	// DecisionRemove).
	Left int
	// Clockwise: a DecisionLap may sow Hole clockwise.
	Clockwise bool
	// Switch is the other special hole that a DecisionLap may sow clockwise,
	// leaving the captured stones in Hole (leave=yes); zero when it may not.
	Switch Hole
	// OtherHoles: a DecisionLap may sow another hole of 2 or more
	// anticlockwise instead of Hole (leave=yes, once stones were left).
	OtherHoles bool
}

// Decision returns the decision s waits for.
func (s *State) Decision() Decision {
	p := s.side
	switch s.phase {
	case phaseStart:
		return Decision{Kind: DecisionTurn}
	case phaseSetup:
		return Decision{Kind: DecisionSetup}
	case phaseHead:
		return Decision{Kind: DecisionHead, Hole: s.hole(p, s.pending)}
	case phasePick:
		return Decision{Kind: DecisionPick, Left: s.pending}
	case phaseRemove:
		return Decision{Kind: DecisionRemove, Left: s.pending}
	case phaseDirection:
		d := Decision{Kind: DecisionLap, Hole: s.hole(p, s.pending), Clockwise: s.clockwiseOffered(),
			OtherHoles: s.othersOffered() != bitset{}}
		if y := s.switchOffered(); y >= 0 {
			d.Switch = s.hole(p, y)
		}
		return d
	case phaseOpeningNorth:
		return Decision{Kind: DecisionOpening}
	}
	return Decision{Kind: DecisionOver}
}
