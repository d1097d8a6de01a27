// Package bench measures the rules core with uniformly random playouts from
// the start position, the figure that Ludii and other game systems publish.
// It is used both by `go test -bench` and by `matombo bench`.
//
// A playout reuses one State (reset to the start), one legal-action buffer and
// a small inline generator, so that it allocates nothing: what is measured is
// the rules, not the garbage collector.
package bench

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"matombo/mancala"
)

// Rand is a splitmix64 generator: small, fast, and good enough to pick
// uniformly among a few dozen actions. Its zero value is a valid generator.
type Rand struct{ state uint64 }

// NewRand returns a generator seeded with seed; equal seeds give equal
// sequences.
func NewRand(seed uint64) Rand { return Rand{state: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Intn returns a number in [0, n) for 0 < n < 2^32, by the multiply-shift
// method (its bias, below n/2^32, is far below anything a playout can see).
func (r *Rand) Intn(n int) int {
	return int((r.Uint64() >> 32) * uint64(n) >> 32)
}

// Runner plays random playouts of one ruleset on a single reused State.
// It is not safe for concurrent use.
type Runner struct {
	state *mancala.State
	legal []mancala.Action
	rng   Rand
}

// NewRunner returns a Runner for rs whose choices follow seed.
func NewRunner(rs mancala.Ruleset, seed uint64) (*Runner, error) {
	s, err := mancala.NewGame(rs)
	if err != nil {
		return nil, err
	}
	return &Runner{state: s, legal: make([]mancala.Action, 0, 128), rng: NewRand(seed)}, nil
}

// State returns the Runner's game: after Playout, the finished game.
func (r *Runner) State() *mancala.State { return r.state }

// errNoAction is a game in play that offers no action: a broken rules core.
var errNoAction = errors.New("bench: a game in play offered no legal action")

// Playout resets the game to the start and plays uniformly random legal
// actions until it ends. It fails only if the rules core contradicts itself
// (no legal action in a game in play, or a legal action refused).
func (r *Runner) Playout() error {
	s := r.state
	s.Reset()
	for !s.IsOver() {
		r.legal = s.Legal(r.legal[:0])
		if len(r.legal) == 0 {
			return errNoAction
		}
		if err := s.Apply(r.legal[r.rng.Intn(len(r.legal))]); err != nil {
			return fmt.Errorf("bench: legal action refused: %w", err)
		}
	}
	return nil
}

// Result is what a run of playouts measured.
type Result struct {
	Ruleset     mancala.Ruleset
	Playouts    int           // playouts completed
	Actions     int           // written actions applied
	Drops       int           // stones dropped by sowing (State.Stats().Drops)
	Turns       int           // completed turns
	Allocations uint64        // heap allocations during the loop (runtime.MemStats.Mallocs)
	Elapsed     time.Duration // time spent in the loop (wall clock)
	CPUTime     time.Duration // CPU time of the loop's thread; 0 where the system cannot tell
	Err         error         // why the run stopped early, if it did
}

// PlayoutsPerSec returns the playouts per second (0 for no elapsed time).
func (r Result) PlayoutsPerSec() float64 { return r.per(r.Playouts) }

// PlayoutsPerCPUSec returns the playouts per second of CPU time used by the
// loop (0 where the CPU time is unknown). On a machine shared with other
// work, where the loop gets only part of a core, it is the better estimate
// of the speed on a quiet machine; on a quiet machine it equals
// PlayoutsPerSec.
func (r Result) PlayoutsPerCPUSec() float64 {
	if r.CPUTime <= 0 {
		return 0
	}
	return float64(r.Playouts) / r.CPUTime.Seconds()
}

// DropsPerSec returns the stones dropped per second.
func (r Result) DropsPerSec() float64 { return r.per(r.Drops) }

// AllocsPerPlayout returns the heap allocations per playout.
func (r Result) AllocsPerPlayout() float64 {
	if r.Playouts == 0 {
		return 0
	}
	return float64(r.Allocations) / float64(r.Playouts)
}

func (r Result) per(n int) float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(n) / r.Elapsed.Seconds()
}

// Playouts plays random playouts of rs on the calling goroutine for about d
// of wall-clock time (at least one playout), choosing with a generator
// seeded by seed. The goroutine is locked to its OS thread meanwhile, so that
// the thread's CPU time measures the loop alone. The allocation count comes
// from runtime.ReadMemStats around the loop, so it includes any allocation by
// other goroutines meanwhile. An invalid ruleset or a contradiction in the
// rules core ends the run with Result.Err set.
func Playouts(rs mancala.Ruleset, d time.Duration, seed uint64) Result {
	res := Result{Ruleset: rs}
	r, err := NewRunner(rs, seed)
	if err != nil {
		res.Err = err
		return res
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cpuStart, cpuOK := ThreadCPUTime()
	start := time.Now()
	deadline := start.Add(d)
	for {
		if err := r.Playout(); err != nil {
			res.Err = err
			break
		}
		st := r.state.Stats()
		res.Playouts++
		res.Actions += st.Actions
		res.Drops += st.Drops
		res.Turns += st.Turns
		if !time.Now().Before(deadline) {
			break
		}
	}
	res.Elapsed = time.Since(start)
	if cpuEnd, ok := ThreadCPUTime(); ok && cpuOK {
		res.CPUTime = cpuEnd - cpuStart
	}
	runtime.ReadMemStats(&after)
	res.Allocations = after.Mallocs - before.Mallocs
	return res
}
