package app

import (
	"context"

	"matombo/mancala"
)

// FinishListener hears of the games that end on this instance: by the
// rules or by a resignation (package accounts rates them).
type FinishListener interface {
	// GameFinished is called once the end of g is stored, with g's
	// result. It must not change g, and handles its own errors.
	GameFinished(ctx context.Context, g *Game)
}

// SetFinishListener sets who hears of the games that end. Call it before
// serving.
func (s *Service) SetFinishListener(l FinishListener) { s.finish = l }

// finished tells the FinishListener (if any) that g ended; the caller's
// going away does not cut it short.
func (s *Service) finished(ctx context.Context, g *Game) {
	if s.finish != nil && g.Over() {
		s.finish.GameFinished(context.WithoutCancel(ctx), g)
	}
}

// TitleOf returns the title of a ruleset's game for people, or the
// ruleset itself if it does not parse.
func TitleOf(ruleset string) string {
	if rs, err := mancala.ParseRuleset(ruleset); err == nil {
		return titles[rs.Game]
	}
	return ruleset
}
