package mancala

// Choro (RULES.md §3.4): captures "in opposition" put the opponent's stones
// into the lap's origin, which is lifted next; two special holes may be sown
// clockwise when that lands in opposition; each player's first turn is an
// opening with back-captures from the outer row.

// clockwiseLegal appends the clockwise first actions of a Choro turn after
// the opening: a special hole whose clockwise lap lands in opposition.
func (s *State) clockwiseLegal(buf []Action) []Action {
	r, p := s.r, s.side
	for _, i := range r.special[p] {
		if s.board[p][i] >= 2 && s.cwCaptures(i) {
			buf = append(buf, Clockwise(s.hole(p, i)))
		}
	}
	return buf
}

// inOpposition reports whether loop position i of the side to move, where a
// lap's last stone has just landed in an occupied hole, is in opposition: an
// inner hole with stones in both the opponent's holes opposite it.
func (s *State) inOpposition(i int) bool {
	r, p := s.r, s.side
	q := &s.board[p^1]
	return isInner(p, i, r.n) && q[r.loop-1-i] > 0 && q[i] > 0
}

// cwCaptures reports whether sowing loop position o of the side to move
// clockwise would end in opposition, without sowing it.
func (s *State) cwCaptures(o int) bool {
	r, p := s.r, s.side
	b := &s.board[p]
	n := int(b[o])
	q, rem := 0, n
	if n >= r.loop {
		q, rem = n/r.loop, n%r.loop
	}
	last, count := o, q // rem == 0: the last stone is the origin's q-th
	if rem > 0 {
		last = o - rem
		if last < 0 {
			last += r.loop
		}
		count = int(b[last]) + q + 1
	}
	return count >= 2 && s.inOpposition(last)
}

// choroTurn starts a turn from loop position o.
func (s *State) choroTurn(o int, clockwise bool) {
	s.openingTurn = !s.openingDone[s.side]
	s.reachedInner = !s.openingTurn
	if s.openingTurn {
		s.openingDone[s.side] = true
		s.rehashMarks()
		s.irreversible = true
	}
	s.choroLaps(o, clockwise)
}

// choroLaps sows from loop position o and goes on until the turn ends or the
// player must choose a direction.
func (s *State) choroLaps(o int, clockwise bool) {
	r, p := s.r, s.side
	for {
		var last int
		if clockwise {
			last = s.sowClockwise(p, o)
		} else {
			if !s.reachedInner && s.reachesInner(o) {
				s.reachedInner = true
			}
			last = s.sow(p, o)
		}
		if s.board[p][last] < 2 { // an empty hole: the turn ends
			s.endTurn()
			return
		}
		if s.laps >= MaxLaps {
			s.cutAtLapLimit(p, last)
			return
		}
		next := last
		switch {
		case !s.reachedInner: // opening back-capture from the outer row
			if opp := r.loop - 1 - last; s.board[p^1][opp] > 0 {
				s.moveStones(p^1, opp, p, o)
				s.stats.Captures++
				next = o
			}
		case s.inOpposition(last):
			s.moveStones(p^1, r.loop-1-last, p, o)
			s.moveStones(p^1, last, p, o)
			s.stats.Captures++
			next = o
		}
		clockwise = false
		if !s.openingTurn && r.isSpecial(p, next) && s.cwCaptures(next) {
			s.phase, s.pending = phaseDirection, next
			return
		}
		o = next
	}
}

// reachesInner reports whether sowing loop position o, an outer hole, drops a
// stone into the inner row of the side to move.
func (s *State) reachesInner(o int) bool {
	r, p := s.r, s.side
	n := int(s.board[p][o])
	if p == South { // outer 0..n-1, inner from n
		return n >= r.n-o
	}
	return n >= r.loop-o // outer n..2n-1, inner from 0 after the wrap
}
