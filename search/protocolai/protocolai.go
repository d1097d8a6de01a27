// Package protocolai lets the engine protocol's go command use the search
// players: it adapts them to protocol.Chooser.
//
// Wiring, in the engine command: protocol.New(protocol.Config{Chooser:
// protocolai.New(seed)}).
package protocolai

import (
	"context"
	"fmt"

	"matombo/mancala"
	"matombo/protocol"
	"matombo/search"
)

// Chooser answers go with the strongest level, or with the tree search when
// go asks for playouts: `go movetime <ms>` and `go depth <n>` run level 8
// (alpha-beta with the endgame solver) within that time or depth, and
// `go playouts <n>` runs the Monte Carlo tree search with that many
// playouts. With a playout or depth limit the answer is reproducible.
//
// In the simultaneous Choro opening both solve the matrix game of their
// scores of the 64 joint openings and draw from the equilibrium with the
// seed; for North they never use South's choice.
type Chooser struct {
	level *search.LevelPlayer
	mcts  *search.MCTS
}

// New returns a Chooser seeded with seed.
func New(seed uint64) (*Chooser, error) {
	return NewLevel(search.MaxLevel, seed)
}

// NewLevel returns a Chooser that plays at the given level for movetime and
// depth limits.
func NewLevel(level int, seed uint64) (*Chooser, error) {
	lp, err := search.NewLevel(level, seed)
	if err != nil {
		return nil, err
	}
	m, err := search.NewMCTS(search.DefaultMCTS(seed))
	if err != nil {
		return nil, err
	}
	return &Chooser{level: lp, mcts: m}, nil
}

// Choose implements protocol.Chooser.
func (c *Chooser) Choose(ctx context.Context, s *mancala.State, lim protocol.Limits) (mancala.Action, error) {
	sl := search.Limits{MoveTime: lim.MoveTime, Playouts: lim.Playouts, Depth: lim.Depth}
	if err := sl.Validate(); err != nil {
		return 0, fmt.Errorf("protocolai: %w", err)
	}
	if lim.Playouts > 0 {
		return c.mcts.Choose(ctx, s, sl)
	}
	return c.level.Choose(ctx, s, sl)
}

var _ protocol.Chooser = (*Chooser)(nil)
