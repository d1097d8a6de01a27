package mancala

// rules is a Ruleset compiled for play: the board geometry, the start
// position, the options as the turn logic reads them, and the hash keys.
// It is immutable and shared by every State of the ruleset.
type rules struct {
	rs      Ruleset
	n, loop int // columns, and holes on one player's loop (2n)

	choro        bool
	simultaneous bool // Choro opening=simultaneous: both players open in one turn
	cwAny        bool // Choro cw=any: any lap from a special hole may go clockwise
	leave        bool // Choro leave=yes: captures may be left for the other special hole
	nsolo        bool // second occurrence of a position draws
	takeOuter    bool // a capture also takes the opposite outer hole
	picks        int  // whole-hole picks after a capture (Tsoro bonus, Nsolo extra)
	removal      bool // Nsolo: remove as many single stones as were captured
	chooseHeads  bool // heads are named in a setup phase

	heads   [2]uint64          // fixed heads, as bit masks of loop positions
	outer   [2]bitset          // each player's outer row
	acts    [2][maxLoop]Action // the hole action of every loop position
	takes   [2][maxLoop]Action // the take action of every loop position
	special [2][2]int          // Choro: holes that may be sown clockwise
	start   [2][maxLoop]uint8  // start position

	// prefix[p][j] is the sum of boardKeys[p][i mod loop] for i < j, over two
	// turns of the loop, so the hash change of sowing a run of holes is one
	// subtraction.
	prefix  [2][2*maxLoop + 1]uint64
	loopKey [2]uint64 // sum of boardKeys over the whole loop

	startState *State // the start of a game, for State.Reset to copy
}

// compile builds the rules of a valid Ruleset.
func compile(rs Ruleset) *rules {
	n := rs.Size
	r := &rules{rs: rs, n: n, loop: 2 * n}
	r.choro = rs.Game == Choro
	if r.choro {
		r.simultaneous = rs.Opening == OpeningSimultaneous
		r.cwAny = rs.Clockwise == ClockwiseAny
		r.leave = rs.Leave
	}
	r.nsolo = rs.Game == Nsolo
	switch rs.Game {
	case Tsoro, MisoroTsoro, MusoroTsoro:
		r.takeOuter = true
		r.picks = rs.Bonus
	case Nsolo:
		r.takeOuter = rs.Outer
		r.picks = rs.Extra
		r.removal = rs.Extra == 0
	}

	// South's outer row is loop positions 0..n-1 from its left; North's
	// positions are South's turned by half a loop (the board seen from the
	// other seat), so rotate(i) = (i+n) mod 2n.
	rotate := func(i int) int { return (i + n) % r.loop }
	var southHeads []int
	threeStones := -1
	if rs.Game != Nsolo && rs.Game != Choro {
		switch rs.Heads {
		case HeadsRight2:
			southHeads = []int{n - 2, n - 1}
		case HeadsLeft2:
			southHeads = []int{0, 1}
		case HeadsEnds:
			southHeads = []int{0, n - 1}
			threeStones = n - 1
		case HeadsRight1:
			southHeads = []int{n - 1}
			threeStones = n - 1
		case HeadsChoose:
			r.chooseHeads = true
		}
	}
	for _, i := range southHeads {
		r.heads[South] |= 1 << i
		r.heads[North] |= 1 << rotate(i)
	}
	r.special = [2][2]int{{0, r.loop - 2}, {rotate(0), rotate(r.loop - 2)}}

	for i := 0; i < n; i++ {
		switch rs.Game {
		case Nsolo, Choro:
			r.start[South][i], r.start[South][i+n] = 2, 2
			r.start[North][i], r.start[North][i+n] = 2, 2
		default:
			r.start[South][i] = 2
			r.start[North][rotate(i)] = 2
		}
	}
	if threeStones >= 0 {
		r.start[South][threeStones] = 3
		r.start[North][rotate(threeStones)] = 3
	}
	if rs.Game == Nsolo { // each player's rightmost inner hole starts empty: bN and c1
		r.start[South][n] = 0
		r.start[North][0] = 0
	}

	for p := range 2 {
		for i := 0; i < r.loop; i++ {
			r.acts[p][i] = HoleAction(holeAt(Player(p), i, n))
			r.takes[p][i] = Take(holeAt(Player(p), i, n))
			if !isInner(Player(p), i, n) {
				r.outer[p][i>>6] |= 1 << (i & 63)
			}
		}
		for j := 1; j <= 2*r.loop; j++ {
			r.prefix[p][j] = r.prefix[p][j-1] + keys.board[p][(j-1)%r.loop]
		}
		r.loopKey[p] = r.prefix[p][r.loop]
	}
	r.startState = &State{r: r}
	r.startState.setStart()
	return r
}

// otherSpecial returns p's special hole that is not loop position i.
func (r *rules) otherSpecial(p Player, i int) int {
	if r.special[p][0] == i {
		return r.special[p][1]
	}
	return r.special[p][0]
}

// isSpecial reports whether loop position i of p is a Choro special hole.
func (r *rules) isSpecial(p Player, i int) bool {
	return r.special[p][0] == i || r.special[p][1] == i
}
