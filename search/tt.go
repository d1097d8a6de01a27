package search

import "matombo/mancala"

// Bound kinds of a transposition-table score.
const (
	boundExact uint8 = iota + 1
	boundLower
	boundUpper
)

// ttEntry is one slot of the transposition table.
type ttEntry struct {
	key   uint64
	best  mancala.Action
	score int32
	depth int8
	bound uint8
	gen   uint16
}

// table is a fixed-size transposition table indexed by the position hash.
// Entries of an older generation count as empty, so a new search starts
// from a clean table without clearing it, and its results depend only on
// the search itself.
type table struct {
	slots []ttEntry
	mask  uint64
	gen   uint16
}

func newTable(bits int) *table {
	return &table{slots: make([]ttEntry, 1<<bits), mask: 1<<bits - 1}
}

// newGeneration forgets every entry.
func (t *table) newGeneration() {
	t.gen++
	if t.gen == 0 { // wrapped: clear for real
		clear(t.slots)
		t.gen = 1
	}
}

func (t *table) probe(key uint64) (ttEntry, bool) {
	e := t.slots[key&t.mask]
	return e, e.key == key && e.gen == t.gen && e.bound != 0
}

// move returns the best action stored for key by this or an earlier
// generation, for move ordering only (0 when none): a search whose scores
// are not valid for this one may still know which action to try first.
func (t *table) move(key uint64) mancala.Action {
	e := t.slots[key&t.mask]
	if e.key != key || e.bound == 0 {
		return 0
	}
	return e.best
}

// store keeps the deeper entry of the slot, preferring fresh ones.
func (t *table) store(key uint64, depth int, score int, bound uint8, best mancala.Action) {
	e := &t.slots[key&t.mask]
	if e.gen == t.gen && e.key != key && int(e.depth) > depth {
		return
	}
	*e = ttEntry{key: key, best: best, score: int32(score), depth: int8(depth), bound: bound, gen: t.gen}
}

// boundOf returns the kind of bound a search result best is, given the
// window (alphaOrig, beta) it was searched with.
func boundOf(best, alphaOrig, beta int) uint8 {
	switch {
	case best <= alphaOrig:
		return boundUpper
	case best >= beta:
		return boundLower
	}
	return boundExact
}

// cuts reports whether the entry's score sc settles a search with window
// (alpha, beta).
func (e ttEntry) cuts(sc, alpha, beta int) bool {
	return e.bound == boundExact || (e.bound == boundLower && sc >= beta) || (e.bound == boundUpper && sc <= alpha)
}

// Scores of won and lost games: WinScore minus the decisions to the win, so
// that faster wins score higher.
const (
	WinScore = 1_000_000
	winBound = WinScore - 10_000 // scores beyond this are wins or losses
	infinity = WinScore + 1
)

// toTT and fromTT make win scores relative to the node, so a stored win
// keeps its distance wherever the position is met.
func toTT(score, ply int) int {
	switch {
	case score > winBound:
		return score + ply
	case score < -winBound:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score > winBound:
		return score - ply
	case score < -winBound:
		return score + ply
	}
	return score
}
