package mancala

// Loop returns p's 2n holes in anticlockwise sowing order (RULES.md §1):
// an anticlockwise lap drops its stones into the holes after its origin in
// this order, round and round; a clockwise lap runs it backwards. South's
// loop is a1..an then bn..b1, North's c1..cn then dn..d1.
func (s *State) Loop(p Player) []Hole {
	out := make([]Hole, s.r.loop)
	for i := range out {
		out[i] = holeAt(p, i, s.r.n)
	}
	return out
}

// SpecialHoles returns p's Choro special holes, those that may be sown
// clockwise (RULES.md §3.4): its leftmost outer hole and its second inner
// hole from the left, as p sees the board. It is nil in the other games.
func (s *State) SpecialHoles(p Player) []Hole {
	if !s.r.choro {
		return nil
	}
	return []Hole{holeAt(p, s.r.special[p][0], s.r.n), holeAt(p, s.r.special[p][1], s.r.n)}
}
