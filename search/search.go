// Package search chooses actions for the mancala games: a uniform random
// player, Monte Carlo tree search (UCT with a solver and a greedy playout
// policy), alpha-beta (negamax with iterative deepening and a transposition
// table), an exact endgame solver, and the playing levels built from them.
// The simultaneous Choro opening, where both players choose at once, is a
// matrix game: the players solve it by linear programming (SolveMatrixGame)
// over their scores of the joint openings and draw from the equilibrium,
// never using South's choice when choosing for North (opening.go).
//
// Search knows only the game interface of package mancala, so every player
// plays every ruleset, the decisions inside a turn included (head stop or
// relay, bonus picks, Nsolo stone removals, Choro directions). A "decision"
// is one written action; the side to move keeps the move through a turn and
// changes only when the turn ends. Scores are always from the point of view
// of the player to move at the node scored.
//
// Every player takes a context, a validated configuration, an evaluator
// where it evaluates, and a seed: with a playout or node limit (and no time
// limit) the same seed gives the same action on the same position.
package search

import (
	"context"
	"errors"
	"fmt"
	"time"

	"matombo/mancala"
)

// Player chooses an action for the side to move. Choose must not change s.
// A Player may keep internal state between calls (for instance a
// transposition table) and is not safe for concurrent use unless it says so.
type Player interface {
	Choose(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error)
}

// Limits bounds one search. Zero fields are no limit. Each player knows
// some of the limits (tree search: MoveTime and Playouts; alpha-beta:
// MoveTime, Nodes and Depth) and ignores the others; when none of those it
// knows is set, it uses its own default limits. The search stops at the first
// limit reached or when its context is cancelled, and still returns its best
// action so far.
type Limits struct {
	MoveTime time.Duration // wall-clock time for the decision
	Playouts int           // Monte Carlo playouts (tree search)
	Nodes    int           // nodes visited (alpha-beta and the solver)
	Depth    int           // depth in decisions (alpha-beta and the solver)
}

// MaxDepth is the deepest search the alpha-beta player and the solver accept.
const MaxDepth = 128

// Validate reports whether the limits are usable.
func (l Limits) Validate() error {
	switch {
	case l.MoveTime < 0:
		return fmt.Errorf("search: movetime %v is negative; use 0 for no limit or a positive time", l.MoveTime)
	case l.Playouts < 0:
		return fmt.Errorf("search: playouts %d is negative; use 0 for no limit or a positive count", l.Playouts)
	case l.Nodes < 0:
		return fmt.Errorf("search: nodes %d is negative; use 0 for no limit or a positive count", l.Nodes)
	case l.Depth < 0 || l.Depth > MaxDepth:
		return fmt.Errorf("search: depth %d is out of range; use 0 for no limit or 1 to %d", l.Depth, MaxDepth)
	}
	return nil
}

// IsZero reports whether no limit is set.
func (l Limits) IsZero() bool { return l == Limits{} }

// ErrGameOver is returned by Choose on a finished game.
var ErrGameOver = errors.New("search: the game is over; there is no action to choose")

// Evaluator scores a position for the player to move, in hundredths of a
// stone: positive is good for s.ToMove(). It is called only on games in play.
type Evaluator interface {
	Evaluate(s *mancala.State) int
}

// clock turns the limits into a deadline check that also watches ctx.
type clock struct {
	ctx      context.Context
	deadline time.Time
	timed    bool
}

func newClock(ctx context.Context, lim Limits) clock {
	c := clock{ctx: ctx}
	if lim.MoveTime > 0 {
		c.deadline, c.timed = time.Now().Add(lim.MoveTime), true
	}
	if d, ok := ctx.Deadline(); ok && (!c.timed || d.Before(c.deadline)) {
		c.deadline, c.timed = d, true
	}
	return c
}

// expired reports whether the time is up or the context is done.
func (c *clock) expired() bool {
	if c.ctx.Err() != nil {
		return true
	}
	return c.timed && !time.Now().Before(c.deadline)
}

// begin checks the arguments every Choose shares.
func begin(s *mancala.State, lim Limits) error {
	if s == nil {
		return errors.New("search: no game state given")
	}
	if s.IsOver() {
		return ErrGameOver
	}
	return lim.Validate()
}

// outcomeFor returns +1, 0 or -1: the finished game's result for p.
func outcomeFor(s *mancala.State, p mancala.Player) int {
	w, ok := s.Outcome().Result.Winner()
	switch {
	case !ok:
		return 0
	case w == p:
		return 1
	}
	return -1
}

// positionSeed mixes the position and how far the game has gone, so that a
// seeded player's random choices differ when a position comes back.
func positionSeed(s *mancala.State) uint64 {
	return s.Hash() ^ uint64(s.Stats().Actions)*0x9e3779b97f4a7c15
}
