package search

import (
	"matombo/mancala"
)

// simulate plays st to the end or to the playout limit with the configured
// policy and returns +1 if South won, -1 if North won, 0 for a draw. A
// playout cut short is scored by the stones on each side.
func (w *worker) simulate(st *mancala.State) int {
	for d := 0; d < w.cfg.MaxPlayout && !st.IsOver(); d++ {
		w.legal = st.Legal(w.legal[:0])
		a := w.legal[0]
		if len(w.legal) > 1 {
			if w.cfg.Policy == PolicyGreedy && w.rng.Float64() >= w.cfg.Epsilon {
				a = w.greedy(st)
			} else {
				a = w.legal[w.rng.IntN(len(w.legal))]
			}
		}
		if err := st.Apply(a); err != nil {
			panic("search: Legal offered an illegal action: " + err.Error())
		}
	}
	if st.IsOver() {
		return outcomeFor(st, mancala.South)
	}
	d := st.Stones(mancala.South) - st.Stones(mancala.North)
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

// greedy returns the action among w.legal (or a random sample of them) that
// leaves the side to move the best stone balance one decision later; a pick
// or removal takes the fullest hole. Ties go to the first candidate, and
// the candidates come in random order.
func (w *worker) greedy(st *mancala.State) mancala.Action {
	if w.legal[0].Kind() == mancala.KindTake {
		best, most := w.legal[0], -1
		for _, a := range w.legal {
			if k := st.Count(a.Hole()); k > most || (k == most && w.rng.IntN(2) == 0) {
				best, most = a, k
			}
		}
		return best
	}
	cand := w.legal
	if w.cfg.Sample > 0 && len(cand) > w.cfg.Sample {
		w.rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
		cand = cand[:w.cfg.Sample]
	} else {
		w.rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	}
	me := st.ToMove()
	best, bestGain := cand[0], -1<<30
	for _, a := range cand {
		w.scratch.CopyFrom(st)
		if err := w.scratch.Apply(a); err != nil {
			panic("search: Legal offered an illegal action: " + err.Error())
		}
		var gain int
		if w.scratch.IsOver() {
			gain = outcomeFor(w.scratch, me) << 20
		} else {
			gain = w.scratch.Stones(me) - w.scratch.Stones(me.Other())
		}
		if gain > bestGain {
			best, bestGain = a, gain
		}
	}
	return best
}
