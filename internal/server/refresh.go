package server

import (
	"context"
	"sync"
)

// refresher brings the games changed by other server instances to this
// instance's viewers: a few workers reload them, and a burst of changes of
// one game coalesces into one reload of its latest state.
type refresher struct {
	s       *Server
	mu      sync.Mutex
	pending map[string]int // game id -> the highest ply notified (-1: view only)
	queue   chan string
}

func newRefresher(s *Server) *refresher {
	return &refresher{s: s, pending: map[string]int{}, queue: make(chan string, 256)}
}

// changed notes that game id has ply actions; games without a viewer here
// are ignored.
func (r *refresher) changed(id string, ply int) {
	if r.s.hub.clients(id) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.pending[id]; ok {
		r.pending[id] = max(old, ply)
		return
	}
	select {
	case r.queue <- id:
		r.pending[id] = ply
	default:
		r.s.log.Warn("refresh queue full; viewers catch up at the next change", "game", id)
	}
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
				select {
				case <-ctx.Done():
					return
				case id := <-r.queue:
					r.mu.Lock()
					ply := r.pending[id]
					delete(r.pending, id)
					r.mu.Unlock()
					if err := r.s.svc.Refresh(ctx, id, ply); err != nil && ctx.Err() == nil {
						r.s.log.Warn("refresh", "game", id, "err", err)
					}
				}
			}
		})
	}
	wg.Wait()
}
