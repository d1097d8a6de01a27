package bench

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"matombo/mancala"
)

// TestPlayoutAllocatesNothing asserts the point of the package: once the
// buffers have grown, a whole playout allocates nothing, for every ruleset.
func TestPlayoutAllocatesNothing(t *testing.T) {
	for _, rs := range append(DefaultRulesets(), mancala.Presets()...) {
		t.Run(rs.String(), func(t *testing.T) {
			r, err := NewRunner(rs, 7)
			if err != nil {
				t.Fatal(err)
			}
			// Let the repetition history and the action buffer reach their size.
			for range 50 {
				if err := r.Playout(); err != nil {
					t.Fatal(err)
				}
			}
			var perr error
			allocs := testing.AllocsPerRun(20, func() {
				if err := r.Playout(); err != nil {
					perr = err
				}
			})
			if perr != nil {
				t.Fatal(perr)
			}
			if allocs != 0 {
				t.Errorf("a playout allocates %v times; want 0", allocs)
			}
		})
	}
}

// TestPlayoutsEndGames checks that every playout ends in a finished game
// and that the counters add up.
func TestPlayoutsEndGames(t *testing.T) {
	for _, rs := range DefaultRulesets() {
		r, err := NewRunner(rs, 1)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			if err := r.Playout(); err != nil {
				t.Fatalf("%s: %v", rs, err)
			}
			s := r.State()
			if !s.IsOver() || s.Outcome().Result == mancala.NoResult {
				t.Fatalf("%s: playout stopped in a game in play: %s", rs, s.Position())
			}
			if st := s.Stats(); st.Actions < st.Turns || st.Turns == 0 || st.Drops == 0 {
				t.Fatalf("%s: implausible stats %+v", rs, st)
			}
		}
	}
}

// TestPlayoutsReproducible checks that a seed fixes the games played.
func TestPlayoutsReproducible(t *testing.T) {
	rs := mancala.MustParseRuleset("nsolo")
	play := func(seed uint64) (positions []string) {
		r, err := NewRunner(rs, seed)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if err := r.Playout(); err != nil {
				t.Fatal(err)
			}
			positions = append(positions, r.State().Position())
		}
		return positions
	}
	a, b, c := play(3), play(3), play(4)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("seed 3 played different games:\n%v\n%v", a, b)
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Errorf("seeds 3 and 4 played the same five games: %v", a)
	}
}

func TestPlayoutsResult(t *testing.T) {
	res := Playouts(mancala.MustParseRuleset("musoro-tsoro"), 20*time.Millisecond, 1)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.Playouts < 1 || res.Actions < res.Playouts || res.Turns < res.Playouts || res.Drops < res.Actions {
		t.Errorf("implausible result %+v", res)
	}
	if res.Elapsed < 20*time.Millisecond || res.PlayoutsPerSec() <= 0 || res.DropsPerSec() <= 0 {
		t.Errorf("elapsed %v, %v playouts/s, %v drops/s", res.Elapsed, res.PlayoutsPerSec(), res.DropsPerSec())
	}
	if _, ok := ThreadCPUTime(); ok && (res.CPUTime <= 0 || res.CPUTime > res.Elapsed+10*time.Millisecond) {
		t.Errorf("CPU time %v for %v of wall-clock time", res.CPUTime, res.Elapsed)
	}
	bad := Playouts(mancala.Ruleset{}, time.Millisecond, 1)
	if bad.Err == nil || bad.Playouts != 0 {
		t.Errorf("invalid ruleset: got %+v, want an error and no playout", bad)
	}
}

func TestRandIntn(t *testing.T) {
	r := NewRand(42)
	const n, draws = 7, 70000
	var counts [n]int
	for range draws {
		k := r.Intn(n)
		if k < 0 || k >= n {
			t.Fatalf("Intn(%d) = %d", n, k)
		}
		counts[k]++
	}
	for k, c := range counts {
		if c < draws/n*9/10 || c > draws/n*11/10 {
			t.Errorf("value %d drawn %d times of %d; want about %d", k, c, draws, draws/n)
		}
	}
	if r.Intn(1) != 0 {
		t.Error("Intn(1) != 0")
	}
}

func TestLudii(t *testing.T) {
	// Any spelling of the same rules finds the figure.
	if v, ok := Ludii(mancala.MustParseRuleset("tsoro bonus=3 heads=none size=8")); !ok || v != 2870 {
		t.Errorf("tsoro 8 none 3: got %v, %v", v, ok)
	}
	if v, ok := Ludii(mancala.MustParseRuleset("misoro-tsoro size=8")); !ok || v != 702 {
		t.Errorf("misoro-tsoro: got %v, %v", v, ok)
	}
	if _, ok := Ludii(mancala.MustParseRuleset("nsolo")); ok {
		t.Error("Ludii publishes no Nsolo figure")
	}
}

// BenchmarkPlayouts measures random playouts per ruleset; compare runs with
// benchstat.
func BenchmarkPlayouts(b *testing.B) {
	for _, rs := range DefaultRulesets() {
		b.Run(rs.String(), func(b *testing.B) {
			r, err := NewRunner(rs, 1)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu := startCPU()
			drops := 0
			for b.Loop() {
				if err := r.Playout(); err != nil {
					b.Fatal(err)
				}
				drops += r.State().Stats().Drops
			}
			cpu.report(b, float64(b.N), "playouts/cpu-s")
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "playouts/s")
			b.ReportMetric(float64(drops)/sec, "drops/s")
			if v, ok := Ludii(rs); ok {
				b.ReportMetric(float64(b.N)/sec/v, "xLudii")
			}
		})
	}
}

// BenchmarkPerft measures perft on each preset, at a depth of some ten
// thousand nodes, in nodes (counted leaves) per second.
func BenchmarkPerft(b *testing.B) {
	depths := map[mancala.Game]int{
		mancala.Tsoro:       4,
		mancala.MisoroTsoro: 5,
		mancala.MusoroTsoro: 6,
		mancala.Nsolo:       4,
		mancala.Choro:       5,
	}
	for _, rs := range mancala.Presets() {
		depth := depths[rs.Game]
		b.Run(fmt.Sprintf("%s/depth=%d", rs, depth), func(b *testing.B) {
			s, err := mancala.NewGame(rs)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu := startCPU()
			var nodes uint64
			for b.Loop() {
				nodes += mancala.Perft(s, depth)
			}
			cpu.report(b, float64(nodes), "nodes/cpu-s")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// cpuClock measures a benchmark's own CPU time, for a figure that a busy
// shared machine does not distort as much as the wall clock.
type cpuClock struct {
	start time.Duration
	ok    bool
}

// startCPU locks the benchmark to its thread (until it ends) and starts
// the clock.
func startCPU() cpuClock {
	runtime.LockOSThread()
	t, ok := ThreadCPUTime()
	return cpuClock{t, ok}
}

// report unlocks the thread and reports n per CPU second as unit, where the
// system tells CPU time.
func (c cpuClock) report(b *testing.B, n float64, unit string) {
	t, ok := ThreadCPUTime()
	runtime.UnlockOSThread()
	if ok && c.ok && t > c.start {
		b.ReportMetric(n/(t-c.start).Seconds(), unit)
	}
}
