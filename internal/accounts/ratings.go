package accounts

import (
	"context"
	"fmt"

	"matombo/internal/app"
	"matombo/mancala"
)

// CategoryUntimed is the time category of games without clocks. A
// rating's key is (preset ruleset, category); the categories are
// app.Categories (untimed, bullet, blitz, rapid, classical,
// correspondence), a game's by its time control (TimeControl.Category).
const CategoryUntimed = app.CategoryUntimed

// CategoryOf returns the time category of a game.
func CategoryOf(g *app.Game) string {
	c, err := app.CategoryOfControl(g.TimeControl)
	if err != nil {
		return CategoryUntimed
	}
	return c
}

// RatedKeyOf is RatedKey for a create request: its key's category is
// that of the request's time control.
func RatedKeyOf(req app.CreateRequest) (RatingKey, error) {
	c, err := app.CategoryOfControl(req.TimeControl)
	if err != nil {
		return RatingKey{}, err
	}
	key, err := RatedKey(req.Ruleset, req.Opponent, req.Position)
	key.Category = c
	return key, err
}

// RatedKey checks that a game asked to be rated may be, and returns its
// rating key: a rated game is between two accounts (opponent friend: a
// game against the computer or on one device never is) on a preset
// ruleset from its start.
func RatedKey(ruleset, opponent, position string) (RatingKey, error) {
	if opponent != app.ModeFriend {
		return RatingKey{}, app.Errorf(app.EInvalid, "only games against a friend can be rated (opponent %q): games against the computer or on one device never are", opponent)
	}
	if position != "" {
		return RatingKey{}, app.Errorf(app.EInvalid, "a rated game starts from the ruleset's start; leave position empty")
	}
	rs, err := mancala.ParseRuleset(ruleset)
	if err != nil {
		return RatingKey{}, app.Errorf(app.EInvalid, "%v", err)
	}
	for _, p := range mancala.Presets() {
		if p.String() == rs.String() {
			return RatingKey{Ruleset: rs.String(), Category: CategoryUntimed}, nil
		}
	}
	var names []string
	for _, p := range mancala.Presets() {
		names = append(names, p.String())
	}
	return RatingKey{}, app.Errorf(app.EInvalid, "ruleset %q is not a preset; rated games use a preset ruleset: %v", rs.String(), names)
}

// MarkRated records that game id is to be rated under key when it ends.
func (s *Service) MarkRated(ctx context.Context, id string, key RatingKey) error {
	return s.store.MarkRated(ctx, id, key)
}

// GameFinished implements app.FinishListener: it rates a game marked
// rated when it ends, if each side is held by one account and they are
// two, once per game (the store's ApplyRating is idempotent). Errors are
// logged: the game's end stands.
func (s *Service) GameFinished(ctx context.Context, g *app.Game) {
	if _, err := s.Rate(ctx, g); err != nil {
		s.log.Error("accounts: rate a finished game", "game", g.ID, "err", err)
	}
}

// Rate rates finished game g if it is rated and not rated yet, and
// reports whether it did.
func (s *Service) Rate(ctx context.Context, g *app.Game) (bool, error) {
	if g.Mode != app.ModeFriend || !g.Over() {
		return false, nil
	}
	var score float64
	switch g.Result {
	case "S":
		score = 1
	case "N":
		score = 0
	case "draw":
		score = 0.5
	case app.ResultAborted:
		if _, rated, err := s.store.RatedKey(ctx, g.ID); err != nil || !rated {
			return false, err
		}
		return false, s.settle(ctx, g.ID, "the game was aborted")
	default:
		return false, nil
	}
	if _, rated, err := s.store.RatedKey(ctx, g.ID); err != nil || !rated {
		return false, err
	}
	links, err := s.store.GameLinks(ctx, g.ID)
	if err != nil {
		return false, err
	}
	var holders [2]map[string]bool
	for _, l := range links {
		if holders[l.Side] == nil {
			holders[l.Side] = map[string]bool{}
		}
		holders[l.Side][l.Account] = true
	}
	var players [2]string
	for i, h := range holders {
		if len(h) != 1 {
			why := fmt.Sprintf("%s's side is held by %d accounts, not one", mancala.Player(i).Name(), len(h))
			return false, s.settle(ctx, g.ID, why)
		}
		for id := range h {
			players[i] = id
		}
	}
	if players[0] == players[1] {
		return false, s.settle(ctx, g.ID, "one account holds both sides")
	}
	return s.store.ApplyRating(ctx, g.ID, players, s.now(), func(before [2]Glicko) [2]Glicko {
		return [2]Glicko{
			before[0].Update([]Outcome{{Opponent: before[1], Score: score}}, Tau),
			before[1].Update([]Outcome{{Opponent: before[0], Score: 1 - score}}, Tau),
		}
	})
}

// settle records why rated game id is not rated.
func (s *Service) settle(ctx context.Context, id, why string) error {
	s.log.Info("accounts: a rated game is not rated", "game", id, "why", why)
	return s.store.SettleUnrated(ctx, id, why)
}

// RatePending rates the finished rated games whose rating was missed (a
// failed write, an instance stopped as a game ended), a batch at a time,
// until none is left or ctx ends, and returns how many it rated. The
// server runs it at its start.
func (s *Service) RatePending(ctx context.Context) (int, error) {
	rated := 0
	seen := map[string]bool{}
	for ctx.Err() == nil {
		ids, err := s.store.PendingRatings(ctx, 100)
		if err != nil || len(ids) == 0 {
			return rated, err
		}
		progress := false
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id], progress = true, true
			g, err := s.games.Game(ctx, id)
			if err != nil {
				return rated, err
			}
			done, err := s.Rate(ctx, g)
			if err != nil {
				return rated, err
			}
			if done {
				rated++
			}
		}
		if !progress {
			return rated, fmt.Errorf("accounts: %d rated games stay pending after being rated", len(ids))
		}
	}
	return rated, ctx.Err()
}
