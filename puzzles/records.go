package puzzles

import (
	"context"
	"fmt"

	"matombo/mancala"
)

// Recorded is a stored game to look for puzzles in, and the name it goes
// by in the puzzles' sources (such as its file's).
type Recorded struct {
	Name   string
	Record *mancala.Record
}

// FromRecords looks for puzzles of rs in stored games, as Generate does in
// self-play games: their turn starts, cfg.Spacing turns apart at least, and
// the positions one turn off them; at most cfg.PerGame a game, cfg.Want
// (after cfg.Append's) in all. Games of other rulesets are left out; a game
// that does not replay is an error naming it.
func FromRecords(ctx context.Context, rs mancala.Ruleset, games []Recorded, cfg GenerateConfig) (*Set, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	st, seen, budget, err := newSet(rs, cfg)
	if err != nil {
		return nil, err
	}
	want := cfg.Want + len(appended(cfg))
	for _, game := range games {
		if game.Record.Ruleset != rs || len(st.Puzzles) >= want {
			continue
		}
		s, err := game.Record.Start()
		if err != nil {
			return st, fmt.Errorf("puzzles: %s: %w", game.Name, err)
		}
		found, lastTurn := 0, -1<<30
		for t, turn := range game.Record.Turns {
			if err := ctx.Err(); err != nil {
				return st, err
			}
			if s.IsOver() {
				break
			}
			if s.AtTurnStart() && s.Turns()-lastTurn >= cfg.Spacing && found < cfg.PerGame {
				ps, err := tryTurnStart(ctx, rs, s, cfg, budget, seen, min(cfg.PerGame-found, want-len(st.Puzzles)),
					fmt.Sprintf("stored game %s, turn %d", game.Name, t+1))
				if err != nil {
					return st, err
				}
				for _, p := range ps {
					if st.Add(p) {
						found++
						if cfg.Found != nil {
							cfg.Found(st)
						}
					}
				}
				if len(ps) > 0 {
					lastTurn = s.Turns()
				}
			}
			for _, a := range turn {
				if err := s.Apply(a); err != nil {
					return st, fmt.Errorf("puzzles: %s, turn %d: %w", game.Name, t+1, err)
				}
			}
		}
	}
	return st, nil
}
