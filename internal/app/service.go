package app

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
	"unicode"

	"matombo/mancala"
)

// Update is a change of a game sent to its live clients: the new view (with
// You empty; the transport sets it per client) and the events of the
// action(s) that made it.
type Update struct {
	Game   *GameView
	Events []EventView
	// southChoice is South's secret opening choice, for South's seats
	// only: see ViewFor.
	southChoice string
}

// Notifier receives the updates of games, for live clients.
type Notifier interface {
	Publish(gameID string, u Update)
}

// Config configures a Service.
type Config struct {
	Store   Store
	Mover   Mover        // nil: the search package's levels (see newMover)
	Workers int          // AI thinkers: turns thought at once at their level; <= 0: 1
	Queue   int          // most AI turns queued; <= 0: 64
	Logger  *slog.Logger // nil: discard
	// AIWait is how long a queued AI turn waits for a thinker before it is
	// played at a cheaper level (see sched.go); <= 0: DefaultAIWait.
	AIWait time.Duration
	// Broadcast links the instances of a server sharing one store; nil
	// for a single instance.
	Broadcast Broadcast
	// AIStall is how long the AI may keep a game waiting after its last
	// change before an instance that did not make the change thinks for it
	// (see resumeAI); <= 0: the longest wait of a queued turn (StartBound),
	// the longest turn, TurnTime(MaxLevel), and aiStallMargin.
	AIStall time.Duration
}

// aiStallMargin is the default stall time's margin for a busy AI queue.
const aiStallMargin = 3 * time.Second

// Service runs games: it checks every action with the rules engine, stores
// it before acknowledging it, lets the AI play its decisions on a worker
// scheduler (sched.go) and tells a Notifier of every change.
type Service struct {
	store     Store
	mover     Mover
	sched     *scheduler // the AI's turns
	pool      *Pool      // the checks of games the AI may have left waiting (resumeAI)
	log       *slog.Logger
	mu        sync.Mutex
	stall     time.Duration
	checking  map[string]bool // games with a stall check due (resumeAI)
	closed    bool
	hints     chan struct{} // a slot per hint being thought
	notifier  Notifier
	broadcast Broadcast
	cache     *gameCache
}

// newMover returns the Mover the service uses when none is configured.
//
// THE AI PLUG: this is the one place the real AI comes in: Searchers plays
// the search package's levels 1..8 (alpha-beta with noise at the low levels,
// the endgame solver at level 8) with a pool of players per level. GreedyMover
// is the simple built-in fallback (and the fast mover of tests, through
// Config.Mover).
func newMover() Mover {
	return NewSearchers(rand.Uint64())
}

// NewService returns a service on cfg.Store; Close stops its AI workers.
func NewService(cfg Config) *Service {
	s := &Service{store: cfg.Store, mover: cfg.Mover, log: cfg.Logger, broadcast: cfg.Broadcast,
		cache: newGameCache(gameCacheSize), stall: cfg.AIStall, checking: map[string]bool{}, hints: make(chan struct{}, maxHints)}
	if s.mover == nil {
		s.mover = newMover()
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	queue := cfg.Queue
	if queue <= 0 {
		queue = 64
	}
	wait := cfg.AIWait
	if wait <= 0 {
		wait = DefaultAIWait
	}
	if s.stall <= 0 {
		s.stall = StartBound(wait, queue) + TurnTime(MaxLevel) + aiStallMargin
	}
	s.pool = NewPool(1, queue)
	s.sched = newScheduler(schedConfig{thinkers: cfg.Workers, queue: queue, wait: wait}, s.playTurn)
	return s
}

// AIStats returns the counts of the AI's turns, for /metrics.
func (s *Service) AIStats() AIStats { return s.sched.snapshot() }

// SetNotifier sets who hears of game updates. Call it before serving.
func (s *Service) SetNotifier(n Notifier) { s.notifier = n }

// Check reports whether the store answers and takes writes: it reads one
// game summary and commits a write that changes nothing (Store.CheckWrite),
// with the deadline of ctx. The server's /healthz uses it.
func (s *Service) Check(ctx context.Context) error {
	if _, err := s.store.ListGames(ctx, ListFilter{Limit: 1}); err != nil {
		return fmt.Errorf("the database does not answer: %w", err)
	}
	if err := s.store.CheckWrite(ctx); err != nil {
		return fmt.Errorf("the database does not take writes: %w", err)
	}
	return nil
}

// Close stops the AI, waiting for the decisions in progress (their
// searches are cancelled; a store write under way completes).
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.sched.close()
	s.pool.Close()
}

// publish tells the local clients of game id of u, and the other server
// instances (if any) that the game changed. A lost notification only delays
// remote viewers (the change is stored), so its error is logged.
func (s *Service) publish(ctx context.Context, id string, u Update) {
	if s.notifier != nil {
		s.notifier.Publish(id, u)
	}
	if s.broadcast != nil {
		ply := 0 // not an action (a join, a resignation, a rematch): no events to show
		if len(u.Events) > 0 {
			ply = u.Game.Ply
		}
		if err := s.broadcast.Notify(context.WithoutCancel(ctx), id, ply); err != nil {
			s.log.Warn("broadcast: notify", "game", id, "err", err)
		}
	}
}

// Broadcast carries game changes between server instances sharing a store
// (postgres.Notifier is one); nil for a single instance.
type Broadcast interface {
	// Notify tells the other instances that game id changed: ply is its
	// number of actions after an action, 0 for another change.
	Notify(ctx context.Context, id string, ply int) error
	// Listen calls changed for every change notified by other instances,
	// and resync when notifications may have been lost, until ctx ends.
	Listen(ctx context.Context, changed func(id string, ply int), resync func()) error
}

// Refresh sends the local clients of game id its stored state, after
// another instance changed it. If the game has exactly ply actions (ply >
// 0), the update carries the events of the last action, for animation.
//
// The reloaded game replaces the cached one, so that the next action here
// does not load it again.
func (s *Service) Refresh(ctx context.Context, id string, ply int) error {
	e := s.cache.entry(id)
	e.mu.Lock()
	defer e.mu.Unlock()
	p, err := loaded(e, func() (*played, error) { return s.load(ctx, id) }, true)
	if err != nil {
		if ErrorCode(err) == ENotFound {
			s.cache.drop(id)
		}
		return err
	}
	u := p.update(nil)
	if n := len(p.g.Actions); n == ply && ply > 0 {
		err := traced(p.g, n-1, func(t *tracedStep) { u.Events = t.events() })
		if err != nil {
			return err
		}
	}
	if s.notifier != nil {
		s.notifier.Publish(id, u)
	}
	s.resumeAI(p) // under the entry's lock: the AI job changes g
	return nil
}

// CreateRequest asks for a new game.
type CreateRequest struct {
	Ruleset  string `json:"ruleset"`
	Opponent string `json:"opponent"` // "ai", "friend" or "local"
	Level    int    `json:"level"`    // AI level 1..8 (0: 3)
	Side     string `json:"side"`     // the creator's side: "S" (moves first), "N" or "random" ("" : S)
	Name     string `json:"name"`     // the creator's name, optional
	Position string `json:"position"` // the position to start from (RULES.md §5), at the start of a turn; "" for the ruleset's start
	// Client is who asks (the server: the peer's address), not read from
	// JSON: the AI's turns of one client's games share a bounded part of
	// the thinkers (sched.go). "": the game counts as a client of its own.
	Client string `json:"-"`
}

// Created tells the creator (or a joiner) of a game its secrets.
type Created struct {
	ID         string            `json:"id"`
	Seat       string            `json:"seat"`
	Token      string            `json:"token"`
	Tokens     map[string]string `json:"tokens,omitempty"`      // local games: a token per side
	Invite     string            `json:"invite,omitempty"`      // friend games: the link for the opponent
	TeamInvite string            `json:"team_invite,omitempty"` // friend games: the link for the creator's team mates
	URL        string            `json:"url"`
}

const maxName = 40

// cleanName returns a player's name as kept: invalid UTF-8 replaced by
// U+FFFD, control characters (C0, DEL, C1) and bidirectional formatting
// characters removed, white space collapsed to single spaces, cut to
// maxName characters; def if nothing is left. Cleaning a clean name gives
// it back, so a name survives a record's export and import, and it can
// be stored as it is in every store (no NUL, which PostgreSQL's JSONB
// refuses).
func cleanName(name, def string) string {
	name = strings.ToValidUTF8(name, "\uFFFD")
	name = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, name)
	name = strings.Join(strings.Fields(name), " ")
	if r := []rune(name); len(r) > maxName {
		name = strings.TrimRight(string(r[:maxName]), " ")
	}
	if name == "" {
		return def
	}
	return name
}

func parseSide(side string) (mancala.Player, error) {
	switch side {
	case "", "S":
		return mancala.South, nil
	case "N":
		return mancala.North, nil
	case "random":
		return mancala.Player(rand.IntN(2)), nil
	}
	return 0, Errorf(EInvalid, "side %q is not allowed; side is S (moves first), N or random", side)
}

func gameURL(id, token string) string { return "/game/" + id + "#seat=" + token }

// Create starts a new game.
func (s *Service) Create(ctx context.Context, req CreateRequest) (*Created, error) {
	rs, err := mancala.ParseRuleset(req.Ruleset)
	if err != nil {
		return nil, Errorf(EInvalid, "%s", trimPrefix(err))
	}
	side, err := parseSide(req.Side)
	if err != nil {
		return nil, err
	}
	start, err := startFrom(rs, req.Position)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	g := &Game{ID: newID(), Ruleset: rs.String(), Start: start, Mode: req.Opponent, Result: "*", Created: now, Updated: now}
	me := Player{Kind: KindHuman, Name: cleanName(req.Name, side.Name())}
	other := side.Other()
	out := &Created{ID: g.ID, Seat: side.String(), Token: NewToken()}
	g.Players[side] = me
	g.Seats = []Seat{{Side: side, Hash: HashToken(out.Token), Created: now}}
	switch req.Opponent {
	case ModeAI:
		level := req.Level
		if level == 0 {
			level = 3
		}
		if level < MinLevel || level > MaxLevel {
			return nil, Errorf(EInvalid, "level %d is not allowed; AI levels run from %d to %d", req.Level, MinLevel, MaxLevel)
		}
		g.Players[other] = Player{Kind: KindAI, Level: level, Name: fmt.Sprintf("Computer (level %d)", level)}
	case ModeFriend:
		g.Players[other] = Player{Kind: KindHuman, Name: other.Name()}
		invite, team := NewToken(), NewToken()
		g.Invites[other], g.Invites[side] = HashToken(invite), HashToken(team)
		g.InviteOnce[other] = true
		out.Invite = "/join/" + g.ID + "/" + invite
		out.TeamInvite = "/join/" + g.ID + "/" + team
	case ModeLocal:
		g.Players[other] = Player{Kind: KindHuman, Name: other.Name()}
		t := NewToken()
		g.Seats = append(g.Seats, Seat{Side: other, Hash: HashToken(t), Created: now})
		out.Tokens = map[string]string{side.String(): out.Token, other.String(): t}
	default:
		return nil, Errorf(EInvalid, "opponent %q is not allowed; opponent is ai, friend or local", req.Opponent)
	}
	if err := s.store.CreateGame(ctx, g); err != nil {
		return nil, err
	}
	out.URL = gameURL(g.ID, out.Token)
	s.sched.own(g.ID, req.Client)
	s.kickAI(g)
	return out, nil
}

// startFrom checks a new game's start position and returns it written
// canonically: "" for the ruleset's own start, which pos may also be.
func startFrom(rs mancala.Ruleset, pos string) (string, error) {
	if pos == "" {
		return "", nil
	}
	st, err := mancala.NewGame(rs)
	if err != nil {
		return "", Errorf(EInvalid, "%s", trimPrefix(err))
	}
	initial := st.Position()
	if err := st.SetPosition(pos); err != nil {
		return "", Errorf(EInvalid, "%s", trimPrefix(err))
	}
	if st.IsOver() {
		decided := "drawn"
		if w, ok := st.Outcome().Result.Winner(); ok {
			decided = "won by " + w.Name()
		}
		return "", Errorf(EInvalid, "the game is over in position %q (%s: %s); start from a position where the side to move can act", pos, decided, st.Outcome().Reason)
	}
	if p := st.Position(); p != initial {
		return p, nil
	}
	return "", nil
}

// load returns the stored game id replayed.
func (s *Service) load(ctx context.Context, id string) (*played, error) {
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	return replay(g)
}

// loadSeated loads game id and the side token is seated at; what says what
// the seat is needed for, in the error.
func (s *Service) loadSeated(ctx context.Context, id, token, what string) (*played, mancala.Player, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	side, ok := seatSide(p.g, token)
	if !ok {
		return nil, 0, Errorf(EForbidden, "no seat: a valid seat token is needed to %s game %s", what, id)
	}
	return p, side, nil
}

// you returns the side token is seated at in g, as "S", "N" or "".
func you(g *Game, token string) string {
	if side, ok := seatSide(g, token); ok {
		return side.String()
	}
	return ""
}

// View returns game id as seen by the holder of token ("" for a spectator).
// It resumes the AI of a game left waiting (resumeAI).
func (s *Service) View(ctx context.Context, id, token string) (*GameView, error) {
	v, _, err := s.CatchUp(ctx, id, token, -1)
	return v, err
}

// MaxCatchUp is the most actions whose events CatchUp returns.
const MaxCatchUp = 64

// CatchUp returns the view of game id for token's seat, as View, with the
// events of the actions after ply since, for a client that saw ply since
// and missed the rest: it can show them as updates. The events are nil
// when since is not behind the game, or more than MaxCatchUp actions
// behind (a negative since asks for none).
func (s *Service) CatchUp(ctx context.Context, id, token string, since int) (*GameView, []EventView, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	s.resumeAI(p)
	var evs []EventView
	if n := len(p.g.Actions); since >= 0 && since < n && n-since <= MaxCatchUp {
		err = traced(p.g, since, func(t *tracedStep) { evs = append(evs, t.events()...) })
		if err != nil {
			return nil, nil, err
		}
	}
	return p.view(you(p.g, token)), evs, nil
}

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

// Joined tells a joiner their seat.
type Joined struct {
	Seat  string `json:"seat"`
	Token string `json:"token"`
	URL   string `json:"url"`
}

// Join seats the holder of an invite code at the code's side, with a new
// token. The opponent's invite of a friend game seats one player: once
// taken, it is refused (EConflict) until the inviting side asks for a new
// one (Invite); the creator's team link seats any number of team mates.
// A game over seats no one. The joiner's name (cleaned like the
// creator's) names the side if it still has its default name ("North",
// "South"): the first named joiner names it.
func (s *Service) Join(ctx context.Context, id, code, name string) (*Joined, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	g := p.g
	for i, h := range g.Invites {
		if !matchHash(h, code) {
			continue
		}
		side := mancala.Player(i)
		if g.Over() {
			return nil, Errorf(EConflict, "game %s is over (%s, %s); its seats can no longer be joined", id, g.Result, g.Reason)
		}
		if g.InviteOnce[side] && g.InviteTaken[side] {
			return nil, Errorf(EConflict, "this invite to game %s has seated its player already: it seats one opponent; ask whoever invited you for a new link", id)
		}
		token := NewToken()
		seat := Seat{Side: side, Hash: HashToken(token), Created: time.Now().UTC()}
		if err := s.store.TakeInvite(ctx, id, h, seat); err != nil {
			return nil, err
		}
		g.Seats = append(g.Seats, seat)
		if name := cleanName(name, ""); name != "" && g.Players[side].Name == side.Name() {
			// The seat is taken: a name not stored is logged, not refused.
			if got, err := s.store.RenamePlayer(ctx, id, side, side.Name(), name); err != nil {
				s.log.Warn("join: name the player", "game", id, "side", side.String(), "err", err)
			} else {
				g.Players[side].Name = got
				p.rec.SetTag(side.Name(), got)
			}
		}
		s.cache.drop(id)
		s.publish(ctx, id, p.update(nil))
		return &Joined{Seat: side.String(), Token: token, URL: gameURL(id, token)}, nil
	}
	return nil, Errorf(EForbidden, "the invite code is not valid for game %s; ask for a new link", id)
}

// Invited is a new invite link.
type Invited struct {
	Invite string `json:"invite"` // the link for the opponent: /join/{id}/{code}
}

// Invite gives the holder of token, seated at the inviting side of friend
// game id (the creator or a team mate), a new link that seats one
// opponent, as the first: the previous link stops working, and the seats
// already taken stay.
func (s *Service) Invite(ctx context.Context, id, token string) (*Invited, error) {
	p, side, err := s.loadSeated(ctx, id, token, "invite an opponent to")
	if err != nil {
		return nil, err
	}
	g, other := p.g, side.Other()
	if g.Mode != ModeFriend || !g.InviteOnce[other] {
		return nil, Errorf(EForbidden, "game %s has no invite for your opponent: invites are made by the side that created a game with a friend", id)
	}
	if g.Over() {
		return nil, Errorf(EConflict, "game %s is over (%s, %s); ask for a rematch instead", id, g.Result, g.Reason)
	}
	code := NewToken()
	if err := s.store.NewInvite(ctx, id, other, HashToken(code)); err != nil {
		return nil, err
	}
	s.cache.drop(id)
	return &Invited{Invite: "/join/" + id + "/" + code}, nil
}

// ActResult is the answer to an action: the game after it and the events of
// the action. The AI's answers follow as updates to the Notifier.
type ActResult struct {
	Game   *GameView   `json:"game"`
	Events []EventView `json:"events"`
	update Update      // what was published: the actor's view is made from it
}

// Act plays action for the holder of token, who must be seated at the side
// whose decision it is; ply is the number of actions the client saw (a stale
// ply is refused with EConflict).
func (s *Service) Act(ctx context.Context, id, token, action string, ply int) (*ActResult, error) {
	e := s.cache.entry(id)
	e.mu.Lock()
	res, err := s.actOn(ctx, e, id, token, action, ply, false)
	e.mu.Unlock()
	if err != nil {
		if ErrorCode(err) == ENotFound {
			s.cache.drop(id)
		}
		return nil, err
	}
	return res, nil
}

// actOn is Act on the cached game of e (locked). A check that fails on the
// cached game is made again on the stored game (fresh), which another
// instance may have changed.
func (s *Service) actOn(ctx context.Context, e *cacheEntry, id, token, action string, ply int, fresh bool) (*ActResult, error) {
	p, err := loaded(e, func() (*played, error) { return s.load(ctx, id) }, fresh)
	if err != nil {
		return nil, err
	}
	g, st := p.g, p.state()
	side, ok := seatSide(g, token)
	var refusal error
	switch {
	case !ok:
		refusal = Errorf(EForbidden, "no seat: a valid seat token is needed to act in game %s", id)
	case g.Over():
		refusal = Errorf(EConflict, "the game is over (%s, %s); no action can be played", g.Result, g.Reason)
	case ply != len(g.Actions):
		refusal = Errorf(EConflict, "stale ply %d: the game is at ply %d; reload it", ply, len(g.Actions))
	case st.ToMove() != side:
		refusal = Errorf(EForbidden, "it is %s's decision; your seat is %s", st.ToMove().Name(), side.Name())
	}
	if refusal != nil {
		if !fresh {
			return s.actOn(ctx, e, id, token, action, ply, true)
		}
		return nil, refusal
	}
	a, err := mancala.ParseAction(action)
	if err != nil {
		return nil, Errorf(EInvalid, "%s", trimPrefix(err))
	}
	res, err := s.apply(ctx, p, a)
	if err != nil {
		e.p = nil // p may be ahead of the store
		return nil, err
	}
	res.Game = res.update.ViewFor(side.String())
	s.kickAI(g) // under the entry's lock: the AI job changes g
	return res, nil
}

// apply plays a in p, stores it and publishes the update.
func (s *Service) apply(ctx context.Context, p *played, a mancala.Action) (*ActResult, error) {
	g, st := p.g, p.state()
	side := st.ToMove()
	south := mancala.Action(0) // South's choice of the simultaneous opening, for the events of North's
	if st.OpeningChoiceHidden() && len(g.Actions) > 0 {
		south, _ = mancala.ParseAction(g.Actions[len(g.Actions)-1].Action)
	}
	evs, err := st.Clone().ApplyTraced(a, nil)
	if err != nil {
		return nil, Errorf(EInvalid, "%s", trimPrefix(err))
	}
	if err := p.rec.Apply(a); err != nil {
		return nil, Errorf(EInternal, "action %s traced but refused: %v", a, err)
	}
	result, reason := "*", ""
	if st.IsOver() {
		result, reason = st.Outcome().Result.String(), st.Outcome().Reason.String()
	}
	m := Move{Ply: len(g.Actions), Action: a.String(), Side: side, At: time.Now().UTC()}
	// The write completes even if the client goes away.
	if err := s.store.AppendAction(context.WithoutCancel(ctx), g.ID, m, st.Turns(), result, reason); err != nil {
		return nil, err
	}
	g.Actions = append(g.Actions, m)
	g.Turns, g.Result, g.Reason, g.Updated = st.Turns(), result, reason, m.At
	events := eventViews(evs, a, side, south)
	if openingHidden(g, st) {
		events = []EventView{} // South's secret choice changes nothing on the board
	}
	u := p.update(events)
	s.publish(ctx, g.ID, u)
	return &ActResult{Game: u.Game, Events: u.Events, update: u}, nil
}

// aiToMove reports whether the AI has the decision in g.
func aiToMove(p *played) bool {
	st := p.state()
	return !p.g.Over() && !st.IsOver() && p.g.Players[st.ToMove()].Kind == KindAI
}

// kickAI queues the AI's turn of g if the AI may be to move (the
// scheduler keeps one turn a game, and a running turn looks again).
func (s *Service) kickAI(g *Game) {
	if g.Over() || (g.Players[0].Kind != KindAI && g.Players[1].Kind != KindAI) {
		return
	}
	if !s.sched.kick(g.ID) {
		s.log.Warn("ai queue full or closed; the game waits for its next visit", "game", g.ID)
	}
}

// resumeAI is kickAI for a game changed elsewhere: by another instance, or
// by this one before a restart. The instance that makes a change thinks for
// the AI after it; another one starts only once the game has waited for
// the stall time since its last change with the AI to move (that instance
// stopped), and until then checks again when the time is up. So the AI
// of a game thinks on one instance, and a game is never left waiting.
func (s *Service) resumeAI(p *played) {
	if !aiToMove(p) {
		return
	}
	wait := s.stall - time.Since(p.g.Updated)
	if wait <= 0 {
		s.kickAI(p.g)
		return
	}
	id := p.g.ID
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.checking[id] {
		return
	}
	s.checking[id] = true
	time.AfterFunc(wait, func() {
		s.mu.Lock()
		delete(s.checking, id)
		s.mu.Unlock()
		s.pool.Submit(func(ctx context.Context) { s.checkStalled(ctx, id) }) // false once closed: nothing to resume
	})
}

// checkStalled reloads game id from the store and resumes its AI if it
// has stalled.
func (s *Service) checkStalled(ctx context.Context, id string) {
	e := s.cache.entry(id)
	e.mu.Lock()
	defer e.mu.Unlock()
	p, err := loaded(e, func() (*played, error) { return s.load(ctx, id) }, true)
	if err != nil {
		if ErrorCode(err) != ENotFound && ctx.Err() == nil {
			s.log.Warn("ai: check a waiting game", "game", id, "err", err)
		}
		return
	}
	s.resumeAI(p)
}

// playTurn plays the AI's decisions in game id until its turn ends, a human
// is to decide or the game is over, within the turn's time budget: the
// game level's TurnTime on a thinker (laneFull), quickTurnTime at
// min(level, QuickLevel) on a quick worker (laneQuick). It runs on the
// scheduler and reports whether the AI is still to move (its next turn, or
// the game changed meanwhile): the scheduler then queues it again.
func (s *Service) playTurn(ctx context.Context, id string, l lane) bool {
	load := func() (*played, error) { return s.load(ctx, id) }
	var (
		level, turn int
		deadline    time.Time
	)
	for first := true; ctx.Err() == nil; first = false {
		e := s.cache.entry(id)
		e.mu.Lock()
		p, err := loaded(e, load, false)
		if err != nil {
			e.mu.Unlock()
			s.log.Error("ai: load game", "game", id, "err", err)
			return false
		}
		if !aiToMove(p) {
			e.mu.Unlock()
			return false
		}
		st, ply := p.state().Clone(), len(p.g.Actions)
		if first {
			level, turn = p.g.Players[st.ToMove()].Level, st.Turns()
			budget := TurnTime(level)
			if l == laneQuick {
				s.log.Warn("ai: no thinker free in time; playing a turn at a cheaper level", "game", id, "level", level, "played_at", min(level, QuickLevel))
				level, budget = min(level, QuickLevel), quickTurnTime
			}
			deadline = time.Now().Add(budget)
		} else if st.Turns() != turn {
			e.mu.Unlock()
			return true // the AI's next turn: after the other games'
		}
		e.mu.Unlock()

		// Think without holding the game.
		a, ok := s.decide(ctx, id, st, level, time.Until(deadline))
		if !ok {
			return false
		}

		e.mu.Lock()
		p, err = loaded(e, load, false)
		if err != nil || len(p.g.Actions) != ply {
			// The game changed while the AI thought: look again.
			e.mu.Unlock()
			continue
		}
		_, err = s.apply(ctx, p, a)
		if err != nil {
			e.p = nil
		}
		e.mu.Unlock()
		if err != nil {
			if ErrorCode(err) != EConflict {
				s.log.Error("ai: apply", "game", id, "action", a.String(), "err", err)
			}
			return false
		}
	}
	return false
}

// decide searches the AI's action in st at level, with left of its turn's
// budget (decisionTime). A search that fails is made again at QuickLevel;
// if that fails too, no action is played (ok false) and the game waits for
// its next visit: an action is never played without a search.
func (s *Service) decide(ctx context.Context, id string, st *mancala.State, level int, left time.Duration) (mancala.Action, bool) {
	dctx, cancel := context.WithTimeout(ctx, decisionTime(left))
	a, err := s.choose(dctx, st, level)
	cancel()
	if err == nil || ctx.Err() != nil {
		return a, err == nil
	}
	s.sched.failed()
	s.log.Warn("ai: search failed; searching again at a cheaper level", "game", id, "level", level, "err", err)
	dctx, cancel = context.WithTimeout(ctx, quickTurnTime)
	a, err = s.choose(dctx, st, min(level, QuickLevel))
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			s.sched.failed()
			s.log.Error("ai: search failed again; the game waits for its next visit", "game", id, "err", err)
		}
		return 0, false
	}
	return a, true
}

// Resign ends game id as lost for the side of token, at any time, even in
// the middle of a turn (the record then ends with the unfinished turn).
func (s *Service) Resign(ctx context.Context, id, token string) (*GameView, error) {
	p, side, err := s.loadSeated(ctx, id, token, "resign")
	if err != nil {
		return nil, err
	}
	g := p.g
	if g.Over() {
		return nil, Errorf(EConflict, "the game is already over (%s, %s)", g.Result, g.Reason)
	}
	result := side.Other().String()
	if err := s.store.Finish(context.WithoutCancel(ctx), id, len(g.Actions), result, "resigned"); err != nil {
		return nil, err
	}
	s.cache.drop(id)
	g.Result, g.Reason, g.Updated = result, "resigned", time.Now().UTC()
	if r, err := mancala.ParseResult(result); err == nil {
		p.rec.SetResult(r)
	}
	v := p.view("")
	s.publish(ctx, id, Update{Game: v})
	v.You = side.String()
	return v, nil
}

// Rematch returns a seat in the rematch of game id (created by the first
// seated player who asks, sides swapped) for the holder of token. The seat's
// token is derived from the old one (rematchToken), so asking again gives
// the same seat back and adds none.
func (s *Service) Rematch(ctx context.Context, id, token string) (*Created, error) {
	p, side, err := s.loadSeated(ctx, id, token, "ask for a rematch of")
	if err != nil {
		return nil, err
	}
	g := p.g
	if !g.Over() {
		return nil, Errorf(EConflict, "game %s is still in play; a rematch follows the end of the game", id)
	}
	newSide := side.Other()
	rid := g.Rematch
	if rid == "" {
		// The rematch has no invites: its seats are those of the old
		// game's seats that ask for them.
		now := time.Now().UTC()
		ng := &Game{ID: newID(), Ruleset: g.Ruleset, Start: g.Start, Mode: g.Mode, Result: "*", Created: now, Updated: now}
		ng.Players[0], ng.Players[1] = g.Players[1], g.Players[0]
		if rid, err = s.store.CreateRematch(ctx, id, ng); err != nil {
			return nil, err
		}
		g.Rematch = rid
		s.cache.drop(id)
		s.publish(ctx, id, Update{Game: p.view("")})
	}
	out := &Created{ID: rid, Seat: newSide.String()}
	sides := []mancala.Player{newSide}
	if g.Mode == ModeLocal {
		sides = append(sides, side)
		out.Tokens = map[string]string{}
	}
	for _, sd := range sides {
		t := rematchToken(token, rid, sd)
		if err := s.store.AddSeat(ctx, rid, Seat{Side: sd, Hash: HashToken(t), Created: time.Now().UTC()}); err != nil {
			return nil, err
		}
		if out.Token == "" {
			out.Token = t
		}
		if out.Tokens != nil {
			out.Tokens[sd.String()] = t
		}
	}
	out.URL = gameURL(rid, out.Token)
	if ng, err := s.store.Game(ctx, rid); err == nil {
		s.kickAI(ng)
	}
	return out, nil
}

// Summary is a game in the archive list.
type Summary struct {
	ID      string            `json:"id"`
	Ruleset string            `json:"ruleset"`
	Title   string            `json:"ruleset_title"`
	Mode    string            `json:"mode"`
	Players map[string]Player `json:"players"`
	Result  string            `json:"result"`
	Reason  string            `json:"reason"`
	Turns   int               `json:"turns"`
	Created time.Time         `json:"created"`
	Updated time.Time         `json:"updated"`
}

// List returns the archive: games newest first.
func (s *Service) List(ctx context.Context, f ListFilter) ([]Summary, error) {
	switch f.Status {
	case "", "playing", "unfinished", "over":
	default:
		return nil, Errorf(EInvalid, "status %q is not allowed; status is playing, unfinished, over or empty for all", f.Status)
	}
	if f.Limit == 0 {
		f.Limit = 50
	}
	if f.Limit < 1 || f.Limit > 100 {
		return nil, Errorf(EInvalid, "limit %d is not allowed; limit runs from 1 to 100", f.Limit)
	}
	if f.BeforeID != "" && f.Before.IsZero() {
		return nil, Errorf(EInvalid, "before_id needs before: pass the updated time and the id of the last game listed")
	}
	games, err := s.store.ListGames(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, len(games))
	for i, g := range games {
		title := g.Ruleset
		if rs, err := mancala.ParseRuleset(g.Ruleset); err == nil {
			title = titles[rs.Game]
		}
		out[i] = Summary{ID: g.ID, Ruleset: g.Ruleset, Title: title, Mode: g.Mode,
			Players: map[string]Player{"S": g.Players[0], "N": g.Players[1]},
			Result:  g.Result, Reason: g.Reason, Turns: g.Turns, Created: g.Created, Updated: g.Updated}
	}
	return out, nil
}

// RecordText returns the record of game id (RULES.md §5), without South's
// secret opening choice (played.record).
func (s *Service) RecordText(ctx context.Context, id string) (string, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return "", err
	}
	rec, _ := p.record()
	return rec.String(), nil
}

// MaxRecordBytes is the most bytes of a record text Import takes. Import
// also refuses a record whose export (RecordText: the headers written
// canonically with the Date, Site, South and North headers added, the turns
// numbered) would be larger, or have more than mancala.MaxHeaders headers,
// so every export of an imported game can be imported again.
const MaxRecordBytes = 1 << 20

// Import stores the game of a record text, which must replay legally; the
// error names the turn and action at fault.
func (s *Service) Import(ctx context.Context, text string) (string, error) {
	return s.ImportAs(ctx, text, "")
}

// ImportAs is Import with the record read and replayed under ruleset
// instead of its Ruleset header, unless ruleset is "" (see readRecord).
func (s *Service) ImportAs(ctx context.Context, text, ruleset string) (string, error) {
	if len(text) > MaxRecordBytes {
		return "", Errorf(ETooLarge, "the record has %d bytes; a record has at most %d bytes", len(text), MaxRecordBytes)
	}
	rec, st, err := readRecord(text, ruleset)
	if err != nil {
		return "", err
	}
	now := time.Now().UTC()
	g := &Game{ID: newID(), Ruleset: rec.Ruleset.String(), Start: rec.Position, Mode: ModeImported,
		Result: rec.Result.String(), Turns: st.Turns(), Created: now, Updated: now}
	for i, tag := range []string{"South", "North"} {
		name, _ := rec.Tag(tag)
		g.Players[i] = Player{Kind: KindHuman, Name: cleanName(name, mancala.Player(i).Name())}
	}
	g.Headers = rec.Tags
	switch {
	case st.IsOver():
		g.Reason = st.Outcome().Reason.String()
	case g.Over():
		g.Reason = "recorded"
	}
	replayed, err := rec.Start()
	if err != nil {
		return "", Errorf(EInvalid, "%s", trimPrefix(err))
	}
	for _, turn := range rec.Turns {
		for _, a := range turn {
			g.Actions = append(g.Actions, Move{Ply: len(g.Actions), Action: a.String(), Side: replayed.ToMove(), At: now})
			if err := replayed.Apply(a); err != nil {
				return "", Errorf(EInternal, "record replayed once but not twice: %v", err)
			}
		}
	}
	if err := exportable(g, rec); err != nil {
		return "", err
	}
	if err := s.store.CreateGame(ctx, g); err != nil {
		return "", err
	}
	return g.ID, nil
}

// exportable checks that the export of g, imported from rec, can be
// imported again: at most mancala.MaxHeaders headers and MaxRecordBytes
// bytes.
func exportable(g *Game, rec *mancala.Record) error {
	var added []string
	for _, key := range []string{"South", "North", "Date", "Site"} {
		if _, ok := rec.Tag(key); !ok {
			added = append(added, key)
		}
	}
	if n := len(rec.Headers()) + len(added); n > mancala.MaxHeaders {
		return Errorf(EInvalid, "the record has %d headers and its export adds %s: %d headers; a record has at most %d, so leave out %d",
			len(rec.Headers()), strings.Join(added, ", "), n, mancala.MaxHeaders, n-mancala.MaxHeaders)
	}
	p, err := replay(g)
	if err != nil {
		return err
	}
	if n := len(p.rec.Record().String()); n > MaxRecordBytes {
		return Errorf(ETooLarge, "the record written out as its export (headers completed, turns numbered) has %d bytes; a record has at most %d bytes", n, MaxRecordBytes)
	}
	return nil
}

// ReplayStep is one action of a replay with its animation.
type ReplayStep struct {
	Action   string      `json:"action"`
	By       string      `json:"by"`
	Events   []EventView `json:"events"`
	Position string      `json:"position"`
	TurnEnd  bool        `json:"turn_end"` // the action ended its turn: Position is at the start of the next
	Decision string      `json:"decision"` // the decision that follows, as in the game view (decision "start" at a turn end)
	Pending  string      `json:"pending"`  // mid-turn: what the decision that follows is, for people; "" at a turn end
	Turn     int         `json:"turn"`     // the index in the replay's Moves of the action's turn
}

// ReplayView is a stored game for the replay page.
type ReplayView struct {
	ID      string            `json:"id"`
	Ruleset string            `json:"ruleset"`
	Start   string            `json:"start"`
	Players map[string]Player `json:"players"`
	Result  string            `json:"result"`
	Reason  string            `json:"reason"`
	Headers []Header          `json:"headers,omitempty"` // an imported record's headers, in its order
	Actions []ReplayStep      `json:"actions"`
	Moves   []TurnView        `json:"moves"`                    // the turns as the record writes them
	Hidden  bool              `json:"opening_hidden,omitempty"` // South's secret opening choice is left out
	RuleFacts
}

// Header is one header line of an imported record, such as Event or Date.
type Header struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Replay returns game id action by action with events and positions,
// without South's secret opening choice (played.record).
func (s *Service) Replay(ctx context.Context, id string) (*ReplayView, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	g := p.g
	v := &ReplayView{ID: g.ID, Ruleset: g.Ruleset, Result: g.Result, Reason: g.Reason,
		Players: map[string]Player{"S": g.Players[0], "N": g.Players[1]}, Actions: []ReplayStep{}, RuleFacts: RuleFactsOf(p.state())}
	for _, t := range g.Headers {
		v.Headers = append(v.Headers, Header{Key: t.Key, Value: t.Value})
	}
	if v.Start, err = StartPositionOf(g); err != nil {
		return nil, err
	}
	rec, hidden := p.record()
	v.Moves, v.Hidden = turnViews(rec), hidden != ""
	turn := 0
	err = traced(g, 0, func(t *tracedStep) {
		if t.hidden {
			return
		}
		end := t.after.AtTurnStart() || t.after.IsOver()
		v.Actions = append(v.Actions, ReplayStep{Action: t.a.String(), By: t.by.String(), Events: t.events(), Position: t.after.Position(), TurnEnd: end, Turn: turn,
			Decision: decisionOf(t.after), Pending: t.after.Pending()})
		if end {
			turn++
		}
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// StartPositionOf returns the position game g starts from.
func StartPositionOf(g *Game) (string, error) {
	st, err := startState(g.Ruleset, g.Start)
	if err != nil {
		return "", err
	}
	return st.Position(), nil
}

// traced replays g from its start, tracing the actions from ply from on:
// visit gets each with its side, its events and the state after it.
func traced(g *Game, from int, visit func(t *tracedStep)) error {
	st, err := startState(g.Ruleset, g.Start)
	if err != nil {
		return err
	}
	var evs []mancala.Event
	var prev mancala.Action
	for i, m := range g.Actions {
		a, err := mancala.ParseAction(m.Action)
		if err != nil {
			return Errorf(EInternal, "stored game %s: %v", g.ID, err)
		}
		by := st.ToMove()
		var south mancala.Action
		if st.OpeningChoiceHidden() {
			south = prev
		}
		if i < from {
			err = st.Apply(a)
		} else {
			evs, err = st.ApplyTraced(a, evs[:0])
		}
		if err != nil {
			return Errorf(EInternal, "stored game %s does not replay at ply %d: %v", g.ID, i, err)
		}
		if i >= from {
			visit(&tracedStep{a: a, by: by, evs: evs, after: st, south: south, hidden: i == len(g.Actions)-1 && openingHidden(g, st)})
		}
		prev = a
	}
	return nil
}

// IsNotFound reports whether err says a game does not exist.
func IsNotFound(err error) bool { return ErrorCode(err) == ENotFound }
