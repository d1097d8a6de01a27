package search

import (
	"slices"

	"matombo/mancala"
)

// PrincipalVariation returns the line the last Choose expects from s: the
// chosen root action (the best one; with Noise, the best before the noise)
// and then, position after position, the best action stored in the
// transposition tables, up to max decisions. It stops where no table knows
// the position (beyond the search's horizon, or an entry overwritten), at
// the end of the game, or at a position met before on the line. s must be
// the state the last Choose searched; the line is only as long as the
// search saw.
func (ab *AlphaBeta) PrincipalVariation(s *mancala.State, first mancala.Action, max int) []mancala.Action {
	if s == nil || s.IsOver() || max <= 0 || !slices.Contains(s.Legal(nil), first) {
		return nil
	}
	cur := s.Clone()
	line := []mancala.Action{first}
	seen := map[uint64]bool{cur.Hash(): true}
	if err := cur.Apply(first); err != nil {
		return nil
	}
	for len(line) < max && !cur.IsOver() {
		key := cur.Hash()
		if seen[key] {
			break
		}
		seen[key] = true
		a, ok := ab.tableMove(key)
		if !ok || !slices.Contains(cur.Legal(nil), a) {
			break
		}
		if err := cur.Apply(a); err != nil {
			break
		}
		line = append(line, a)
	}
	return line
}

// tableMove returns the best action stored for key by the worker that
// searched it deepest in the last search.
func (ab *AlphaBeta) tableMove(key uint64) (mancala.Action, bool) {
	best, depth, found := mancala.Action(0), -1, false
	for _, w := range ab.workers {
		if e, ok := w.tt.probe(key); ok && e.best != 0 && int(e.depth) > depth {
			best, depth, found = e.best, int(e.depth), true
		}
	}
	return best, found
}
