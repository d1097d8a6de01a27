package mancala

// Nsolo (RULES.md §3.3) plays the Tsoro family's moves, relays, singles
// rule and inner-row capture (tsoro.go), with no heads; what is its own is
// here: after a capture of the opposite inner hole (and, with outer=yes, the
// outer one), the mover removes as many single stones again from anywhere
// on the opponent's side (with extra=K, K whole-hole picks instead, as
// Tsoro's bonus); and a position that repeats draws (State.beginTurn).

// removal asks for k more single-stone removals from the opponent's side
// (Nsolo), doing the forced ones itself: all stones when k or fewer remain,
// and every stone from the only occupied hole.
func (s *State) removal(k int) {
	r, q := s.r, s.side^1
	if k > 0 {
		if s.stones[q] <= k {
			for i := 0; i < r.loop; i++ {
				if s.board[q][i] > 0 {
					s.takeHole(q, i)
				}
			}
		} else {
			only := -1
			for i := 0; i < r.loop; i++ {
				if s.board[q][i] > 0 {
					if only >= 0 {
						s.phase, s.pending = phaseRemove, k
						return
					}
					only = i
				}
			}
			s.removeStones(q, only, k)
		}
	}
	s.endTurn()
}
