package mancala

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// MaxLaps is the most laps one turn may sow (RULES.md §2): the 1,000th lap is
// the last, and if it would relay the turn ends there with no capture.
const MaxLaps = 1000

// MaxTurns is the number of completed turns after which a game is
// adjudicated (RULES.md §4).
const MaxTurns = 2000

// phase is the kind of decision a State is waiting for.
type phase uint8

const (
	phaseStart        phase = iota // the first action of a turn: lift a hole
	phaseSetup                     // heads=choose: name a head (a turn of its own)
	phaseHead                      // an occupied head: relay from it or stop; pending: the head
	phasePick                      // whole-hole picks; pending: picks left
	phaseRemove                    // Nsolo stone removal; pending: stones left
	phaseDirection                 // Choro: how the next lap goes on; pending: the hole it lifts
	phaseOpeningNorth              // Choro simultaneous opening: North's choice; pending: South's
	phaseOver                      // the game has ended
)

// Result is the result of a game, as written in records.
type Result uint8

// The results. NoResult is a game still in play ("*").
const (
	NoResult Result = iota
	SouthWins
	NorthWins
	Draw
)

// String returns the result as in records and the protocol: "S", "N", "draw"
// or "*".
func (r Result) String() string {
	switch r {
	case SouthWins:
		return "S"
	case NorthWins:
		return "N"
	case Draw:
		return "draw"
	}
	return "*"
}

// Winner returns the winning player, and false for a draw or no result.
func (r Result) Winner() (Player, bool) {
	switch r {
	case SouthWins:
		return South, true
	case NorthWins:
		return North, true
	}
	return 0, false
}

func winFor(p Player) Result {
	if p == South {
		return SouthWins
	}
	return NorthWins
}

// EndReason says why a game ended.
type EndReason uint8

// The ways a game ends (RULES.md §4).
const (
	NotEnded   EndReason = iota
	NoMoves              // the side to move had no legal action and lost
	Repetition           // a position repeated (Nsolo: drawn; others: adjudicated)
	TurnLimit            // MaxTurns completed turns: adjudicated
)

// String describes the reason in a few words, such as "repetition".
func (e EndReason) String() string {
	switch e {
	case NoMoves:
		return "no legal action"
	case Repetition:
		return "repetition"
	case TurnLimit:
		return "turn limit"
	}
	return "not ended"
}

// Outcome is how a game ended.
type Outcome struct {
	Result Result
	Reason EndReason
}

// Stats counts what happened in a game since its start or its last SetPosition.
type Stats struct {
	Turns    int // completed turns, head-setup turns included
	Actions  int // written actions applied
	Laps     int // laps sown
	Drops    int // stones dropped by sowing
	Captures int // captures (a capture with its picks or removals counts once)
	Removed  int // stones taken off the board (captures, picks, removals)
	LapCuts  int // turns ended by the lap limit

	// Choro (RULES.md §3.4).
	SameStepOpenings int // simultaneous openings whose two sowings ended in the same step
	ClockwiseLimited int // decisions where cw=first withheld a clockwise lap that cw=any would offer
	Switches         int // leave=yes: stones left and the other special hole sown clockwise
	OtherHoles       int // leave=yes: another hole sown anticlockwise instead of the origin
}

// State is a game in progress: the board, whose decision it is and what
// kind, and what is needed to apply the rules' safeguards. Its methods never
// panic on a legal action; Apply refuses any other with an error.
//
// A State is a value of a few hundred bytes plus its repetition history; copy
// one with Clone or CopyFrom, not by assignment.
type State struct {
	r *rules

	board  [2][maxLoop]uint8 // board[p][i]: loop position i of player p
	stones [2]int            // stones on each player's two rows

	side    Player
	phase   phase
	pending int // see phase
	laps    int // laps sown in this turn

	heads        [2]uint64 // heads as bit masks of loop positions
	named        [2]int    // heads=choose: heads named so far
	openingDone  [2]bool   // Choro: the player has made the opening turn
	openingTurn  bool      // Choro: the turn in progress is the mover's opening
	reachedInner bool      // Choro: a stone of this turn reached the inner row
	choroFlags   turnFlags // Choro: what the turn so far allows next (choro.go)

	moves        bitset // turn start: the loop positions the side to move may lift
	boardHash    uint64
	markHash     uint64 // hash of the heads and opening flags (see rehashMarks)
	turns        int
	outcome      Outcome
	irreversible bool     // this turn made earlier positions unreachable
	history      []uint64 // hashes at turn starts since the last irreversible change
	stats        Stats
	trace        *[]Event // where ApplyTraced collects events; nil otherwise
}

// NewGame returns the start of a game of rs, or an error if rs is invalid.
func NewGame(rs Ruleset) (*State, error) {
	if err := rs.Validate(); err != nil {
		return nil, err
	}
	s := &State{r: compile(rs), history: make([]uint64, 0, 64)}
	s.Reset()
	return s, nil
}

// Reset returns s to the start position of its ruleset, keeping its buffers.
func (s *State) Reset() {
	h := s.history[:0]
	*s = *s.r.startState
	s.history = append(h, s.r.startState.history...)
}

// setStart sets s to the start position from scratch; compile keeps the
// result for Reset to copy.
func (s *State) setStart() {
	s.setBoard(s.r.start, s.r.heads, [2]int{}, [2]bool{}, South)
}

// setBoard makes s a game that starts a turn at the given board, heads,
// Choro opening flags and side to move, with a fresh history (repetitions,
// turn count, stats), and applies the turn-start checks.
func (s *State) setBoard(board [2][maxLoop]uint8, heads [2]uint64, named [2]int, openingDone [2]bool, side Player) {
	r := s.r
	s.board = board
	s.stones = [2]int{}
	for p := range 2 {
		for i := 0; i < r.loop; i++ {
			s.stones[p] += int(s.board[p][i])
		}
	}
	s.side, s.phase, s.pending, s.laps = side, phaseStart, 0, 0
	s.heads = heads
	s.named = named
	s.openingDone = openingDone
	s.openingTurn, s.reachedInner = false, false
	s.boardHash = boardHashOf(&s.board, r.loop)
	s.rehashMarks()
	s.turns = 0
	s.outcome = Outcome{}
	s.irreversible = false
	s.history = s.history[:0]
	s.stats = Stats{}
	s.beginTurn()
}

// Clone returns an independent copy of s.
func (s *State) Clone() *State {
	c := &State{}
	c.CopyFrom(s)
	return c
}

// CopyFrom makes s a copy of src, reusing s's history buffer.
func (s *State) CopyFrom(src *State) {
	h := s.history
	*s = *src
	s.history = append(h[:0], src.history...)
	s.trace = nil
}

// Ruleset returns the rules being played.
func (s *State) Ruleset() Ruleset { return s.r.rs }

// Size returns the number of columns.
func (s *State) Size() int { return s.r.n }

// ToMove returns the player whose decision it is.
func (s *State) ToMove() Player { return s.side }

// IsOver reports whether the game has ended.
func (s *State) IsOver() bool { return s.phase == phaseOver }

// Outcome returns how the game ended (Result NoResult while it is in play).
func (s *State) Outcome() Outcome { return s.outcome }

// AtTurnStart reports whether the next action is the first of a turn.
func (s *State) AtTurnStart() bool { return s.phase == phaseStart || s.phase == phaseSetup }

// InSetup reports whether the next action names a head (heads=choose).
func (s *State) InSetup() bool { return s.phase == phaseSetup }

// InOpening reports whether the side to move has yet to make its Choro
// opening turn (always false for other games).
func (s *State) InOpening() bool { return s.r.choro && !s.openingDone[s.side] }

// Turns returns the completed turns since the start or the last SetPosition.
func (s *State) Turns() int { return s.turns }

// LapsThisTurn returns the laps sown so far in the current turn.
func (s *State) LapsThisTurn() int { return s.laps }

// Stats returns the counters of the game so far.
func (s *State) Stats() Stats { return s.stats }

// Count returns the stones in hole h (0 for a hole off the board).
func (s *State) Count(h Hole) int {
	if !h.Valid(s.r.n) {
		return 0
	}
	p, i := loopIndex(h, s.r.n)
	return int(s.board[p][i])
}

// Stones returns the stones on p's two rows.
func (s *State) Stones(p Player) int { return s.stones[p] }

// IsHead reports whether h is a head (misoro) of its owner.
func (s *State) IsHead(h Hole) bool {
	if !h.Valid(s.r.n) {
		return false
	}
	p, i := loopIndex(h, s.r.n)
	return s.heads[p]>>i&1 != 0
}

// Pending describes the decision within a turn, for people: "" at a turn
// start, else what the next action decides.
func (s *State) Pending() string {
	switch s.phase {
	case phaseHead:
		return "relay from the head " + s.hole(s.side, s.pending).String() + " or stop"
	case phasePick:
		return fmt.Sprintf("take %s from the opponent's side", count(s.pending, "more hole"))
	case phaseRemove:
		return fmt.Sprintf("remove %s from the opponent's side", count(s.pending, "more stone"))
	case phaseDirection:
		return s.lapPending()
	case phaseOpeningNorth:
		return "choose your opening hole (South has chosen, unseen)"
	case phaseSetup:
		return "name a head in your outer row"
	}
	return ""
}

// count writes n and noun, with the noun in the plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func (s *State) hole(p Player, i int) Hole { return holeAt(p, i, s.r.n) }

// Legal appends the legal actions to buf and returns it; it returns buf
// unchanged when the game is over. The order is the board's, not sorted.
func (s *State) Legal(buf []Action) []Action {
	r, p := s.r, s.side
	switch s.phase {
	case phaseStart, phaseOpeningNorth:
		for w, m := range s.moves {
			for ; m != 0; m &= m - 1 {
				buf = append(buf, r.acts[p][w<<6|bits.TrailingZeros64(m)])
			}
		}
		if r.choro && s.openingDone[p] {
			buf = s.clockwiseLegal(buf)
		}
	case phaseSetup:
		for i := 0; i < r.loop; i++ {
			if !isInner(p, i, r.n) && s.heads[p]>>i&1 == 0 {
				buf = append(buf, HoleAction(s.hole(p, i)))
			}
		}
	case phaseHead:
		buf = append(buf, HoleAction(s.hole(p, s.pending)), Stop)
	case phasePick, phaseRemove:
		for w, m := range s.byteMask(p^1, 0xff) {
			for ; m != 0; m &= m - 1 {
				buf = append(buf, r.takes[p^1][w<<6|bits.TrailingZeros64(m)])
			}
		}
	case phaseDirection:
		buf = s.lapLegal(buf)
	}
	return buf
}

func (s *State) next(i int) int {
	if i++; i == s.r.loop {
		return 0
	}
	return i
}

// Apply plays one written action. An illegal action is refused with an error
// that says why and lists the legal actions; the state is then unchanged.
func (s *State) Apply(a Action) error {
	if s.phase == phaseOver {
		return &IllegalActionError{Action: a, Position: s.Position(), Over: true, Reason: fmt.Sprintf("the game is over (%s)", s.outcome.Result)}
	}
	h := a.Hole()
	if a.Kind() != KindStop && !h.Valid(s.r.n) {
		return s.illegal(a, fmt.Sprintf("the board has columns 1 to %d", s.r.n))
	}
	p, i := loopIndex(h, s.r.n)
	if why := s.refuse(a, p, i); why != "" {
		return s.illegal(a, why)
	}
	s.stats.Actions++
	switch s.phase {
	case phaseStart:
		switch {
		case s.r.simultaneous && !s.openingDone[s.side]:
			s.chooseOpening(i)
		case s.r.choro:
			s.choroTurn(i, a.Kind() == KindClockwise)
		default:
			s.tsoroLaps(i)
		}
	case phaseSetup:
		s.heads[p] |= 1 << i
		s.named[p]++
		s.rehashMarks()
		s.irreversible = true
		s.endTurn()
	case phaseHead:
		if a.Kind() == KindStop {
			s.endTurn()
		} else {
			s.tsoroLaps(i)
		}
	case phasePick:
		s.takeHole(p, i)
		s.pending--
		s.picks(s.pending)
	case phaseRemove:
		s.removeStones(p, i, 1)
		s.pending--
		s.removal(s.pending)
	case phaseDirection:
		s.decideLap(a.Kind(), i)
	case phaseOpeningNorth:
		s.playOpenings(s.pending, i)
	}
	return nil
}

// refuse returns why a (naming loop position i of player p) is illegal now,
// or "" if it is legal.
func (s *State) refuse(a Action, p Player, i int) string {
	r, me := s.r, s.side
	kind := a.Kind()
	switch s.phase {
	case phaseStart:
		if kind == KindClockwise && r.choro {
			if p != me {
				return "you may only sow your own holes"
			}
			if s.InOpening() {
				return "an opening turn sows anticlockwise only"
			}
			if !r.isSpecial(p, i) {
				return "only " + s.hole(p, r.special[p][0]).String() + " and " + s.hole(p, r.special[p][1]).String() + " may be sown clockwise"
			}
			if s.board[p][i] < 2 {
				return "a hole needs 2 or more stones to be sown"
			}
			if !s.cwCaptures(i) {
				return "clockwise sowing is allowed only when the last stone lands in opposition"
			}
			return ""
		}
		if kind != KindHole {
			return "a turn starts by lifting one of your holes"
		}
		if p != me {
			return "you may only sow your own holes"
		}
		if s.moves.has(i) {
			return ""
		}
		n := s.board[p][i]
		if r.choro {
			if s.InOpening() && isInner(p, i, r.n) {
				return "an opening turn lifts a hole of your outer row"
			}
			if n < 2 {
				return "a hole needs 2 or more stones to be sown (singletons never move)"
			}
			return ""
		}
		if n >= 2 {
			return ""
		}
		if n == 0 {
			return "the hole is empty"
		}
		for j := 0; j < r.loop; j++ {
			if s.board[p][j] >= 2 {
				return "a single stone may be lifted only when none of your holes has 2 or more"
			}
		}
		if s.board[p][s.next(i)] != 0 {
			return "a single stone may only be sown into an empty hole"
		}
		return ""
	case phaseSetup:
		if kind != KindHole || p != me || isInner(p, i, r.n) {
			return "name a hole of your own outer row as a head"
		}
		if s.heads[p]>>i&1 != 0 {
			return "that hole is already a head"
		}
		return ""
	case phaseHead:
		if kind == KindStop || (kind == KindHole && p == me && i == s.pending) {
			return ""
		}
		return "the last stone is in your head " + s.hole(me, s.pending).String() + ": relay from it or stop"
	case phasePick, phaseRemove:
		if kind != KindTake || p == me {
			return "take from a hole on the opponent's side (x and the hole)"
		}
		if s.board[p][i] == 0 {
			return "the hole is empty"
		}
		return ""
	case phaseDirection:
		if p == me && s.lapOffers(kind, i) {
			return ""
		}
		return "the next lap lifts " + s.hole(me, s.pending).String() + ": " + s.lapPending()
	case phaseOpeningNorth:
		if kind != KindHole || p != me || !s.moves.has(i) {
			return "North's opening lifts a hole of North's outer row with 2 or more stones"
		}
		return ""
	}
	return "the game is over"
}

func (s *State) illegal(a Action, why string) error {
	return &IllegalActionError{Action: a, Position: s.Position(), Legal: s.Legal(nil), Reason: why}
}

// lift empties loop position o of player p for a lap, counts the lap, drops
// whole laps of the handful into every hole at once, and returns the stones
// left to sow one by one.
func (s *State) lift(p Player, o int, clockwise bool) int {
	r := s.r
	b := &s.board[p]
	n := int(b[o])
	b[o] = 0
	s.stats.Laps++
	s.stats.Drops += n
	s.laps++
	s.boardHash -= uint64(n) * keys.board[p][o]
	if s.trace != nil {
		last := (o + n) % r.loop
		if clockwise {
			last = ((o-n)%r.loop + r.loop) % r.loop
		}
		s.event(EventSow, p, o, p, last, n, clockwise)
	}
	if n >= r.loop {
		q := n / r.loop
		for i := 0; i < r.loop; i++ {
			b[i] += uint8(q)
		}
		s.boardHash += uint64(q) * r.loopKey[p]
		n -= q * r.loop
	}
	return n
}

// sow lifts every stone from loop position o of player p and sows them
// anticlockwise, whole laps at once; it returns the position of the last stone.
func (s *State) sow(p Player, o int) int {
	r := s.r
	b := &s.board[p]
	n := s.lift(p, o, false)
	s.boardHash += r.prefix[p][o+1+n] - r.prefix[p][o+1]
	i := o
	for ; n > 0; n-- {
		if i++; i == r.loop {
			i = 0
		}
		b[i]++
	}
	return i
}

// sowClockwise is sow in the other direction.
func (s *State) sowClockwise(p Player, o int) int {
	r := s.r
	b := &s.board[p]
	n := s.lift(p, o, true)
	first := o - n // the run of holes o-n .. o-1
	if first < 0 {
		first += r.loop
	}
	s.boardHash += r.prefix[p][first+n] - r.prefix[p][first]
	i := o
	for ; n > 0; n-- {
		if i == 0 {
			i = r.loop
		}
		i--
		b[i]++
	}
	return i
}

// removeStones takes k stones from loop position i of player p off the board.
func (s *State) removeStones(p Player, i, k int) {
	if s.trace != nil {
		s.event(EventTake, p, i, p, i, k, false)
	}
	s.board[p][i] -= uint8(k)
	s.stones[p] -= k
	s.stats.Removed += k
	s.boardHash -= uint64(k) * keys.board[p][i]
}

// moveStones moves every stone of loop position i of player from into loop
// position j of player to, and returns how many.
func (s *State) moveStones(from Player, i int, to Player, j int) int {
	k := int(s.board[from][i])
	if s.trace != nil {
		s.event(EventMove, from, i, to, j, k, false)
	}
	s.board[from][i] = 0
	s.stones[from] -= k
	s.boardHash -= uint64(k) * keys.board[from][i]
	s.board[to][j] += uint8(k)
	s.stones[to] += k
	s.boardHash += uint64(k) * keys.board[to][j]
	return k
}

// takeHole takes the whole hole i of player p off the board.
func (s *State) takeHole(p Player, i int) int {
	k := int(s.board[p][i])
	s.removeStones(p, i, k)
	return k
}

// cutAtLapLimit ends the turn whose 1,000th lap (RULES.md §2) landed at loop
// position last of p and would relay. Callers test s.laps >= MaxLaps first,
// which keeps the test inline on the hot path.
func (s *State) cutAtLapLimit(p Player, last int) {
	s.stats.LapCuts++
	if s.trace != nil {
		s.event(EventLapLimit, p, last, p, last, 0, false)
	}
	s.endTurn()
}

// endTurn passes the move to the other player and starts their turn.
func (s *State) endTurn() {
	s.turns++
	s.stats.Turns++
	s.side ^= 1
	s.laps = 0
	s.pending = 0
	s.choroFlags = 0
	if s.irreversible {
		s.history = s.history[:0]
		s.irreversible = false
	}
	s.beginTurn()
}

// beginTurn applies the checks at the start of every turn (RULES.md §4) and
// sets the phase of the first decision.
func (s *State) beginTurn() {
	s.phase = phaseStart
	if s.r.chooseHeads && s.named[s.side] < 2 {
		s.phase = phaseSetup
	}
	if s.phase == phaseStart && !s.computeMoves() {
		s.finish(winFor(s.side^1), NoMoves)
		return
	}
	if s.r.simultaneous && !s.openingDone[North] && !s.northCanOpen() {
		s.finish(SouthWins, NoMoves)
		return
	}
	h := s.Hash()
	seen := 0
	for _, old := range s.history {
		if old == h {
			seen++
		}
	}
	s.history = append(s.history, h)
	if (s.r.nsolo && seen >= 1) || seen >= 2 {
		if s.r.nsolo {
			s.finish(Draw, Repetition)
		} else {
			s.adjudicate(Repetition)
		}
		return
	}
	if s.turns >= MaxTurns {
		s.adjudicate(TurnLimit)
	}
}

// computeMoves sets s.moves to the holes the side to move may lift to start
// a turn, and reports whether there is any.
func (s *State) computeMoves() bool {
	r, p := s.r, s.side
	moves := s.byteMask(p, 0xfe) // holes of 2 or more
	switch {
	case r.choro && !s.openingDone[p]:
		moves[0] &= r.outer[p][0]
		moves[1] &= r.outer[p][1]
	case r.choro, moves != bitset{}:
	case r.loop <= 64: // the singles rule: a single stone into an empty next hole
		occupied := s.byteMask(p, 0xff)[0]
		empty := ^occupied & (1<<r.loop - 1)
		emptyNext := empty>>1 | (empty&1)<<(r.loop-1)
		moves[0] = occupied & emptyNext // no hole holds 2 or more
	default:
		b := &s.board[p]
		for i := 0; i < r.loop; i++ {
			if b[i] == 1 && b[s.next(i)] == 0 {
				moves[i>>6] |= 1 << (i & 63)
			}
		}
	}
	s.moves = moves
	return moves != bitset{}
}

// byteMask returns the loop positions of p whose count has a bit of mask
// set: 0xff for occupied holes, 0xfe for holes of 2 or more.
func (s *State) byteMask(p Player, mask uint8) bitset {
	b := &s.board[p]
	m := uint64(mask) * 0x0101010101010101
	var out bitset
	for k := 0; k < s.r.loop; k += 8 {
		out[k>>6] |= uint64(nonzeroBytes(binary.LittleEndian.Uint64(b[k:])&m)) << (k & 63)
	}
	return out
}

func (s *State) adjudicate(why EndReason) {
	switch {
	case s.stones[South] > s.stones[North]:
		s.finish(SouthWins, why)
	case s.stones[North] > s.stones[South]:
		s.finish(NorthWins, why)
	default:
		s.finish(Draw, why)
	}
}

func (s *State) finish(r Result, why EndReason) {
	s.phase = phaseOver
	s.outcome = Outcome{Result: r, Reason: why}
}

// SortActionStrings sorts action names by byte order, as the protocol's
// legal command lists them.
func SortActionStrings(names []string) { slices.Sort(names) }

// bitset is a set of loop positions (at most maxLoop).
type bitset [2]uint64

func (b bitset) has(i int) bool { return b[i>>6]>>(i&63)&1 != 0 }

// nonzeroBytes returns a bit for each byte of w, set when the byte is not 0:
// eight holes tested at once.
func nonzeroBytes(w uint64) uint8 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	x := ((w&low7 + low7) | w) & high
	return uint8((x >> 7) * 0x0102040810204080 >> 56)
}
