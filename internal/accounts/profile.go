package accounts

import (
	"context"
	"slices"
	"strings"
	"time"

	"matombo/internal/app"
)

// Me is the logged-in account as it sees itself.
type Me struct {
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	CSRF    string    `json:"csrf"` // the token for the X-CSRF-Token header
}

// RatingView is a rating as the API shows it.
type RatingView struct {
	Rating
	Provisional bool `json:"provisional"` // RD above ProvisionalRD
}

func viewRating(r Rating) RatingView {
	return RatingView{Rating: r, Provisional: r.Provisional()}
}

// Profile is a player's public page: results per ruleset and ratings.
type Profile struct {
	Name    string         `json:"name"`
	Created time.Time      `json:"created"`
	Stats   []RulesetStats `json:"results"`
	Ratings []RatingView   `json:"ratings"`
}

// accountNamed returns the account named name (ENotFound).
func (s *Service) accountNamed(ctx context.Context, name string) (*Account, error) {
	key, err := NameKey(name)
	if err == nil {
		var a *Account
		if a, err = s.store.AccountByName(ctx, key); err == nil {
			return a, nil
		}
	}
	if code := app.ErrorCode(err); code != app.ENotFound && code != app.EInvalid {
		return nil, err
	}
	return nil, app.Errorf(app.ENotFound, "no player %q", printable(name))
}

// Profile returns the profile of the player named name.
func (s *Service) Profile(ctx context.Context, name string) (*Profile, error) {
	a, err := s.accountNamed(ctx, name)
	if err != nil {
		return nil, err
	}
	stats, err := s.store.AccountStats(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	rs, err := s.store.Ratings(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	p := &Profile{Name: a.Name, Created: a.Created, Stats: stats, Ratings: []RatingView{}}
	if p.Stats == nil {
		p.Stats = []RulesetStats{}
	}
	for _, r := range rs {
		p.Ratings = append(p.Ratings, viewRating(r))
	}
	return p, nil
}

// GameSummary is one game of a profile: the archive's summary, the side
// the player held, the result from that side and whether it is rated.
type GameSummary struct {
	app.Summary
	Side    string `json:"side"`
	Outcome string `json:"outcome"` // "won", "lost", "drawn", "aborted" or "playing"
}

// Games lists the games of the player named name by f (Limit 0: 20).
func (s *Service) Games(ctx context.Context, name string, f GameFilter) ([]GameSummary, error) {
	a, err := s.accountNamed(ctx, name)
	if err != nil {
		return nil, err
	}
	switch f.Result {
	case "", "won", "lost", "drawn", "playing":
	default:
		return nil, app.Errorf(app.EInvalid, "result %q is not allowed; result is won, lost, drawn, playing or empty for all", f.Result)
	}
	if f.Limit == 0 {
		f.Limit = 20
	}
	if f.Limit < 1 || f.Limit > 100 {
		return nil, app.Errorf(app.EInvalid, "limit %d is not allowed; limit runs from 1 to 100", f.Limit)
	}
	if f.BeforeID != "" && f.Before.IsZero() {
		return nil, app.Errorf(app.EInvalid, "before_id needs before: pass the updated time and the id of the last game listed")
	}
	games, err := s.store.AccountGames(ctx, a.ID, f)
	if err != nil {
		return nil, err
	}
	out := make([]GameSummary, 0, len(games))
	for _, ag := range games {
		g := ag.Game
		side := ag.Side.String()
		outcome := "playing"
		switch {
		case g.Result == "draw":
			outcome = "drawn"
		case g.Result == app.ResultAborted:
			outcome = "aborted"
		case g.Result == side:
			outcome = "won"
		case g.Over():
			outcome = "lost"
		}
		out = append(out, GameSummary{Summary: app.Summary{ID: g.ID, Ruleset: g.Ruleset, Title: app.TitleOf(g.Ruleset), Mode: g.Mode,
			Players: map[string]app.Player{"S": g.Players[0], "N": g.Players[1]}, Result: g.Result, Reason: g.Reason, Turns: g.Turns,
			Created: g.Created, Updated: g.Updated}, Side: side, Outcome: outcome})
	}
	return out, nil
}

// History returns the rating history of the player named name under key,
// at most the newest 500 points.
func (s *Service) History(ctx context.Context, name string, key RatingKey) ([]RatingPoint, error) {
	a, err := s.accountNamed(ctx, name)
	if err != nil {
		return nil, err
	}
	if key.Category == "" {
		key.Category = CategoryUntimed
	}
	pts, err := s.store.RatingHistory(ctx, a.ID, key, 500)
	if pts == nil {
		pts = []RatingPoint{}
	}
	return pts, err
}

// Leaderboard returns the ratings under key, highest first (limit 0: 50,
// at most 100), provisional ones marked.
func (s *Service) Leaderboard(ctx context.Context, key RatingKey, limit int) ([]RatingView, error) {
	if key.Category == "" {
		key.Category = CategoryUntimed
	}
	if !slices.Contains(app.Categories, key.Category) {
		return nil, app.Errorf(app.EInvalid, "category %q is not allowed; categories are %s", key.Category, strings.Join(app.Categories, ", "))
	}
	if limit == 0 {
		limit = 50
	}
	if limit < 1 || limit > 100 {
		return nil, app.Errorf(app.EInvalid, "limit %d is not allowed; limit runs from 1 to 100", limit)
	}
	rs, err := s.store.Leaderboard(ctx, key, limit)
	if err != nil {
		return nil, err
	}
	out := make([]RatingView, 0, len(rs))
	for _, r := range rs {
		out = append(out, viewRating(r))
	}
	return out, nil
}

// Me returns the logged-in account's own view, with the CSRF token of its
// session.
func (s *Service) Me(a *Account, session string) Me {
	return Me{Name: a.Name, Created: a.Created, CSRF: CSRFToken(session)}
}

// Named returns the account named name (ENotFound): the lobby's direct
// challenges name their player.
func (s *Service) Named(ctx context.Context, name string) (*Account, error) {
	return s.accountNamed(ctx, name)
}

// ByID returns account id (ENotFound).
func (s *Service) ByID(ctx context.Context, id string) (*Account, error) {
	return s.store.AccountByID(ctx, id)
}
