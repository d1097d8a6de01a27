package search

import (
	"context"
	"fmt"
	"sync"

	"matombo/mancala"
)

// Pool is a Player safe for concurrent use made of players that are not:
// each Choose takes a free player or makes a new one, so a decision never
// waits for another's search, and gives it back when done. The pool keeps as
// many players as were asked to choose at once.
type Pool struct {
	newPlayer func(n int) (Player, error)
	mu        sync.Mutex
	free      []Player
	made      int
}

// NewPool returns a pool whose players are made by newPlayer, given 1 for the
// first player made, 2 for the second, and so on (to seed each its own way).
func NewPool(newPlayer func(n int) (Player, error)) *Pool {
	return &Pool{newPlayer: newPlayer}
}

// NewLevelPool returns a pool of players of level k (NewLevel): the n-th
// made is seeded with seed + k<<32 + n.
func NewLevelPool(k int, seed uint64) (*Pool, error) {
	if _, err := Level(k); err != nil {
		return nil, err
	}
	return NewPool(func(n int) (Player, error) {
		return NewLevel(k, seed+uint64(k)<<32+uint64(n))
	}), nil
}

// Choose implements Player: the choice of a free player of the pool.
func (p *Pool) Choose(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error) {
	pl, err := p.take()
	if err != nil {
		return 0, err
	}
	defer p.put(pl)
	return pl.Choose(ctx, s, lim)
}

// Made returns how many players the pool has made: the most decisions it
// was asked for at once so far.
func (p *Pool) Made() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.made
}

func (p *Pool) take() (Player, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		pl := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return pl, nil
	}
	p.made++
	n := p.made
	p.mu.Unlock()
	pl, err := p.newPlayer(n)
	if err != nil {
		p.mu.Lock()
		p.made--
		p.mu.Unlock()
		return nil, err
	}
	return pl, nil
}

func (p *Pool) put(pl Player) {
	p.mu.Lock()
	p.free = append(p.free, pl)
	p.mu.Unlock()
}

// Levels is a player per level, each safe for concurrent use: Levels[k]
// plays level k, from MinLevel to MaxLevel (Levels[0] is unused). The web
// app plays the level of each game with it.
type Levels [MaxLevel + 1]Player

// NewLevels returns the search's levels as pools of level players
// (NewLevelPool) seeded from seed.
func NewLevels(seed uint64) Levels {
	var l Levels
	for k := MinLevel; k <= MaxLevel; k++ {
		l[k], _ = NewLevelPool(k, seed) // k is a level: no error
	}
	return l
}

// NewGreedyLevels returns fast stand-ins for the levels (for tests and
// fuzzers): level k is a Greedy player that plays a random legal action with
// probability (MaxLevel-k)/(MaxLevel-MinLevel), so level 1 always plays at
// random and level 8 never does.
func NewGreedyLevels(seed uint64) Levels {
	var l Levels
	for k := MinLevel; k <= MaxLevel; k++ {
		l[k] = NewGreedy(seed+uint64(k), float64(MaxLevel-k)/float64(MaxLevel-MinLevel))
	}
	return l
}

// SameLevels returns Levels that play p at every level (p must be safe for
// concurrent use when the levels are used concurrently).
func SameLevels(p Player) Levels {
	var l Levels
	for k := MinLevel; k <= MaxLevel; k++ {
		l[k] = p
	}
	return l
}

// Player returns the player of level k, or an error if k is not a level or
// has no player.
func (l *Levels) Player(k int) (Player, error) {
	if _, err := Level(k); err != nil {
		return nil, err
	}
	if l[k] == nil {
		return nil, fmt.Errorf("search: level %d has no player", k)
	}
	return l[k], nil
}

// IsZero reports whether no level has a player.
func (l *Levels) IsZero() bool { return *l == Levels{} }
