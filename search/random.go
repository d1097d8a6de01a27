package search

import (
	"context"
	"math/rand/v2"

	"matombo/mancala"
)

// Random plays a uniformly random legal action. Its choice is a function of
// its seed and the position, so it is reproducible; in the simultaneous
// Choro opening, of the position before South's choice.
type Random struct {
	seed uint64
	buf  []mancala.Action
}

// NewRandom returns a random player with the given seed.
func NewRandom(seed uint64) *Random { return &Random{seed: seed} }

// Choose returns a uniformly random legal action.
func (r *Random) Choose(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error) {
	if err := begin(s, lim); err != nil {
		return 0, err
	}
	if s.InSimultaneousOpening() { // seeded without South's hidden choice
		choices, err := openingChoices(s, s.ToMove())
		if err != nil {
			return 0, err
		}
		return choices[rand.New(rand.NewPCG(r.seed, openingSeed(s))).IntN(len(choices))], nil
	}
	rng := rand.New(rand.NewPCG(r.seed, positionSeed(s)))
	r.buf = s.Legal(r.buf[:0])
	return r.buf[rng.IntN(len(r.buf))], nil
}
