package lobby

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/mancala"
)

// Config configures a Service.
type Config struct {
	Store    Store
	Games    *app.Service      // creates and joins the games of accepted challenges
	Accounts *accounts.Service // nil: no accounts (every challenge is casual and open or quick)
	// Changed is told of every change of a challenge (posted, accepted,
	// cancelled, expired), for the live lobby; nil: nobody.
	Changed func(id string)
	Logger  *slog.Logger // nil: discard
}

// The lobby's bounds.
const (
	MaxOpen      = 500 // open challenges in all
	MaxPerPlayer = 5   // open challenges of one account
)

// Service runs the lobby.
type Service struct {
	store   Store
	games   *app.Service
	acc     *accounts.Service
	changed func(id string)
	log     *slog.Logger
	nowFunc func() time.Time
}

// New returns the lobby of cfg.
func New(cfg Config) *Service {
	s := &Service{store: cfg.Store, games: cfg.Games, acc: cfg.Accounts, changed: cfg.Changed, log: cfg.Logger, nowFunc: time.Now}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.changed == nil {
		s.changed = func(string) {}
	}
	return s
}

func (s *Service) now() time.Time { return s.nowFunc().UTC() }

// PostRequest asks for a new challenge.
type PostRequest struct {
	Ruleset     string `json:"ruleset"`
	TimeControl string `json:"time_control"` // "3+2", "corr:3"; "" for no clock
	Rated       bool   `json:"rated"`        // both players need accounts
	Side        string `json:"side"`         // the creator's: S, N or random ("": random)
	To          string `json:"to"`           // a player's name: a direct challenge; "" for an open one
}

// Posted is a new challenge with its key: the creator's seat token in the
// game to come, and what proves the challenge is theirs (cancelling it,
// keeping it alive from the lobby's socket). Only the creator gets it.
type Posted struct {
	Challenge View   `json:"challenge"`
	Key       string `json:"key"`
}

// Post posts a challenge for a (nil: anonymous).
func (s *Service) Post(ctx context.Context, a *accounts.Account, req PostRequest) (*Posted, error) {
	return s.post(ctx, a, req, KindOpen)
}

func (s *Service) post(ctx context.Context, a *accounts.Account, req PostRequest, kind string) (*Posted, error) {
	rs, err := canonical(req.Ruleset)
	if err != nil {
		return nil, err
	}
	tc, err := checkTimeControl(req.TimeControl)
	if err != nil {
		return nil, err
	}
	side, err := checkSide(req.Side)
	if err != nil {
		return nil, err
	}
	c := &Challenge{ID: newID(), Name: AnonymousName, Ruleset: rs, TimeControl: tc, Rated: req.Rated, Side: side, Kind: kind, Status: StatusOpen}
	if a != nil {
		c.Account, c.Name = a.ID, a.Name
	}
	if req.Rated {
		if err := s.checkRated(a, rs, "post"); err != nil {
			return nil, err
		}
	}
	if name := strings.TrimSpace(req.To); name != "" {
		if s.acc == nil {
			return nil, app.Errorf(app.EInvalid, "this server keeps no accounts, so a challenge cannot name a player; leave to empty for an open challenge")
		}
		if a == nil {
			return nil, app.Errorf(app.EUnauthorized, "log in to challenge a named player: they see who challenges them")
		}
		to, err := s.acc.Named(ctx, name)
		if err != nil {
			return nil, err
		}
		if to.ID == a.ID {
			return nil, app.Errorf(app.EInvalid, "you cannot challenge yourself; name another player")
		}
		c.Kind, c.To, c.ToName = KindDirect, to.ID, to.Name
	}
	open, err := s.store.OpenChallenges(ctx, MaxOpen)
	if err != nil {
		return nil, err
	}
	if len(open) >= MaxOpen {
		return nil, app.Errorf(app.EUnavailable, "the lobby is full (%d open challenges); accept one, or try again in a minute", MaxOpen)
	}
	if a != nil {
		n := 0
		for _, o := range open {
			if o.Account == a.ID {
				n++
			}
		}
		if n >= MaxPerPlayer {
			return nil, app.Errorf(app.EConflict, "you have %d open challenges, the most a player may have; cancel one first", n)
		}
	}
	key := app.NewToken()
	now := s.now()
	c.KeyHash, c.Created, c.Seen, c.Updated = app.HashToken(key), now, now, now
	if err := s.store.CreateChallenge(ctx, c); err != nil {
		return nil, err
	}
	s.changed(c.ID)
	v := ViewOf(c)
	v.Mine = true
	return &Posted{Challenge: v, Key: key}, nil
}

// checkRated refuses a rated challenge (to post or accept) without an
// account, or on a ruleset that is not a preset.
func (s *Service) checkRated(a *accounts.Account, rs, what string) error {
	if s.acc == nil {
		return app.Errorf(app.EInvalid, "rated games need accounts, and this server keeps none; %s a casual challenge", what)
	}
	if a == nil {
		return app.Errorf(app.EUnauthorized, "log in to %s a rated challenge: a rated game is between two accounts; anonymous players play casual games", what)
	}
	if !isPreset(rs) {
		return app.Errorf(app.EInvalid, "ruleset %q is not a preset; rated games use a preset ruleset: %v", rs, presetNames())
	}
	return nil
}

// Accepted is the acceptor's seat in the new game.
type Accepted struct {
	Game  string `json:"game"`
	Seat  string `json:"seat"`
	Token string `json:"token"`
	URL   string `json:"url"`
}

// Accept accepts challenge id for a (nil: anonymous): it creates the game,
// the creator seated with its key, the acceptor at the other side with a
// new token. client is the acceptor's address (app.CreateRequest.Client).
func (s *Service) Accept(ctx context.Context, a *accounts.Account, id, client string) (*Accepted, error) {
	c, err := s.store.Challenge(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.mayAccept(a, c); err != nil {
		return nil, err
	}
	return s.accept(ctx, a, c, client)
}

// mayAccept refuses what a may not accept.
func (s *Service) mayAccept(a *accounts.Account, c *Challenge) error {
	if c.Status != StatusOpen {
		return app.Errorf(app.EConflict, "challenge %s is %s: it can no longer be accepted", c.ID, c.Status)
	}
	if a != nil && c.Account == a.ID {
		return app.Errorf(app.EConflict, "challenge %s is yours; wait for an opponent, or cancel it", c.ID)
	}
	if c.Kind == KindDirect && (a == nil || c.To != a.ID) {
		return app.Errorf(app.EForbidden, "challenge %s is for %s only", c.ID, c.ToName)
	}
	if c.Rated {
		return s.checkRated(a, c.Ruleset, "accept")
	}
	return nil
}

// accept takes open challenge c for a and creates its game; a failure
// before the game exists puts the challenge back.
func (s *Service) accept(ctx context.Context, a *accounts.Account, c *Challenge, client string) (*Accepted, error) {
	if err := s.store.SetChallengeStatus(ctx, c.ID, StatusOpen, StatusTaken, "", s.now()); err != nil {
		if app.ErrorCode(err) == app.EConflict {
			return nil, app.Errorf(app.EConflict, "challenge %s was accepted or withdrawn a moment ago", c.ID)
		}
		return nil, err
	}
	ctx = context.WithoutCancel(ctx) // the challenge is taken: finish or put it back
	out, err := s.createGame(ctx, a, c, client)
	if err != nil {
		if rerr := s.store.SetChallengeStatus(ctx, c.ID, StatusTaken, StatusOpen, "", s.now()); rerr != nil {
			s.log.Error("lobby: put a challenge back", "challenge", c.ID, "err", rerr)
		}
		s.changed(c.ID)
		return nil, err
	}
	if err := s.store.SetChallengeStatus(ctx, c.ID, StatusTaken, StatusAccepted, out.Game, s.now()); err != nil {
		s.log.Error("lobby: record an accepted challenge", "challenge", c.ID, "game", out.Game, "err", err)
	}
	s.changed(c.ID)
	return out, nil
}

// createGame creates the friend game of c and seats a in it.
func (s *Service) createGame(ctx context.Context, a *accounts.Account, c *Challenge, client string) (*Accepted, error) {
	name := ""
	if c.Account != "" {
		name = c.Name
	}
	req := app.CreateRequest{Ruleset: c.Ruleset, Opponent: app.ModeFriend, Side: c.Side, Name: name, Rated: c.Rated,
		TimeControl: c.TimeControl, SeatHash: c.KeyHash, Client: client}
	out, err := s.games.Create(ctx, req)
	if err != nil {
		return nil, err
	}
	code := strings.TrimPrefix(out.Invite, "/join/"+out.ID+"/")
	joiner := ""
	if a != nil {
		joiner = a.Name
	}
	j, err := s.games.Join(ctx, out.ID, code, joiner)
	if err != nil {
		return nil, err
	}
	s.seatAccounts(ctx, a, c, req, out, j)
	return &Accepted{Game: out.ID, Seat: j.Seat, Token: j.Token, URL: j.URL}, nil
}

// seatAccounts gives the creator's and the acceptor's accounts their
// seats, and marks a rated game rated. The game exists already: a failure
// is logged, and the seats by token still work.
func (s *Service) seatAccounts(ctx context.Context, a *accounts.Account, c *Challenge, req app.CreateRequest, out *app.Created, j *app.Joined) {
	if s.acc == nil {
		return
	}
	if c.Rated {
		key, err := ratingKey(req)
		if err == nil {
			err = s.acc.MarkRated(ctx, out.ID, key)
		}
		if err != nil {
			s.log.Error("lobby: mark a game rated", "game", out.ID, "err", err)
		}
	}
	attach := func(acct *accounts.Account, side string) {
		sd := mancala.South
		if side == "N" {
			sd = mancala.North
		}
		if err := s.acc.Attach(ctx, acct, out.ID, sd); err != nil {
			s.log.Error("lobby: attach a seat", "game", out.ID, "err", err)
		}
	}
	if c.Account != "" {
		if creator, err := s.acc.ByID(ctx, c.Account); err != nil {
			s.log.Error("lobby: the creator's account", "challenge", c.ID, "err", err)
		} else {
			attach(creator, out.Seat)
		}
	}
	if a != nil {
		attach(a, j.Seat)
	}
}

// Cancel withdraws challenge id: its creator's account a, or the holder
// of its key.
func (s *Service) Cancel(ctx context.Context, a *accounts.Account, id, key string) error {
	c, err := s.store.Challenge(ctx, id)
	if err != nil {
		return err
	}
	v := Viewer{Keys: map[string]bool{}}
	if a != nil {
		v.Account = a.ID
	}
	if key != "" {
		v.Keys[KeyOf(key)] = true
	}
	if !v.Owns(c) {
		return app.Errorf(app.EForbidden, "challenge %s is not yours: only its creator (logged in, or with its key) may cancel it", id)
	}
	if err := s.store.SetChallengeStatus(ctx, id, StatusOpen, StatusCancelled, "", s.now()); err != nil {
		if app.ErrorCode(err) == app.EConflict {
			return app.Errorf(app.EConflict, "challenge %s is no longer open: it was accepted or has expired", id)
		}
		return err
	}
	s.changed(id)
	return nil
}

// Open returns the open challenges, oldest first.
func (s *Service) Open(ctx context.Context) ([]*Challenge, error) {
	return s.store.OpenChallenges(ctx, MaxOpen)
}

// Challenge returns challenge id as stored.
func (s *Service) Challenge(ctx context.Context, id string) (*Challenge, error) {
	return s.store.Challenge(ctx, id)
}

// ByKey returns the challenge of key (ENotFound).
func (s *Service) ByKey(ctx context.Context, key string) (*Challenge, error) {
	return s.store.ChallengeByKey(ctx, app.HashToken(strings.TrimSpace(key)))
}

// Touch records that the creators of the challenges ids are in the lobby.
func (s *Service) Touch(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	return s.store.TouchChallenges(ctx, ids, s.now())
}

// Expire expires the open challenges whose creator has not been seen in
// the lobby for grace, tells Changed of each, and deletes the challenges
// settled a day ago. It returns how many it expired.
func (s *Service) Expire(ctx context.Context, grace time.Duration) (int, error) {
	now := s.now()
	ids, err := s.store.ExpireChallenges(ctx, now.Add(-grace), now)
	for _, id := range ids {
		s.changed(id)
	}
	if err != nil {
		return len(ids), err
	}
	return len(ids), s.store.DeleteChallenges(ctx, now.Add(-24*time.Hour))
}

// ratingKey returns the rating key of a rated lobby game's request, as
// the server's game creation has it: its time control's category.
func ratingKey(req app.CreateRequest) (accounts.RatingKey, error) {
	return accounts.RatedKeyOf(req)
}
