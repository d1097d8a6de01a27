package search

import (
	"context"
	"testing"

	"matombo/mancala"
)

// BenchmarkMCTS reports playouts per second of each playout policy on each
// preset, from the start position.
func BenchmarkMCTS(b *testing.B) {
	for _, rs := range mancala.Presets() {
		for _, pol := range []Policy{PolicyUniform, PolicyGreedy} {
			name := rs.String() + "/uniform"
			if pol == PolicyGreedy {
				name = rs.String() + "/greedy"
			}
			b.Run(name, func(b *testing.B) {
				s, _ := mancala.NewGame(rs)
				cfg := DefaultMCTS(1)
				cfg.Policy, cfg.Workers = pol, 1
				m, err := NewMCTS(cfg)
				if err != nil {
					b.Fatal(err)
				}
				total := 0
				for b.Loop() {
					if _, err := m.Choose(context.Background(), s, Limits{Playouts: 200}); err != nil {
						b.Fatal(err)
					}
					total += m.LastStats().Playouts
				}
				b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "playouts/s")
			})
		}
	}
}
