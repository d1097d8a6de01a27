package mancala_test

import (
	"math/rand/v2"
	"testing"

	"matombo/mancala"
)

// TestPlayoutAllocatesNothing checks that the rules core allocates nothing
// in a playout loop (Reset, Legal into a grown buffer, Apply) once its
// buffers have grown, for every preset and the Choro rulesets of
// docs/PERFT.md: the simultaneous opening, cw=first's and leave=yes's
// decisions and the DLP's reading. (bench's TestPlayoutAllocatesNothing
// checks its own runner over the presets.)
func TestPlayoutAllocatesNothing(t *testing.T) {
	rss := mancala.Presets()
	for _, text := range []string{"choro opening=sequential cw=any leave=no", "choro opening=sequential", "choro cw=any", "choro leave=no"} {
		rss = append(rss, mancala.MustParseRuleset(text))
	}
	for _, rs := range rss {
		t.Run(rs.String(), func(t *testing.T) {
			s, err := mancala.NewGame(rs)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			var buf []mancala.Action
			var perr error
			playout := func() {
				s.Reset()
				for !s.IsOver() {
					buf = s.Legal(buf[:0])
					if err := s.Apply(buf[rng.IntN(len(buf))]); err != nil {
						perr = err
						return
					}
				}
			}
			for range 50 { // let the repetition history and buf grow
				playout()
			}
			allocs := testing.AllocsPerRun(20, playout)
			if perr != nil {
				t.Fatal(perr)
			}
			if allocs != 0 {
				t.Errorf("a playout allocates %v times; want 0", allocs)
			}
			if rs.Game == mancala.Choro && s.Stats().Turns == 0 {
				t.Error("the playouts played no turn")
			}
		})
	}
}
