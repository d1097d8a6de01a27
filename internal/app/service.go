package app

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"matombo/search"
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
	Store Store
	// AI plays the computer's decisions: AI[k] at level k, each player safe
	// for concurrent use, returning within its context's deadline (the
	// decision's time budget, also given as Limits.MoveTime). The server's
	// command wires the search's levels (search.NewLevels) in; a zero AI
	// gets them too, seeded at random.
	AI      search.Levels
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
	// Clock is the games' clocks' time source; nil: the real time. Tests
	// give a fake one (package fakeclock).
	Clock Clock
	// BoardTime bounds the wait of one analysis board request for its
	// searches (review_board.go); <= 0: DefaultBoardTime.
	BoardTime time.Duration
}

// aiStallMargin is the default stall time's margin for a busy AI queue.
const aiStallMargin = 3 * time.Second

// Service runs games: it checks every action with the rules engine, stores
// it before acknowledging it, lets the AI play its decisions on a worker
// scheduler (sched.go) and tells a Notifier of every change.
type Service struct {
	store     Store
	ai        search.Levels
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
	finish    FinishListener // hears of the games that end (finish.go)
	clock     Clock          // the clocks' time (clock.go)
	clocks    ClockStore     // the store's clocks, offers and due games; nil: none (sweep.go)
	sweeper   *sweeper
	// sweepFails are the games whose end the sweep failed to store, by
	// when (sweep.go); guarded by mu.
	sweepFails map[string]time.Time
	analysts   *analysts     // the searches of reviews and the analysis board, on sched (review_cache.go)
	reviews    *reviews      // the reviews of finished games (review.go)
	boards     chan struct{} // a slot per analysis board request being searched (review_board.go)
	boardTime  time.Duration // the longest wait of one of them for its searches
}

// NewService returns a service on cfg.Store; Close stops its AI workers.
func NewService(cfg Config) *Service {
	s := &Service{store: cfg.Store, ai: cfg.AI, log: cfg.Logger, broadcast: cfg.Broadcast,
		cache: newGameCache(gameCacheSize), stall: cfg.AIStall, checking: map[string]bool{}, hints: make(chan struct{}, maxHints)}
	s.clock = cfg.Clock
	if s.clock == nil {
		s.clock = realClock{}
	}
	s.clocks, _ = cfg.Store.(ClockStore)
	if s.ai.IsZero() {
		s.ai = search.NewLevels(rand.Uint64())
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
	s.analysts = newAnalysts(s.sched)
	s.reviews = newReviews(s.analysts, cfg.Store)
	s.boards = make(chan struct{}, maxBoards)
	s.boardTime = cfg.BoardTime
	if s.boardTime <= 0 {
		s.boardTime = DefaultBoardTime
	}
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
	s.StopSweeping()
	s.sched.close()
	s.reviews.wait()
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

// load returns the stored game id replayed.
func (s *Service) load(ctx context.Context, id string) (*played, error) {
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := replay(g)
	if err != nil {
		return nil, err
	}
	p.clock = s.clock
	return p, nil
}

// IsNotFound reports whether err says a game does not exist.
func IsNotFound(err error) bool { return ErrorCode(err) == ENotFound }
