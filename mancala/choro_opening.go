package mancala

// The simultaneous Choro opening (RULES.md §3.4, opening=simultaneous): the
// game's first turn is one turn of both players. South names an outer hole,
// then North, neither seeing the other's choice; then both openings are sown
// together in steps, one stone per player a step, each lap judged by the
// opening rule once its last stone has fallen, South's first. The player
// whose opening ends first plays the first turn of the main phase; South
// when both end in the same step.

// chooseOpening records South's opening hole (loop position i) and asks for
// North's. The board does not change until both have chosen.
func (s *State) chooseOpening(i int) {
	s.pending = i
	s.side = North
	s.phase = phaseOpeningNorth
	s.computeMoves() // North's outer holes of 2 or more: not empty (beginTurn checked)
}

// northCanOpen reports whether North has an outer hole of 2 or more stones,
// as the simultaneous opening needs.
func (s *State) northCanOpen() bool {
	m := s.byteMask(North, 0xfe)
	o := s.r.outer[North]
	return m[0]&o[0] != 0 || m[1]&o[1] != 0
}

// opener is one player's opening in progress during the lockstep sowing.
type opener struct {
	hand     int  // stones in hand, still to drop
	at       int  // loop position of the last drop
	origin   int  // loop position the lap was lifted from
	occupied bool // the hole of the last drop held stones before it
	laps     int  // laps sown in this opening
	ended    int  // the step in which the opening ended; 0 while it goes on
}

// playOpenings sows South's opening from loop position so and North's from
// no in lockstep, then starts the main phase.
func (s *State) playOpenings(so, no int) {
	var op [2]opener
	s.liftOpening(South, &op[South], so, 1)
	s.liftOpening(North, &op[North], no, 1)
	reached := [2]bool{}
	step := 0
	for op[South].ended == 0 || op[North].ended == 0 {
		step++
		for p := South; p <= North; p++ {
			o := &op[p]
			if o.ended != 0 {
				continue
			}
			o.at = s.next(o.at)
			o.occupied = s.board[p][o.at] > 0
			s.board[p][o.at]++
			s.boardHash += keys.board[p][o.at]
			o.hand--
			if isInner(p, o.at, s.r.n) {
				reached[p] = true
			}
		}
		for p := South; p <= North; p++ {
			if o := &op[p]; o.ended == 0 && o.hand == 0 {
				s.judgeOpening(p, o, reached[p], step)
			}
		}
	}
	s.openingDone = [2]bool{true, true}
	s.rehashMarks()
	s.irreversible = true
	first := South
	if op[North].ended < op[South].ended {
		first = North
	}
	if op[North].ended == op[South].ended {
		s.stats.SameStepOpenings++
	}
	s.side = first ^ 1 // endTurn passes the move to first
	s.endTurn()
}

// liftOpening lifts loop position i of p for a lap of p's opening, starting
// in the given step.
func (s *State) liftOpening(p Player, o *opener, i, step int) {
	n := int(s.board[p][i])
	s.board[p][i] = 0
	s.boardHash -= uint64(n) * keys.board[p][i]
	o.hand, o.at, o.origin = n, i, i
	o.laps++
	s.stats.Laps++
	s.stats.Drops += n
	if s.trace != nil {
		last := (i + n) % s.r.loop
		s.event(EventSow, p, i, p, last, n, false)
		s.stepEvent(step)
	}
}

// judgeOpening applies the opening rule to p's lap whose last stone fell in
// this step: it ends the opening, or captures and lifts the next lap.
func (s *State) judgeOpening(p Player, o *opener, reached bool, step int) {
	r := s.r
	last := o.at
	if !o.occupied || o.laps >= MaxLaps {
		if o.occupied {
			s.stats.LapCuts++
			if s.trace != nil {
				s.event(EventLapLimit, p, last, p, last, 0, false)
				s.stepEvent(step)
			}
		}
		o.ended = step
		return
	}
	next := last
	q := p ^ 1
	switch {
	case !reached: // back-capture from the outer row
		if opp := r.loop - 1 - last; s.board[q][opp] > 0 {
			s.moveStones(q, opp, p, o.origin)
			s.stepEvent(step)
			s.stats.Captures++
			next = o.origin
		}
	case s.inOpposition(p, last):
		s.moveStones(q, r.loop-1-last, p, o.origin)
		s.stepEvent(step)
		s.moveStones(q, last, p, o.origin)
		s.stepEvent(step)
		s.stats.Captures++
		next = o.origin
	}
	if s.board[p][next] == 0 { // the other player has just captured it
		o.ended = step
		return
	}
	s.liftOpening(p, o, next, step+1)
}

// stepEvent marks the last traced event, if tracing, as happening in the
// given step of the simultaneous opening.
func (s *State) stepEvent(step int) {
	if s.trace != nil {
		(*s.trace)[len(*s.trace)-1].Step = step
	}
}

// InSimultaneousOpening reports whether the next action is a choice of the
// simultaneous Choro opening: South's, at the start of the game's first turn,
// or North's, with South's choice made and held unseen.
func (s *State) InSimultaneousOpening() bool {
	return s.r.simultaneous && !s.openingDone[North] && (s.phase == phaseStart || s.phase == phaseOpeningNorth)
}

// OpeningChoiceHidden reports whether s holds South's choice of the
// simultaneous opening, which nobody but South may see until North has
// chosen: a program choosing for North must choose from BeforeOpeningChoice.
func (s *State) OpeningChoiceHidden() bool { return s.phase == phaseOpeningNorth }

// BeforeOpeningChoice returns a copy of s as it was before South's choice of
// the simultaneous opening, if s holds one (OpeningChoiceHidden); else a
// copy of s. A program choosing for North uses it, so that it cannot use
// South's choice.
func (s *State) BeforeOpeningChoice() *State {
	c := s.Clone()
	if c.phase == phaseOpeningNorth {
		c.side, c.phase, c.pending = South, phaseStart, 0
		c.stats.Actions--
		c.computeMoves()
	}
	return c
}
