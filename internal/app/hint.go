package app

import (
	"context"
	"time"
)

// HintLevel is the AI level whose choice a hint shows; maxHints bounds the
// hints thought at once, hintTime each one's thinking.
const (
	HintLevel = 6
	maxHints  = 2
	hintTime  = 2 * time.Second
)

// Hint is the action the AI at HintLevel would take at a decision.
type Hint struct {
	Ply    int    `json:"ply"`    // the decision's ply
	Action string `json:"action"` // the action suggested (RULES.md §5)
	Level  int    `json:"level"`  // the level that chose it
}

// Hint suggests an action to the holder of token, whose decision it must
// be, in a game against the computer or on one device (not between
// friends, where it would help one of them against the other).
func (s *Service) Hint(ctx context.Context, id, token string) (*Hint, error) {
	p, side, err := s.loadSeated(ctx, id, token, "ask for a hint in")
	if err != nil {
		return nil, err
	}
	if p.g.Mode != ModeAI && p.g.Mode != ModeLocal {
		return nil, Errorf(EForbidden, "hints are given in games against the computer and on one device, not in %s games", p.g.Mode)
	}
	st := p.state()
	if p.g.Over() || st.IsOver() {
		return nil, Errorf(EConflict, "game %s is over; hints are for games in play", id)
	}
	if st.ToMove() != side {
		return nil, Errorf(EForbidden, "it is %s's decision; your seat is %s", st.ToMove().Name(), side.Name())
	}
	select {
	case s.hints <- struct{}{}:
		defer func() { <-s.hints }()
	default:
		return nil, Errorf(ERateLimited, "%d hints are being thought already; ask again in a moment", maxHints)
	}
	st, ply := st.Clone(), len(p.g.Actions)
	hctx, cancel := context.WithTimeout(ctx, hintTime)
	defer cancel()
	a, err := s.choose(hctx, st, HintLevel)
	if err != nil && hctx.Err() != nil {
		return nil, Errorf(ERateLimited, "the computer is too busy to think of a hint now; ask again in a moment")
	}
	if err != nil {
		return nil, Errorf(EInternal, "hint for game %s: %v", id, err)
	}
	return &Hint{Ply: ply, Action: a.String(), Level: HintLevel}, nil
}
