package app

import "sync"

// gameCacheSize is how many games the cache keeps: above the 2,000
// concurrent games the server is built for, so that busy games are not
// evicted and replayed on every action. A game costs a few kilobytes.
const gameCacheSize = 8192

// gameCache keeps the replayed state of recently played games, so that an
// action does not reload and replay its whole game. A stale entry (another
// instance moved on) is safe: the store refuses its write, and the entry is
// dropped and reloaded.
type gameCache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
	max     int
}

// cacheEntry is one game; hold mu while reading or changing p.
type cacheEntry struct {
	mu sync.Mutex
	p  *played // nil: not loaded
}

func newGameCache(max int) *gameCache {
	return &gameCache{entries: map[string]*cacheEntry{}, max: max}
}

// entry returns the entry of game id, adding it (and making room) if needed.
func (c *gameCache) entry(id string) *cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[id]; ok {
		return e
	}
	if len(c.entries) >= c.max {
		// Evict an arbitrary entry; a goroutine holding it finishes with it
		// uncached, which is correct, only slower.
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	e := &cacheEntry{}
	c.entries[id] = e
	return e
}

// drop forgets game id (it changed by another way than an action here, or
// does not exist).
func (c *gameCache) drop(id string) {
	c.mu.Lock()
	delete(c.entries, id)
	c.mu.Unlock()
}

// loaded returns the entry's game, loading it if needed or if fresh.
func loaded(e *cacheEntry, load func() (*played, error), fresh bool) (*played, error) {
	if e.p == nil || fresh {
		p, err := load()
		if err != nil {
			e.p = nil
			return nil, err
		}
		e.p = p
	}
	return e.p, nil
}
