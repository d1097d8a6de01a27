package app

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// Mover chooses the computer's action in a state, at a strength level from
// 1 (weakest) to 8. It must return within ctx's deadline, which is the
// decision's time budget, and be safe for concurrent use.
type Mover interface {
	Choose(ctx context.Context, s *mancala.State, level int) (mancala.Action, error)
}

// MinLevel and MaxLevel bound the AI levels.
const (
	MinLevel = 1
	MaxLevel = 8
)

// TurnTime is the time budget of one AI turn at level (1..8), all its
// decisions together (a sowing, then heads, bonus picks, Nsolo removals,
// Choro directions): level² × 50 ms up to 2 s, so that level 8 answers a
// whole turn within 2.5 s, the store's writes and a busy machine included.
// Levels 1 to 7 stop at their node limits well before (search.Level): their
// time is a safety net.
func TurnTime(level int) time.Duration {
	return min(time.Duration(level*level)*50*time.Millisecond, maxTurnTime)
}

// maxTurnTime is the longest TurnTime.
const maxTurnTime = 2 * time.Second

// minDecision is the least time a decision is given, however little of its
// turn's budget is left (a turn of many decisions may overrun its budget by
// that much a decision).
const minDecision = 5 * time.Millisecond

// decisionTime is the budget of the next decision of a turn with left of the
// turn's budget: four fifths of it, at least minDecision. The first decision
// (the sowing, where the thinking is) so gets most of the turn, and the later
// ones share the rest.
func decisionTime(left time.Duration) time.Duration {
	return max(left*4/5, minDecision)
}

// GreedyMover is a simple, fast Mover (for tests and the fuzzers; the
// service plays with Searchers): at level k it plays, with probability (k-1)/7, the action
// that leaves it the most stones against the opponent after one action
// (ties broken at random), and otherwise a random legal action.
type GreedyMover struct {
	mu  sync.Mutex
	rng *rand.Rand
}

// NewGreedyMover returns a GreedyMover with its own random source.
func NewGreedyMover(seed uint64) *GreedyMover {
	return &GreedyMover{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Choose implements Mover.
func (m *GreedyMover) Choose(ctx context.Context, s *mancala.State, level int) (mancala.Action, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if level <= MinLevel || m.rng.IntN(MaxLevel-1) >= level-1 {
		legal := s.Legal(nil)
		if len(legal) == 0 {
			return 0, errors.New("app: no legal action to choose")
		}
		return legal[m.rng.IntN(len(legal))], nil
	}
	a, err := search.OnePly(ctx, s, m.rng.IntN)
	if err != nil {
		return 0, fmt.Errorf("app: %w", err)
	}
	return a, nil
}

// Searchers is the Mover of the search package's levels. It keeps a pool of
// players per level, as many as are asked to think at once: a decision takes
// a free player of its level or makes one, so it never waits for another
// game's search, and its time budget (ctx's deadline, given to the search as
// its time limit) is all thinking.
type Searchers struct {
	seed uint64
	mu   sync.Mutex
	free [MaxLevel + 1][]*search.LevelPlayer
	made [MaxLevel + 1]int
}

// NewSearchers returns a Searchers whose players are seeded from seed.
func NewSearchers(seed uint64) *Searchers { return &Searchers{seed: seed} }

// Choose implements Mover.
func (p *Searchers) Choose(ctx context.Context, s *mancala.State, level int) (mancala.Action, error) {
	lp, err := p.take(level)
	if err != nil {
		return 0, fmt.Errorf("app: %w", err)
	}
	defer p.put(lp)
	var lim search.Limits
	if d, ok := ctx.Deadline(); ok {
		lim.MoveTime = max(time.Until(d), time.Millisecond)
	}
	return lp.Choose(ctx, s, lim)
}

// Made returns how many players of level the pool has made: the most
// decisions of that level thought at once so far.
func (p *Searchers) Made(level int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if level < MinLevel || level > MaxLevel {
		return 0
	}
	return p.made[level]
}

func (p *Searchers) take(level int) (*search.LevelPlayer, error) {
	if level < MinLevel || level > MaxLevel {
		return nil, fmt.Errorf("level %d does not exist; levels are %d to %d", level, MinLevel, MaxLevel)
	}
	p.mu.Lock()
	if n := len(p.free[level]); n > 0 {
		lp := p.free[level][n-1]
		p.free[level] = p.free[level][:n-1]
		p.mu.Unlock()
		return lp, nil
	}
	p.made[level]++
	seed := p.seed + uint64(level)<<32 + uint64(p.made[level])
	p.mu.Unlock()
	return search.NewLevel(level, seed)
}

func (p *Searchers) put(lp *search.LevelPlayer) {
	p.mu.Lock()
	p.free[lp.Level()] = append(p.free[lp.Level()], lp)
	p.mu.Unlock()
}

// Pool runs jobs on a bounded number of workers with a bounded queue (the
// service's checks of games the AI may have left waiting; the AI's turns
// run on the scheduler, sched.go).
type Pool struct {
	jobs   chan func(context.Context)
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	closed bool
}

// NewPool starts workers goroutines taking jobs from a queue of queue jobs.
func NewPool(workers, queue int) *Pool {
	workers = max(workers, 1)
	p := &Pool{jobs: make(chan func(context.Context), max(queue, 1))}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.wg.Add(workers)
	for range workers {
		go func() {
			defer p.wg.Done()
			for job := range p.jobs {
				job(p.ctx)
			}
		}()
	}
	return p
}

// Submit queues job; it reports false if the queue is full or the pool is
// closed. A job gets a context cancelled when the pool closes.
func (p *Pool) Submit(job func(context.Context)) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	select {
	case p.jobs <- job:
		return true
	default:
		return false
	}
}

// Close cancels the jobs' context, lets the workers finish the jobs they
// hold (queued jobs run with the cancelled context) and waits for them.
func (p *Pool) Close() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		p.cancel()
		close(p.jobs)
	}
	p.mu.Unlock()
	p.wg.Wait()
}
