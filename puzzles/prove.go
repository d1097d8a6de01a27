package puzzles

import (
	"context"
	"errors"
	"fmt"

	"matombo/mancala"
	"matombo/search"
)

// solverBits sizes the solver's table: 2^16 entries, 1.5 MB. Puzzle
// proofs are small, and a fresh table per puzzle keeps every proof the
// same whatever was proven before it.
const solverBits = 16

// DefaultBudget is the solver nodes each action's proof may take.
const DefaultBudget = 60_000

// Value is what the solver proved of one action, for the side that played it.
type Value struct {
	Action  mancala.Action
	Verdict search.Verdict // win, draw, loss, or unknown within the budget
	Depth   int            // the horizon, in decisions after the action, at which it was proven
	Nodes   int
}

// Prover proves puzzle positions with the exact solver, each action's
// proof within Budget nodes.
type Prover struct {
	Budget int
	sv     *search.Solver
}

// NewProver returns a prover with a fresh solver table and the given budget
// (DefaultBudget when budget is 0 or less).
func NewProver(budget int) *Prover {
	if budget <= 0 {
		budget = DefaultBudget
	}
	sv, err := search.NewSolver(solverBits)
	if err != nil {
		panic("puzzles: solverBits is out of the solver's range: " + err.Error())
	}
	return &Prover{Budget: budget, sv: sv}
}

// ValueOf proves the value of playing a in s for the side to move in s.
func (pv *Prover) ValueOf(ctx context.Context, s *mancala.State, a mancala.Action) (Value, error) {
	me := s.ToMove()
	child := s.Clone()
	if err := child.Apply(a); err != nil {
		return Value{}, err
	}
	v := Value{Action: a}
	if child.IsOver() {
		v.Verdict = search.Draw
		if w, ok := child.Outcome().Result.Winner(); ok {
			v.Verdict = search.Loss
			if w == me {
				v.Verdict = search.Win
			}
		}
		return v, nil
	}
	sol, err := pv.sv.Solve(ctx, child, search.Limits{Nodes: pv.Budget})
	if err != nil {
		return Value{}, err
	}
	v.Verdict, v.Depth, v.Nodes = sol.Value, sol.Depth, sol.Nodes
	if sol.Value != search.Unknown && child.ToMove() != me {
		v.Verdict = -sol.Value
	}
	return v, nil
}

// MinLegal is the fewest first actions a puzzle offers: with two, a guess
// solves half of them.
const MinLegal = 3

// Classification is what a position is as a puzzle.
type Classification struct {
	Kind   string         // KindOnly or KindKeeps
	Action mancala.Action // the only first action that wins
	Values []Value        // every first action's value, in Legal's order
	Nodes  int            // the nodes of all the proofs
}

// ErrNotPuzzle is wrapped by Classify's error when a position is not a puzzle.
var ErrNotPuzzle = errors.New("not a puzzle")

// Classify proves every first action of s and says whether s is a puzzle:
// a turn start outside any opening, with MinLegal or more first actions, exactly
// one of them proven to win and every other proven not to.
func (pv *Prover) Classify(ctx context.Context, s *mancala.State) (Classification, error) {
	var c Classification
	switch {
	case s.IsOver():
		return c, fmt.Errorf("%w: the game is over", ErrNotPuzzle)
	case s.Decision().Kind != mancala.DecisionTurn:
		return c, fmt.Errorf("%w: the position is not at the start of a turn", ErrNotPuzzle)
	case s.InOpening():
		return c, fmt.Errorf("%w: the side to move has its opening to make", ErrNotPuzzle)
	}
	legal := s.Legal(nil)
	if len(legal) < MinLegal {
		return c, fmt.Errorf("%w: %d first actions; a puzzle offers %d or more", ErrNotPuzzle, len(legal), MinLegal)
	}
	wins, losses := 0, 0
	for _, a := range legal {
		v, err := pv.ValueOf(ctx, s, a)
		if err != nil {
			return c, err
		}
		c.Values = append(c.Values, v)
		c.Nodes += v.Nodes
		switch v.Verdict {
		case search.Win:
			wins++
			c.Action = a
		case search.Loss:
			losses++
		case search.Unknown:
			return c, fmt.Errorf("%w: %s is not proven within %d nodes", ErrNotPuzzle, a, pv.Budget)
		}
		if wins > 1 {
			return c, fmt.Errorf("%w: more than one first action wins", ErrNotPuzzle)
		}
	}
	switch {
	case wins == 0:
		return c, fmt.Errorf("%w: no first action wins", ErrNotPuzzle)
	case losses == len(legal)-1:
		c.Kind = KindOnly
	default:
		c.Kind = KindKeeps
	}
	return c, nil
}

// Continue plays the main line on from s, where the side to move or its
// opponent has a proven win, to the end of the game: the winner plays the
// proven win that ends the game soonest, the loser the action that holds
// out longest. It stops with an error when a proof does not fit the budget
// or the line exceeds maxLen decisions.
func (pv *Prover) Continue(ctx context.Context, s *mancala.State, winner mancala.Player, maxLen int) ([]mancala.Action, error) {
	s = s.Clone()
	var line []mancala.Action
	for !s.IsOver() {
		if len(line) >= maxLen {
			return line, fmt.Errorf("puzzles: the win takes more than %d decisions", maxLen)
		}
		a, err := pv.bestFor(ctx, s, winner)
		if err != nil {
			return line, err
		}
		if err := s.Apply(a); err != nil {
			return line, err
		}
		line = append(line, a)
	}
	if w, ok := s.Outcome().Result.Winner(); !ok || w != winner {
		return line, fmt.Errorf("puzzles: the main line does not end in %s's win", winner.Name())
	}
	return line, nil
}

// bestFor returns the winner's quickest proven win or the loser's longest
// defence in s.
func (pv *Prover) bestFor(ctx context.Context, s *mancala.State, winner mancala.Player) (mancala.Action, error) {
	legal := s.Legal(nil)
	if len(legal) == 1 {
		return legal[0], nil
	}
	if s.ToMove() == winner { // the solver's passes grow the horizon: its first proven win is a quickest one
		sol, err := pv.sv.Solve(ctx, s, search.Limits{Nodes: pv.Budget})
		if err != nil {
			return 0, err
		}
		if sol.Value != search.Win {
			return 0, fmt.Errorf("puzzles: no proven win for %s within %d nodes", winner.Name(), pv.Budget)
		}
		return sol.Best, nil
	}
	var best mancala.Action
	bestDepth := -1
	for _, a := range legal {
		v, err := pv.ValueOf(ctx, s, a)
		if err != nil {
			return 0, err
		}
		if v.Verdict == search.Unknown {
			return 0, fmt.Errorf("puzzles: the defence %s is not proven within %d nodes", a, pv.Budget)
		}
		if v.Verdict != search.Loss {
			return 0, fmt.Errorf("puzzles: the defence %s does not lose", a)
		}
		if v.Depth > bestDepth {
			best, bestDepth = a, v.Depth
		}
	}
	return best, nil
}
