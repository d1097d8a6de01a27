package search

import (
	"context"

	"matombo/mancala"
)

// ByLimits picks its search by the limits it is given, as the engine
// protocol's go asks (RULES.md §6): playouts run the Monte Carlo tree search
// (DefaultMCTS) with that many playouts; otherwise (movetime, depth) a level
// (NewLevel) plays within them. With a playout or depth limit the answer is
// reproducible for a given seed.
//
// In the simultaneous Choro opening both solve the matrix game of their
// scores of the 64 joint openings and draw from the equilibrium with the
// seed; for North they never use South's choice. Like the players it holds,
// ByLimits is not safe for concurrent use.
type ByLimits struct {
	level *LevelPlayer
	mcts  *MCTS
}

// NewByLimits returns a ByLimits playing level k (MaxLevel for the
// strongest) for time and depth limits, seeded with seed.
func NewByLimits(k int, seed uint64) (*ByLimits, error) {
	lp, err := NewLevel(k, seed)
	if err != nil {
		return nil, err
	}
	m, err := NewMCTS(DefaultMCTS(seed))
	if err != nil {
		return nil, err
	}
	return &ByLimits{level: lp, mcts: m}, nil
}

// Choose implements Player.
func (b *ByLimits) Choose(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error) {
	if err := lim.Validate(); err != nil {
		return 0, err
	}
	if lim.Playouts > 0 {
		return b.mcts.Choose(ctx, s, lim)
	}
	return b.level.Choose(ctx, s, lim)
}
