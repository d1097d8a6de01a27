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

// BenchmarkAlphaBeta reports nodes per second of the alpha-beta player from
// each preset's start, with a fixed node budget.
func BenchmarkAlphaBeta(b *testing.B) {
	for _, rs := range mancala.Presets() {
		b.Run(rs.String(), func(b *testing.B) {
			s, _ := mancala.NewGame(rs)
			ab, err := NewAlphaBeta(DefaultAlphaBeta(1))
			if err != nil {
				b.Fatal(err)
			}
			total := 0
			for b.Loop() {
				if _, err := ab.Choose(context.Background(), s, Limits{Nodes: 200_000}); err != nil {
					b.Fatal(err)
				}
				total += ab.LastStats().Nodes
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(ab.LastStats().Depth), "depth")
		})
	}
}
