package app

import (
	"container/list"
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"matombo/mancala"
	"matombo/search"
)

// evalCacheSize is how many evaluations the cache keeps: some thousands of
// reviewed games' positions (an evaluation, its line included, takes a few
// hundred bytes).
const evalCacheSize = 65536

// evalCache keeps evaluations by position (with the ruleset, and whether
// the solver was asked for), least recently used out first, so that the
// second review of a game, or of another game through the same positions,
// and the analysis board there, search nothing. All its evaluations are
// made with the same limits (reviewConfig), so the limits are not part of
// the key. Safe for concurrent use.
type evalCache struct {
	mu       sync.Mutex
	max      int
	order    *list.List               // of *evalEntry, most recent first
	entries  map[string]*list.Element // by key
	openings map[string]search.OpeningGame
}

type evalEntry struct {
	key string
	ev  search.Evaluation
}

func newEvalCache(max int) *evalCache {
	return &evalCache{max: max, order: list.New(), entries: map[string]*list.Element{}, openings: map[string]search.OpeningGame{}}
}

func (c *evalCache) get(key string) (search.Evaluation, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return search.Evaluation{}, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*evalEntry).ev, true
}

func (c *evalCache) put(key string, ev search.Evaluation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		el.Value.(*evalEntry).ev = ev
		c.order.MoveToFront(el)
		return
	}
	c.entries[key] = c.order.PushFront(&evalEntry{key: key, ev: ev})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(*evalEntry).key)
	}
}

// maxOpenings bounds the opening games kept: one per preset's start, and
// the starts of games set up elsewhere.
const maxOpenings = 64

func (c *evalCache) opening(key string) (search.OpeningGame, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, ok := c.openings[key]
	return g, ok
}

func (c *evalCache) putOpening(key string, g search.OpeningGame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.openings) >= maxOpenings {
		for k := range c.openings {
			delete(c.openings, k)
			break
		}
	}
	c.openings[key] = g
}

// positionKey is the key of state s for the cache: its ruleset and
// position, where a turn starts or the game is over; "" mid-turn, where
// the position does not tell the decision due (the analysis board keys
// those by their turn's start and the actions since: boardKey).
func positionKey(s *mancala.State) string {
	if !s.AtTurnStart() && !s.IsOver() {
		return ""
	}
	return s.Ruleset().String() + "|" + s.Position()
}

// evalKey is the cache key of an evaluation of the state of key, with the
// solver asked for or not.
func evalKey(key string, solve bool) string {
	if solve {
		return key + "|solve"
	}
	return key
}

// analysts runs the searches of reviews and of the analysis board on the
// scheduler's background slots (review_sched.go), each slot with an
// Analyst of its own, made when first needed, and keeps what they find.
type analysts struct {
	sched *scheduler
	cache *evalCache
	mu    sync.Mutex
	slots map[int]*search.Analyst
	// searches counts the searches run (cache misses), for the tests
	// and /metrics.
	searches atomic.Uint64
}

func newAnalysts(sc *scheduler) *analysts {
	return &analysts{sched: sc, cache: newEvalCache(evalCacheSize), slots: map[int]*search.Analyst{}}
}

// reviewConfig is the search of every review and of the analysis board:
// the level the calibration was fitted at (search.AnalysisLevel), node
// limited, so an evaluation does not depend on the machine's load.
var reviewConfig = search.AnalysisConfig{Seed: 1}

// analyst returns the Analyst of slot.
func (as *analysts) analyst(slot int) (*search.Analyst, error) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if an := as.slots[slot]; an != nil {
		return an, nil
	}
	an, err := search.NewAnalyst(reviewConfig)
	if err != nil {
		return nil, err
	}
	as.slots[slot] = an
	return an, nil
}

// limits returns the limits of the searches.
func (as *analysts) limits() search.Limits {
	an, err := as.analyst(0) // Limits reads what does not change: no slot needed
	if err != nil {
		return search.Limits{}
	}
	return an.Limits()
}

// run calls f with an Analyst on a background slot, once the scheduler
// gives one (urgent: before the reviews' searches).
func (as *analysts) run(ctx context.Context, urgent bool, f func(an *search.Analyst) error) error {
	slot, release, err := as.sched.acquire(ctx, urgent)
	if err != nil {
		return err
	}
	defer release()
	as.searches.Add(1)
	an, err := as.analyst(slot)
	if err != nil {
		return err
	}
	lowPriority(func() { err = f(an) })
	return err
}

// evaluate returns the evaluation of s, kept under key (positionKey or
// boardKey; "" keeps nothing): from the cache, else searched on a slot
// (urgent: for the analysis board).
func (as *analysts) evaluate(ctx context.Context, s *mancala.State, key string, solve, urgent bool) (search.Evaluation, error) {
	k := evalKey(key, solve)
	if key != "" {
		if ev, ok := as.cache.get(k); ok {
			return ev, nil
		}
	}
	var ev search.Evaluation
	err := as.run(ctx, urgent, func(an *search.Analyst) error {
		var err error
		ev, err = an.EvaluateSolving(ctx, s, solve)
		return err
	})
	if err != nil {
		return search.Evaluation{}, err
	}
	if key != "" {
		as.cache.put(k, ev)
	}
	return ev, nil
}

// evaluator is a search.PositionEvaluator on the analysts, calling
// progress after each position of a review.
type evaluator struct {
	as       *analysts
	progress func()
}

// EvaluateSolving implements search.PositionEvaluator.
func (e evaluator) EvaluateSolving(ctx context.Context, s *mancala.State, solve bool) (search.Evaluation, error) {
	ev, err := e.as.evaluate(ctx, s, positionKey(s), solve, false)
	if err == nil && e.progress != nil {
		e.progress()
	}
	return ev, err
}

// OpeningGame implements search.PositionEvaluator.
func (e evaluator) OpeningGame(ctx context.Context, s *mancala.State) (search.OpeningGame, error) {
	key := s.Ruleset().String() + "|" + s.BeforeOpeningChoice().Position()
	if g, ok := e.as.cache.opening(key); ok {
		return g, nil
	}
	var g search.OpeningGame
	err := e.as.run(ctx, false, func(an *search.Analyst) error {
		var err error
		g, err = an.OpeningGame(ctx, s)
		return err
	})
	if err != nil {
		return search.OpeningGame{}, err
	}
	e.as.cache.putOpening(key, g)
	return g, nil
}

// boardKey is the cache key of a state of the analysis board: the
// position where its turn started and the actions since, or positionKey
// where a turn starts.
func boardKey(turnStart *mancala.State, since []mancala.Action, s *mancala.State) string {
	if k := positionKey(s); k != "" {
		return k
	}
	names := make([]string, len(since))
	for i, a := range since {
		names[i] = a.String()
	}
	return positionKey(turnStart) + "|" + strings.Join(names, ",")
}
