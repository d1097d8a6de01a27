package mancala

// Perft counts the sequences of exactly depth written actions from s
// (RULES.md §6): automatic steps are not actions, and a game that ends sooner
// adds nothing at deeper depths. s is not changed.
func Perft(s *State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	w := newPerftWalker(s, depth)
	return w.count(0, depth)
}

// DivideEntry is the perft count below one legal action.
type DivideEntry struct {
	Action Action
	Count  uint64
}

// Divide returns Perft(child, depth-1) for every legal action of s, in the
// order of Legal. Their sum is Perft(s, depth).
func Divide(s *State, depth int) []DivideEntry {
	if depth <= 0 {
		return nil
	}
	w := newPerftWalker(s, depth)
	var out []DivideEntry
	for _, a := range s.Legal(nil) {
		child := w.states[1]
		child.CopyFrom(s)
		if err := child.Apply(a); err != nil {
			panic("mancala: Legal offered an illegal action: " + err.Error())
		}
		out = append(out, DivideEntry{a, w.count(1, depth-1)})
	}
	return out
}

// perftWalker holds one state and one action buffer per depth, so counting
// allocates nothing after the first descent.
type perftWalker struct {
	states []*State
	legal  [][]Action
}

func newPerftWalker(s *State, depth int) *perftWalker {
	w := &perftWalker{states: make([]*State, depth+1), legal: make([][]Action, depth+1)}
	for i := range w.states {
		w.states[i] = s.Clone()
	}
	return w
}

// count returns the perft of states[ply] to the given depth.
func (w *perftWalker) count(ply, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	s := w.states[ply]
	w.legal[ply] = s.Legal(w.legal[ply][:0])
	if depth == 1 {
		return uint64(len(w.legal[ply]))
	}
	var total uint64
	child := w.states[ply+1]
	for _, a := range w.legal[ply] {
		child.CopyFrom(s)
		if err := child.Apply(a); err != nil {
			panic("mancala: Legal offered an illegal action: " + err.Error())
		}
		total += w.count(ply+1, depth-1)
	}
	return total
}
