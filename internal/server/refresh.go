package server

import (
	"context"
	"sync"
)

// refresher brings the games changed by other server instances to this
// instance's viewers: a few workers reload them, and a burst of changes of
// one game coalesces into one reload of its latest state. Nothing is ever
// dropped: the queue holds each watched game at most once, so it is bounded
// by the games watched here.
type refresher struct {
	s       *Server
	mu      sync.Mutex
	pending map[string]int // game id -> the highest ply notified (-1: view only)
	order   []string       // the ids of pending, oldest first
	wake    chan struct{}  // a token for each idle worker to look at the queue
}

// refreshWorkers is how many games are reloaded at once. A reload is mostly
// waiting on the database, so more workers than cores keep the refreshes of
// a busy server from queueing behind each other's round trips.
const refreshWorkers = 16

func newRefresher(s *Server) *refresher {
	return &refresher{s: s, pending: map[string]int{}, wake: make(chan struct{}, refreshWorkers)}
}

// changed notes that game id has ply actions; games without a viewer here
// are ignored.
func (r *refresher) changed(id string, ply int) {
	if r.s.hub.clients(id) == 0 {
		return
	}
	r.mu.Lock()
	if old, ok := r.pending[id]; ok {
		r.pending[id] = max(old, ply)
		r.mu.Unlock()
		return
	}
	r.pending[id] = ply
	r.order = append(r.order, id)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default: // every worker has a token already and will find the game
	}
}

// next takes the oldest pending game off the queue.
func (r *refresher) next() (id string, ply int, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.order) == 0 {
		return "", 0, false
	}
	id = r.order[0]
	r.order[0] = ""
	r.order = r.order[1:]
	ply = r.pending[id]
	delete(r.pending, id)
	return id, ply, true
}

// resync reloads every game watched here (notifications may have been lost).
func (r *refresher) resync() {
	for _, id := range r.s.hub.watched() {
		r.changed(id, -1)
	}
}

// run reloads queued games on workers until ctx ends.
func (r *refresher) run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				id, ply, ok := r.next()
				if !ok {
					select {
					case <-ctx.Done():
						return
					case <-r.wake:
						continue
					}
				}
				if err := r.s.svc.Refresh(ctx, id, ply); err != nil && ctx.Err() == nil {
					r.s.log.Warn("refresh", "game", id, "err", err)
				}
			}
		})
	}
	wg.Wait()
}
