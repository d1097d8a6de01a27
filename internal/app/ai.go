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
// 1 (weakest) to 8. It must return within ctx's deadline.
type Mover interface {
	Choose(ctx context.Context, s *mancala.State, level int) (mancala.Action, error)
}

// MinLevel and MaxLevel bound the AI levels.
const (
	MinLevel = 1
	MaxLevel = 8
)

// ThinkTime is the time budget of one AI decision at level (1..8): from
// 50 ms at level 1 to 3.2 s at level 8.
func ThinkTime(level int) time.Duration {
	return time.Duration(level*level) * 50 * time.Millisecond
}

// GreedyMover is the built-in Mover used until the search package's players
// are plugged in: at level k it plays, with probability (k-1)/7, the action
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

// Pool runs jobs (AI decisions) on a bounded number of workers with a
// bounded queue, so a slow search never holds up other games or requests.
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
