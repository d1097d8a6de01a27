package mancala

import "math/bits"

// The Tsoro family: tsoro, misoro-tsoro, musoro-tsoro and nsolo (RULES.md
// §3.1–3.3; Nsolo's own steps are in nsolo.go). A turn sows from origin o and relays until the last stone lands
// in an empty hole, the player must choose at a head, or the lap limit ends it.

// tsoroLaps sows from loop position o of the side to move and goes on relaying
// until the turn ends or needs a decision.
func (s *State) tsoroLaps(o int) {
	p := s.side
	for {
		last := s.sow(p, o)
		if s.board[p][last] < 2 { // the hole was empty: the turn ends here
			s.tsoroCapture(p, last)
			return
		}
		if s.laps >= MaxLaps {
			s.cutAtLapLimit(p, last)
			return
		}
		if s.heads[p]>>last&1 != 0 {
			s.phase, s.pending = phaseHead, last
			return
		}
		o = last
	}
}

// tsoroCapture applies the capture of a turn that ended in loop position last,
// an empty hole before the last stone: the opposite inner hole, the opposite
// outer hole with it where the rules say so, then the picks or removals.
func (s *State) tsoroCapture(p Player, last int) {
	r := s.r
	if !isInner(p, last, r.n) {
		s.endTurn()
		return
	}
	q := p ^ 1
	inner := r.loop - 1 - last // the opponent's inner hole in the same column
	if s.board[q][inner] == 0 {
		s.endTurn()
		return
	}
	taken := s.takeHole(q, inner)
	if r.takeOuter {
		taken += s.takeHole(q, last) // the opponent's outer hole opposite
	}
	s.stats.Captures++
	s.irreversible = true
	switch {
	case r.removal:
		s.removal(taken)
	case r.picks > 0:
		s.picks(r.picks)
	default:
		s.endTurn()
	}
}

// picks asks for k more whole-hole picks on the opponent's side, or takes
// them all at once when they would take everything left, and ends the turn
// when none remain.
func (s *State) picks(k int) {
	r, q := s.r, s.side^1
	if k > 0 {
		m := s.byteMask(q, 0xff)
		if bits.OnesCount64(m[0])+bits.OnesCount64(m[1]) > k {
			s.phase, s.pending = phasePick, k
			return
		}
		for i := 0; i < r.loop; i++ {
			if s.board[q][i] > 0 {
				s.takeHole(q, i)
			}
		}
	}
	s.endTurn()
}
