package mancala

import (
	"math/bits"
	"strings"
)

// Choro (RULES.md §3.4): captures "in opposition" put the opponent's stones
// into the lap's origin, which is lifted next; two special holes may be sown
// clockwise when that lands in opposition; each player's first turn is an
// opening with back-captures from the outer row. The options decide when
// clockwise laps are allowed (cw), whether captured stones may be left for
// the other special hole (leave) and whether both players open at once
// (opening: choro_opening.go).

// turnFlags records what a Choro turn has done so far, as far as it decides
// what the rest of the turn may do.
type turnFlags uint8

const (
	// flagAnticlockwise: a lap of this turn was sown anticlockwise.
	flagAnticlockwise turnFlags = 1 << iota
	// flagLateClockwise: a clockwise lap was sown after an anticlockwise
	// one (cw=first allows one).
	flagLateClockwise
	// flagLeft: stones were left in a special hole (a leave switch).
	flagLeft
	// flagLeaveOver: after stones were left, a lap after a capture was sown
	// anticlockwise: no more switches or other holes this turn.
	flagLeaveOver
	// flagCaptured: the pending decision follows a capture into its hole.
	flagCaptured
	// flagLastClockwise: the lap before the pending decision was clockwise.
	flagLastClockwise
)

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

// inOpposition reports whether loop position i of p, where a lap's last stone
// has just landed in an occupied hole, is in opposition: an inner hole with
// stones in both the opponent's holes opposite it.
func (s *State) inOpposition(p Player, i int) bool {
	r := s.r
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
	return count >= 2 && s.inOpposition(p, last)
}

// choroTurn starts a turn from loop position o.
func (s *State) choroTurn(o int, clockwise bool) {
	s.openingTurn = !s.openingDone[s.side]
	s.reachedInner = !s.openingTurn
	s.choroFlags = 0
	if s.openingTurn {
		s.openingDone[s.side] = true
		s.rehashMarks()
		s.irreversible = true
	}
	s.choroLaps(o, clockwise)
}

// choroLaps sows from loop position o and goes on until the turn ends or the
// player has a choice of how to go on.
func (s *State) choroLaps(o int, clockwise bool) {
	r, p := s.r, s.side
	for {
		var last int
		if clockwise {
			if s.choroFlags&flagAnticlockwise != 0 {
				s.choroFlags |= flagLateClockwise
			}
			last = s.sowClockwise(p, o)
		} else {
			s.choroFlags |= flagAnticlockwise
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
		captured := false
		switch {
		case !s.reachedInner: // opening back-capture from the outer row
			if opp := r.loop - 1 - last; s.board[p^1][opp] > 0 {
				s.moveStones(p^1, opp, p, o)
				s.stats.Captures++
				next = o
			}
		case s.inOpposition(p, last):
			s.moveStones(p^1, r.loop-1-last, p, o)
			s.moveStones(p^1, last, p, o)
			s.stats.Captures++
			next, captured = o, true
		}
		if !s.openingTurn {
			s.choroFlags &^= flagCaptured | flagLastClockwise
			if captured {
				s.choroFlags |= flagCaptured
			}
			if clockwise {
				s.choroFlags |= flagLastClockwise
			}
			s.pending = next
			if !r.cwAny && r.isSpecial(p, next) && !s.clockwiseAllowed() && s.cwCaptures(next) {
				s.stats.ClockwiseLimited++
			}
			if s.hasLapChoice() {
				s.phase = phaseDirection
				return
			}
		}
		o, clockwise = next, false
	}
}

// clockwiseAllowed reports whether the cw option allows a clockwise lap for
// the pending decision: cw=any always; cw=first only after a capture, and
// once the turn has sown anticlockwise, only one more clockwise lap.
func (s *State) clockwiseAllowed() bool {
	if s.r.cwAny {
		return true
	}
	f := s.choroFlags
	return f&flagCaptured != 0 && (f&flagAnticlockwise == 0 || f&flagLateClockwise == 0)
}

// clockwiseOffered reports whether the pending decision may sow its hole
// clockwise.
func (s *State) clockwiseOffered() bool {
	o := s.pending
	return s.r.isSpecial(s.side, o) && s.clockwiseAllowed() && s.board[s.side][o] >= 2 && s.cwCaptures(o)
}

// switchOffered returns the other special hole when the pending decision may
// leave the captured stones and sow that hole clockwise (leave=yes), or -1.
func (s *State) switchOffered() int {
	f := s.choroFlags
	if !s.r.leave || f&(flagCaptured|flagLastClockwise) != flagCaptured|flagLastClockwise || f&flagLeaveOver != 0 || !s.clockwiseAllowed() {
		return -1
	}
	y := s.r.otherSpecial(s.side, s.pending)
	if s.board[s.side][y] < 2 || !s.cwCaptures(y) {
		return -1
	}
	return y
}

// othersOffered returns the holes other than the pending one that the
// pending decision may sow anticlockwise instead (leave=yes, once stones were
// left and until a lap after a capture goes anticlockwise).
func (s *State) othersOffered() bitset {
	f := s.choroFlags
	if f&(flagLeft|flagCaptured|flagLeaveOver) != flagLeft|flagCaptured {
		return bitset{}
	}
	m := s.byteMask(s.side, 0xfe)
	m[s.pending>>6] &^= 1 << (s.pending & 63)
	return m
}

// hasLapChoice reports whether the decision before the lap lifting pending
// offers more than sowing it anticlockwise.
func (s *State) hasLapChoice() bool {
	if s.clockwiseOffered() {
		return true
	}
	if s.r.leave && s.choroFlags&flagCaptured != 0 {
		return s.switchOffered() >= 0 || s.othersOffered() != bitset{}
	}
	return false
}

// lapLegal appends the actions of the pending decision: the pending hole
// anticlockwise, clockwise where offered, the leave switch, other holes.
func (s *State) lapLegal(buf []Action) []Action {
	r, p := s.r, s.side
	buf = append(buf, r.acts[p][s.pending])
	if s.clockwiseOffered() {
		buf = append(buf, Clockwise(s.hole(p, s.pending)))
	}
	if y := s.switchOffered(); y >= 0 {
		buf = append(buf, Clockwise(s.hole(p, y)))
	}
	for w, m := range s.othersOffered() {
		for ; m != 0; m &= m - 1 {
			buf = append(buf, r.acts[p][w<<6|bits.TrailingZeros64(m)])
		}
	}
	return buf
}

// lapOffers reports whether the pending decision offers the action of the
// given kind on loop position i of the side to move.
func (s *State) lapOffers(kind ActionKind, i int) bool {
	switch kind {
	case KindHole:
		return i == s.pending || s.othersOffered().has(i)
	case KindClockwise:
		return (i == s.pending && s.clockwiseOffered()) || (i != s.pending && i == s.switchOffered())
	}
	return false
}

// decideLap plays the pending decision's action (already checked by refuse).
func (s *State) decideLap(kind ActionKind, i int) {
	f := s.choroFlags
	switch {
	case kind == KindClockwise && i != s.pending:
		s.choroFlags |= flagLeft
		s.stats.Switches++
	case kind == KindHole && f&(flagLeft|flagCaptured) == flagLeft|flagCaptured:
		s.choroFlags |= flagLeaveOver
		if i != s.pending {
			s.stats.OtherHoles++
		}
	}
	s.choroFlags &^= flagCaptured | flagLastClockwise
	s.choroLaps(i, kind == KindClockwise)
}

// lapPending describes the pending decision for people.
func (s *State) lapPending() string {
	h := s.hole(s.side, s.pending).String()
	var b strings.Builder
	b.WriteString("sow " + h + " anticlockwise")
	if s.clockwiseOffered() {
		b.WriteString(" or clockwise")
	}
	if y := s.switchOffered(); y >= 0 {
		b.WriteString(", or leave the stones in " + h + " and sow " + s.hole(s.side, y).String() + " clockwise")
	}
	if s.othersOffered() != (bitset{}) {
		b.WriteString(", or sow another hole of 2 or more anticlockwise")
	}
	return b.String()
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
