package search

import (
	"context"
	"fmt"
	"time"

	"matombo/mancala"
)

// Verdict is the game-theoretic value of a position for its side to move.
type Verdict int8

// The verdicts. Unknown is a position the solver could not prove.
const (
	Loss    Verdict = -1
	Draw    Verdict = 0
	Win     Verdict = 1
	Unknown Verdict = 2
)

func (v Verdict) String() string {
	switch v {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return "unknown"
}

// ActionBounds are the proven bounds of one root action's value for the
// side to move: Lower <= value <= Upper, each -1, 0 or +1.
type ActionBounds struct {
	Action       mancala.Action
	Lower, Upper int
}

// Solution is what the endgame solver proved about a position.
type Solution struct {
	Value   Verdict        // the value for the side to move, or Unknown
	Best    mancala.Action // an action achieving Value when it is proven
	Actions []ActionBounds // the bounds of every legal action
	Depth   int            // the horizon, in decisions, of the last completed pass
	Nodes   int            // nodes visited
}

// Solver proves exact values of positions by depth-bounded search: a pass
// that counts the horizon as a loss for the side to move at the root gives a
// lower bound of the value, a pass that counts it as a win gives an upper
// bound, and the horizon grows until the bounds meet. The value is exact
// under the rules' repetition and turn-limit safeguards: the transposition
// table key includes the turn count and the turn-start positions on the
// path, so positions with different histories are never confused. Actions
// are tried in the order of the best action an earlier pass found, the
// stones they win at once, and the cutoffs they made so far. It is meant
// for positions with few stones, where lines end soon.
type Solver struct {
	tt      *table
	states  []*mancala.State
	legal   [][]mancala.Action
	keys    [][]int32
	scratch *mancala.State
	history [2][1 << 11]int32 // cutoffs by action, for move ordering within one Solve
	clk     *clock
	budget  int
	nodes   int
	stop    bool
	root    mancala.Player
	pass    int // -1: horizon is a loss for root; +1: a win
}

// NewSolver returns a solver whose table has 2^tableBits entries (8 to 26).
func NewSolver(tableBits int) (*Solver, error) {
	if tableBits < 8 || tableBits > 26 {
		return nil, fmt.Errorf("search: solver table bits %d out of range; use 8 to 26", tableBits)
	}
	return &Solver{tt: newTable(tableBits)}, nil
}

// Solve proves what it can about s within the limits (Nodes, Depth and
// MoveTime; a zero Depth means up to MaxDepth).
func (sv *Solver) Solve(ctx context.Context, s *mancala.State, lim Limits) (Solution, error) {
	return sv.solveFrom(ctx, s, lim, 1)
}

// solveFrom is Solve starting at horizon from: the bounds a horizon proves
// hold at every deeper one, so a caller that searched the smaller horizons
// already may skip them.
func (sv *Solver) solveFrom(ctx context.Context, s *mancala.State, lim Limits, from int) (Solution, error) {
	if err := begin(s, lim); err != nil {
		return Solution{Value: Unknown}, err
	}
	clk := newClock(ctx, lim)
	sv.clk, sv.budget, sv.nodes, sv.stop = &clk, lim.Nodes, 0, false
	sv.root = s.ToMove()
	if len(sv.states) == 0 || sv.states[0].Ruleset() != s.Ruleset() {
		sv.states = make([]*mancala.State, MaxDepth+2)
		sv.legal = make([][]mancala.Action, MaxDepth+2)
		sv.keys = make([][]int32, MaxDepth+2)
		sv.scratch = s.Clone()
		for i := range sv.states {
			sv.states[i] = s.Clone()
		}
	}
	sv.states[0].CopyFrom(s)
	sv.history = [2][1 << 11]int32{}
	legal := s.Legal(nil)
	sol := Solution{Value: Unknown, Actions: make([]ActionBounds, len(legal))}
	for i, a := range legal {
		sol.Actions[i] = ActionBounds{a, -1, 1}
	}
	maxDepth := MaxDepth
	if lim.Depth > 0 {
		maxDepth = lim.Depth
	}
	for d := max(from, 1); d <= maxDepth && sol.Value == Unknown; d++ {
		for _, pass := range []int{-1, 1} {
			sv.pass = pass
			sv.tt.newGeneration()
			for i := range sol.Actions {
				ab := &sol.Actions[i]
				if ab.Lower == ab.Upper {
					continue
				}
				v := sv.rootAction(ab.Action, d)
				if sv.stop {
					sol.Nodes = sv.nodes
					return sol, nil
				}
				if pass < 0 {
					ab.Lower = max(ab.Lower, v)
				} else {
					ab.Upper = min(ab.Upper, v)
				}
			}
		}
		sol.Depth = d
		sol.Value, sol.Best = summarize(sol.Actions)
	}
	sol.Nodes = sv.nodes
	return sol, nil
}

// summarize returns the proven value of the root from its actions' bounds.
func summarize(acts []ActionBounds) (Verdict, mancala.Action) {
	lo, hi := -2, -2
	var best mancala.Action
	for _, ab := range acts {
		if ab.Lower > lo {
			lo, best = ab.Lower, ab.Action
		}
		hi = max(hi, ab.Upper)
	}
	if lo == 1 || lo == hi {
		return Verdict(lo), best
	}
	return Unknown, 0
}

func (sv *Solver) rootAction(a mancala.Action, d int) int {
	s, child := sv.states[0], sv.states[1]
	child.CopyFrom(s)
	if err := child.Apply(a); err != nil {
		panic("search: Legal offered an illegal action: " + err.Error())
	}
	path := pathStep(0, child)
	if child.ToMove() == s.ToMove() {
		return sv.solve(1, d-1, -1, 1, path)
	}
	return -sv.solve(1, d-1, -1, 1, path)
}

// pathStep adds s to the path key when it is at the start of a turn.
func pathStep(path uint64, s *mancala.State) uint64 {
	if s.AtTurnStart() && !s.IsOver() {
		path += mix64(s.Hash())
	}
	return path
}

func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// solve returns the value (-1, 0, +1) of states[ply] for its side to move,
// the horizon counted as the pass says.
func (sv *Solver) solve(ply, depth, alpha, beta int, path uint64) int {
	sv.nodes++
	if (sv.budget > 0 && sv.nodes >= sv.budget) || (sv.nodes&1023 == 0 && sv.clk.expired()) {
		sv.stop = true
	}
	if sv.stop {
		return 0
	}
	s := sv.states[ply]
	if s.IsOver() {
		return outcomeFor(s, s.ToMove())
	}
	if depth <= 0 || ply >= MaxDepth {
		if s.ToMove() == sv.root {
			return sv.pass
		}
		return -sv.pass
	}
	key := s.Hash() ^ mix64(path^uint64(s.Turns())<<32)
	if e, ok := sv.tt.probe(key); ok && int(e.depth) >= depth {
		sc := int(e.score)
		if e.cuts(sc, alpha, beta) {
			return sc
		}
	}
	alphaOrig := alpha
	legal := s.Legal(sv.legal[ply][:0])
	sv.legal[ply] = legal
	me := s.ToMove()
	if len(legal) > 1 { // the best action of an earlier pass first, then by cutoffs so far
		ttMove := sv.tt.move(key)
		keys := sv.keys[ply][:0]
		for _, a := range legal {
			k := sv.history[me][a&(1<<11-1)]
			if depth >= 2 {
				k += int32(sv.gain(s, a)) << 16
			}
			if a == ttMove {
				k = 1 << 30
			}
			keys = append(keys, k)
		}
		sv.keys[ply] = keys
		sortByKeys(legal, keys)
	}
	best, bestA := -2, legal[0]
	child := sv.states[ply+1]
	for _, a := range legal {
		child.CopyFrom(s)
		if err := child.Apply(a); err != nil {
			panic("search: Legal offered an illegal action: " + err.Error())
		}
		p := pathStep(path, child)
		var v int
		if child.ToMove() == me {
			v = sv.solve(ply+1, depth-1, alpha, beta, p)
		} else {
			v = -sv.solve(ply+1, depth-1, -beta, -alpha, p)
		}
		if sv.stop {
			return 0
		}
		if v > best {
			best, bestA = v, a
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			sv.history[me][a&(1<<11-1)] += int32(depth * depth)
			break
		}
	}
	sv.tt.store(key, depth, best, boundOf(best, alphaOrig, beta), bestA)
	return best
}

// gain returns the stones the side to move gains over the opponent by
// playing a (a win or loss counts as 1000 stones), for move ordering.
func (sv *Solver) gain(s *mancala.State, a mancala.Action) int {
	me := s.ToMove()
	sc := sv.scratch
	sc.CopyFrom(s)
	if err := sc.Apply(a); err != nil {
		panic("search: Legal offered an illegal action: " + err.Error())
	}
	if sc.IsOver() {
		return outcomeFor(sc, me) * 1000
	}
	return (sc.Stones(me) - sc.Stones(me.Other())) - (s.Stones(me) - s.Stones(me.Other()))
}

// SolverPlayer plays proven wins found by the endgame solver within a share
// of its time, avoids actions proven lost, and otherwise defers to another
// player. It solves only positions with at most MaxStones stones on the
// board.
type SolverPlayer struct {
	Solver    *Solver
	Fallback  Player
	MaxStones int     // solve only when the board holds at most this many stones
	Share     float64 // share of the move time (or nodes) given to the solver, 0 to 1
	last      Solution
}

// LastSolution returns what the solver proved on the last Choose (a zero
// Solution when it did not run).
func (sp *SolverPlayer) LastSolution() Solution { return sp.last }

// Choose implements Player.
func (sp *SolverPlayer) Choose(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error) {
	if err := begin(s, lim); err != nil {
		return 0, err
	}
	sp.last = Solution{Value: Unknown}
	if s.Stones(mancala.South)+s.Stones(mancala.North) > sp.MaxStones {
		return sp.Fallback.Choose(ctx, s, lim)
	}
	sl := Limits{Depth: lim.Depth, Nodes: int(float64(lim.Nodes) * sp.Share), MoveTime: time.Duration(float64(lim.MoveTime) * sp.Share)}
	if sl.Nodes == 0 && sl.MoveTime == 0 && sl.Depth == 0 {
		sl.Nodes = 200_000
	}
	start := time.Now()
	sol, err := sp.Solver.Solve(ctx, s, sl)
	if err != nil {
		return 0, err
	}
	sp.last = sol
	if sol.Value == Win || (sol.Value != Unknown && sol.Value != Loss) {
		return sol.Best, nil
	}
	rest := lim
	if rest.MoveTime > 0 {
		rest.MoveTime = max(rest.MoveTime-time.Since(start), time.Millisecond)
	}
	a, err := sp.Fallback.Choose(ctx, s, rest)
	if err != nil || sol.Value == Loss {
		return a, err
	}
	for _, ab := range sol.Actions { // never play an action proven lost while another may not be
		if ab.Action == a && ab.Upper < 0 {
			for _, alt := range sol.Actions {
				if alt.Upper >= 0 {
					return alt.Action, nil
				}
			}
		}
	}
	return a, nil
}
