// Package lab is the variant lab: it plays many games of several rulesets
// in parallel and reports, per ruleset, who wins, how long games last, how
// the turns unfold and how often the safeguards of RULES.md §4 end a game,
// with 95% intervals where they apply. It backs `matombo lab` and the
// web app's /lab page (its HTTP API is internal/server/lab.go).
//
// Every game is a function of the seed and its index alone: game g of every
// ruleset uses the same random stream, seeded from (seed, g), and the
// per-ruleset accumulators hold integer sums merged at the end, so a report
// is the same for any number of workers. Each worker keeps one
// mancala.State per ruleset, reused with Reset, a legal-action buffer and a
// small generator: a random game allocates nothing.
package lab

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"matombo/bench"
	"matombo/mancala"
	"matombo/search"
)

// Bounds of a Config.
const (
	MaxGames    = 1_000_000_000 // games per ruleset
	MaxRulesets = 200
	MaxWorkers  = 256
	MaxOpening  = 50 // random opening turns
)

// DefaultOpening is the number of random turns that start each game between
// level players, so that deterministic levels do not play one game over and
// over.
const DefaultOpening = 2

// Player is who plays both sides: uniformly random actions (Level 0) or
// search.NewLevel(Level) on each side.
type Player struct {
	Level int
}

// ParsePlayer reads "random" or "level:K" with K from search.MinLevel to
// search.MaxLevel.
func ParsePlayer(text string) (Player, error) {
	if text == "random" {
		return Player{}, nil
	}
	if arg, ok := strings.CutPrefix(text, "level:"); ok {
		k, err := strconv.Atoi(arg)
		if err == nil && k >= search.MinLevel && k <= search.MaxLevel {
			return Player{Level: k}, nil
		}
		return Player{}, fmt.Errorf("lab: bad player %q: the level must be %d to %d, as in level:4", text, search.MinLevel, search.MaxLevel)
	}
	return Player{}, fmt.Errorf("lab: unknown player %q; players are random and level:K (K %d to %d)", text, search.MinLevel, search.MaxLevel)
}

// String returns the player as ParsePlayer reads it.
func (p Player) String() string {
	if p.Level == 0 {
		return "random"
	}
	return "level:" + strconv.Itoa(p.Level)
}

// Config is an experiment: Games games of each ruleset.
type Config struct {
	Rulesets []mancala.Ruleset
	Games    int    // games per ruleset, 1 to MaxGames
	Player   Player // plays both sides
	Seed     uint64
	Workers  int // parallel games; 0 means runtime.GOMAXPROCS(0)
	// SearchWorkers is the workers of each level player's search (0: the
	// level's own, two): with Workers 1 and SearchWorkers 1 an experiment
	// runs on one core.
	SearchWorkers int
	// Opening is the number of turns (head-setup turns included) played
	// uniformly at random before the players take over; it changes nothing
	// for random players.
	Opening int
	// Progress, if set, is called now and then from another goroutine with
	// the games finished so far (over all rulesets) and the total, and once
	// more at the end.
	Progress func(done, total int64)
}

// Validate reports whether cfg can be run.
func (c Config) Validate() error {
	switch {
	case len(c.Rulesets) == 0:
		return errors.New("lab: no ruleset; give at least one, such as \"tsoro size=8\"")
	case len(c.Rulesets) > MaxRulesets:
		return fmt.Errorf("lab: %d rulesets; at most %d", len(c.Rulesets), MaxRulesets)
	case c.Games < 1 || c.Games > MaxGames:
		return fmt.Errorf("lab: games %d out of range; play 1 to %d games per ruleset", c.Games, MaxGames)
	case c.Workers < 0 || c.Workers > MaxWorkers:
		return fmt.Errorf("lab: workers %d out of range; use 0 (one per core) to %d", c.Workers, MaxWorkers)
	case c.Opening < 0 || c.Opening > MaxOpening:
		return fmt.Errorf("lab: opening turns %d out of range; use 0 to %d", c.Opening, MaxOpening)
	}
	if k := c.Player.Level; k != 0 && (k < search.MinLevel || k > search.MaxLevel) {
		return fmt.Errorf("lab: level %d does not exist; levels are %d to %d", k, search.MinLevel, search.MaxLevel)
	}
	for _, rs := range c.Rulesets {
		if err := rs.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// Run plays the experiment and reports it. A cancelled context stops it
// early: the games finished by then are reported, with Complete false. It
// fails only on an invalid configuration or a contradiction in the rules
// core or the AI.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunk := 256 // games a worker takes at once
	if cfg.Player.Level != 0 {
		chunk = 1
	}
	nr := len(cfg.Rulesets)
	chunks := (cfg.Games + chunk - 1) / chunk
	r := &runner{cfg: &cfg, chunk: chunk, jobs: int64(chunks * nr)}
	r.total = int64(cfg.Games) * int64(nr)

	stopWatch := make(chan struct{})
	var watch sync.WaitGroup
	watch.Go(func() { r.watch(ctx, stopWatch) })

	start := time.Now()
	ws := make([]*worker, workers)
	var wg sync.WaitGroup
	for i := range ws {
		ws[i] = newWorker(&cfg)
		wg.Go(func() { ws[i].run(ctx, r) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stopWatch)
	watch.Wait()
	if cfg.Progress != nil {
		cfg.Progress(r.done.Load(), r.total)
	}

	accs := make([]*Acc, nr)
	for i := range accs {
		accs[i] = NewAcc()
		for _, w := range ws {
			if w.err != nil {
				return nil, w.err
			}
			if w.accs[i] != nil {
				accs[i].Merge(w.accs[i])
			}
		}
	}
	rep := &Report{
		Player:   cfg.Player.String(),
		Seed:     cfg.Seed,
		Opening:  cfg.Opening,
		Games:    cfg.Games,
		Workers:  workers,
		Elapsed:  elapsed,
		Complete: r.done.Load() == r.total,
		Accs:     accs,
	}
	for i, rs := range cfg.Rulesets {
		rep.Rulesets = append(rep.Rulesets, summarize(rs, accs[i], &cfg))
	}
	return rep, nil
}

// runner shares the jobs among the workers: job j is chunk j/R of ruleset
// j%R (R rulesets), so all rulesets advance together and an early stop
// leaves them with similar numbers of games.
type runner struct {
	cfg   *Config
	chunk int
	jobs  int64
	next  atomic.Int64
	done  atomic.Int64
	total int64
	stop  atomic.Bool // set when the context ends or a worker fails
}

// watch sets r.stop when ctx ends and reports progress until stopWatch is
// closed.
func (r *runner) watch(ctx context.Context, stopWatch <-chan struct{}) {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stopWatch:
			return
		case <-ctx.Done():
			r.stop.Store(true)
			return
		case <-tick.C:
			if r.cfg.Progress != nil {
				r.cfg.Progress(r.done.Load(), r.total)
			}
		}
	}
}

// worker plays games on its own states and accumulators.
type worker struct {
	cfg    *Config
	states []*mancala.State // one per ruleset, made when first needed
	accs   []*Acc
	legal  []mancala.Action
	err    error
}

func newWorker(cfg *Config) *worker {
	return &worker{
		cfg:    cfg,
		states: make([]*mancala.State, len(cfg.Rulesets)),
		accs:   make([]*Acc, len(cfg.Rulesets)),
		legal:  make([]mancala.Action, 0, 128),
	}
}

func (w *worker) run(ctx context.Context, r *runner) {
	nr := int64(len(w.cfg.Rulesets))
	for !r.stop.Load() {
		j := r.next.Add(1) - 1
		if j >= r.jobs {
			return
		}
		ri := int(j % nr)
		first := int(j/nr) * r.chunk
		last := min(first+r.chunk, w.cfg.Games)
		if w.states[ri] == nil {
			s, err := mancala.NewGame(w.cfg.Rulesets[ri])
			if err != nil {
				w.fail(r, err)
				return
			}
			w.states[ri], w.accs[ri] = s, NewAcc()
			if w.cfg.Player.Level != 0 {
				w.accs[ri].Seen = map[uint64]struct{}{}
			}
		}
		for g := first; g < last && !r.stop.Load(); g++ {
			game, ok, err := w.play(ctx, w.states[ri], g)
			if err != nil {
				w.fail(r, fmt.Errorf("lab: %s, game %d: %w", w.cfg.Rulesets[ri], g, err))
				return
			}
			if !ok {
				return // stopped in the middle of the game
			}
			w.accs[ri].Add(game)
			r.done.Add(1)
		}
	}
}

func (w *worker) fail(r *runner, err error) {
	w.err = err
	r.stop.Store(true)
}

// gameSeed is the seed of game g's random choices.
func gameSeed(seed uint64, g int) uint64 {
	return mix(seed ^ mix(uint64(g)+0x632be59bd9b4e019))
}

// mix is the splitmix64 finalizer.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// errNoAction is a game in play without a legal action: a broken rules core.
var errNoAction = errors.New("a game in play offered no legal action")

// play plays game g on s from the start. It reports ok false, and no
// error, when the run was stopped during the game (only level players check
// between decisions).
func (w *worker) play(ctx context.Context, s *mancala.State, g int) (game Game, ok bool, err error) {
	seed := gameSeed(w.cfg.Seed, g)
	rng := bench.NewRand(seed)
	var players [2]search.Player
	if k := w.cfg.Player.Level; k != 0 {
		for p := range players {
			if players[p], err = search.NewLevelOn(k, seed+uint64(p), w.cfg.SearchWorkers); err != nil {
				return game, false, err
			}
		}
	}
	s.Reset()
	for !s.IsOver() {
		w.legal = s.Legal(w.legal[:0])
		n := len(w.legal)
		if n == 0 {
			return game, false, errNoAction
		}
		game.Decisions++
		game.Legal += n
		a := w.legal[rng.Intn(n)]
		if p := players[s.ToMove()]; p != nil && s.Turns() >= w.cfg.Opening {
			if ctx.Err() != nil {
				return game, false, nil
			}
			if a, err = p.Choose(ctx, s, search.Limits{}); err != nil {
				if ctx.Err() != nil {
					return game, false, nil
				}
				return game, false, err
			}
		}
		if players[0] != nil {
			game.Hash = mix(game.Hash ^ uint64(a) ^ uint64(game.Decisions)<<16)
		}
		opening := s.InSimultaneousOpening()
		if err := s.Apply(a); err != nil {
			return game, false, fmt.Errorf("a chosen action was refused: %w", err)
		}
		if opening && !s.InSimultaneousOpening() {
			game.Opened, game.FirstMover = true, s.ToMove()
		}
	}
	st := s.Stats()
	game.Outcome = s.Outcome()
	game.Turns, game.Laps, game.Captures, game.LapCuts = st.Turns, st.Laps, st.Captures, st.LapCuts
	game.SameStep = st.SameStepOpenings > 0
	game.CWLimited, game.Switches, game.OtherHoles = st.ClockwiseLimited, st.Switches, st.OtherHoles
	return game, true, nil
}
