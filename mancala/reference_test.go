package mancala_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"matombo/mancala"
)

// refGame is a second, deliberately plain implementation of RULES.md, used
// only to check the engine: holes by name in maps, stones sown one at a time,
// every turn-start position remembered as text. It shares no code with the
// engine beyond the ruleset parser.
type refGame struct {
	rs    mancala.Ruleset
	n     int
	board map[string]int
	heads map[string]bool
	loops map[string][]string // "S"/"N": the anticlockwise loop of hole names

	side    string
	phase   string   // start, setup, head, pick, remove, dir, open1, open2, over
	hold    string   // the head or hole awaiting a decision
	opts    []string // Choro: the actions of a "dir" decision
	left    int      // picks or stones left to take
	laps    int
	opening map[string]bool // Choro: the player's opening turn is done
	openTrn bool            // Choro: this turn is the mover's opening
	reached bool            // Choro: a stone of this turn reached the inner row
	history []string
	turns   int
	result  string // "", "S", "N", "draw"

	choroTurn        // Choro: what the main-phase turn has done so far
	south     string // Choro: South's choice in the simultaneous opening
	counts    refCounts
	// openingsCut counts the simultaneous openings that ended because the
	// hole a lap would lift next had just been captured (not in Stats).
	openingsCut int
}

func newRef(rs mancala.Ruleset) *refGame {
	n := rs.Size
	g := &refGame{rs: rs, n: n, board: map[string]int{}, heads: map[string]bool{}, loops: map[string][]string{}, opening: map[string]bool{}, side: "S", choroTurn: newChoroTurn()}
	col := func(r byte, c int) string { return string(r) + strconv.Itoa(c) }
	for c := 1; c <= n; c++ {
		g.loops["S"] = append(g.loops["S"], col('a', c))
		g.loops["N"] = append(g.loops["N"], col('c', c))
	}
	for c := n; c >= 1; c-- {
		g.loops["S"] = append(g.loops["S"], col('b', c))
		g.loops["N"] = append(g.loops["N"], col('d', c))
	}
	for c := 1; c <= n; c++ {
		switch rs.Game {
		case mancala.Nsolo, mancala.Choro:
			for _, r := range "abcd" {
				g.board[col(byte(r), c)] = 2
			}
		default:
			g.board[col('a', c)] = 2
			g.board[col('d', c)] = 2
		}
	}
	if rs.Game == mancala.Nsolo {
		g.board[col('b', n)] = 0
		g.board[col('c', 1)] = 0
	}
	if rs.Game != mancala.Nsolo && rs.Game != mancala.Choro {
		var hs []string
		switch rs.Heads {
		case mancala.HeadsRight2:
			hs = []string{col('a', n-1), col('a', n), col('d', 2), col('d', 1)}
		case mancala.HeadsLeft2:
			hs = []string{col('a', 1), col('a', 2), col('d', n), col('d', n-1)}
		case mancala.HeadsEnds:
			hs = []string{col('a', 1), col('a', n), col('d', n), col('d', 1)}
			g.board[col('a', n)], g.board[col('d', 1)] = 3, 3
		case mancala.HeadsRight1:
			hs = []string{col('a', n), col('d', 1)}
			g.board[col('a', n)], g.board[col('d', 1)] = 3, 3
		}
		for _, h := range hs {
			g.heads[h] = true
		}
	}
	g.beginTurn()
	return g
}

func other(p string) string {
	if p == "S" {
		return "N"
	}
	return "S"
}

func owner(h string) string {
	if h[0] <= 'b' {
		return "S"
	}
	return "N"
}

func inner(h string) bool { return h[0] == 'b' || h[0] == 'c' }

// across returns the hole in the same column of the given row.
func across(h string, row byte) string { return string(row) + h[1:] }

func (g *refGame) oppInner(h string) string {
	if owner(h) == "S" {
		return across(h, 'c')
	}
	return across(h, 'b')
}

func (g *refGame) oppOuter(h string) string {
	if owner(h) == "S" {
		return across(h, 'd')
	}
	return across(h, 'a')
}

func (g *refGame) headCount(p string) int {
	k := 0
	for h := range g.heads {
		if owner(h) == p {
			k++
		}
	}
	return k
}

func (g *refGame) position() string {
	var rows []string
	for _, r := range "dcba" {
		var cells []string
		for c := 1; c <= g.n; c++ {
			h := string(r) + strconv.Itoa(c)
			cell := strconv.Itoa(g.board[h])
			if g.heads[h] {
				cell += "*"
			}
			cells = append(cells, cell)
		}
		rows = append(rows, strings.Join(cells, ","))
	}
	s := strings.Join(rows, "/") + " " + g.side
	if g.rs.Game == mancala.Choro && !g.opening[g.side] {
		s += " opening"
	}
	return s
}

func (g *refGame) stones(p string) int {
	t := 0
	for _, h := range g.loops[p] {
		t += g.board[h]
	}
	return t
}

func (g *refGame) beginTurn() {
	g.phase = "start"
	if g.rs.Heads == mancala.HeadsChoose && g.rs.Game != mancala.Nsolo && g.headCount(g.side) < 2 {
		g.phase = "setup"
	}
	if g.simultaneous() && !g.opening["S"] {
		g.phase = "open1"
		switch {
		case len(g.openingHoles("S")) == 0:
			g.phase, g.result = "over", "N"
			return
		case len(g.openingHoles("N")) == 0:
			g.phase, g.result = "over", "S"
			return
		}
	}
	if g.phase == "start" && len(g.startActions()) == 0 {
		g.phase, g.result = "over", other(g.side)
		return
	}
	key := g.position() + fmt.Sprint(g.opening["S"], g.opening["N"])
	seen := 0
	for _, k := range g.history {
		if k == key {
			seen++
		}
	}
	g.history = append(g.history, key)
	if g.rs.Game == mancala.Nsolo && seen >= 1 {
		g.phase, g.result = "over", "draw"
		return
	}
	if seen >= 2 || g.turns >= 2000 {
		g.phase = "over"
		switch s, n := g.stones("S"), g.stones("N"); {
		case s > n:
			g.result = "S"
		case n > s:
			g.result = "N"
		default:
			g.result = "draw"
		}
	}
}

func (g *refGame) endTurn() {
	g.turns++
	g.side = other(g.side)
	g.laps = 0
	g.choroTurn = newChoroTurn()
	g.beginTurn()
}

func (g *refGame) index(h string) int { return slices.Index(g.loops[owner(h)], h) }

// sowFrom lifts h and sows stone by stone; it returns the last hole and
// whether any stone landed in the mover's inner row.
func (g *refGame) sowFrom(h string, clockwise bool) (string, bool) {
	loop := g.loops[owner(h)]
	k := g.board[h]
	g.board[h] = 0
	i := g.index(h)
	reached := false
	for ; k > 0; k-- {
		if clockwise {
			i = (i - 1 + len(loop)) % len(loop)
		} else {
			i = (i + 1) % len(loop)
		}
		g.board[loop[i]]++
		reached = reached || inner(loop[i])
	}
	g.laps++
	return loop[i], reached
}

func (g *refGame) special(h string) bool {
	return h == "a1" || h == "b2" || h == "d8" || h == "c7"
}

func (g *refGame) inOpposition(h string) bool {
	return inner(h) && g.board[g.oppInner(h)] > 0 && g.board[g.oppOuter(h)] > 0
}

// cwCaptures tries a clockwise lap from h on a copy of the board.
func (g *refGame) cwCaptures(h string) bool {
	saved := map[string]int{}
	for k, v := range g.board {
		saved[k] = v
	}
	laps := g.laps
	last, _ := g.sowFrom(h, true)
	ok := g.board[last] > 1 && g.inOpposition(last)
	g.board, g.laps = saved, laps
	return ok
}

func (g *refGame) startActions() []string {
	var out []string
	loop := g.loops[g.side]
	if g.rs.Game == mancala.Choro {
		for _, h := range loop {
			if g.board[h] >= 2 && (g.opening[g.side] || !inner(h)) {
				out = append(out, h)
			}
		}
		if g.opening[g.side] {
			for _, h := range loop {
				if g.special(h) && g.board[h] >= 2 && g.cwCaptures(h) {
					out = append(out, h+"cw")
				}
			}
		}
		return out
	}
	for _, h := range loop {
		if g.board[h] >= 2 {
			out = append(out, h)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, h := range loop {
		if g.board[h] == 1 && g.board[loop[(i+1)%len(loop)]] == 0 {
			out = append(out, h)
		}
	}
	return out
}

func (g *refGame) legal() []string {
	var out []string
	switch g.phase {
	case "start":
		out = g.startActions()
	case "setup":
		for _, h := range g.loops[g.side] {
			if !inner(h) && !g.heads[h] {
				out = append(out, h)
			}
		}
	case "head":
		out = []string{g.hold, "stop"}
	case "pick", "remove":
		for _, h := range g.loops[other(g.side)] {
			if g.board[h] > 0 {
				out = append(out, "x"+h)
			}
		}
	case "dir":
		out = slices.Clone(g.opts)
	case "open1":
		out = g.openingHoles("S")
	case "open2":
		out = g.openingHoles("N")
	}
	slices.Sort(out)
	return out
}

func (g *refGame) play(a string) error {
	if !slices.Contains(g.legal(), a) {
		return fmt.Errorf("reference: %s is not legal in %s", a, g.position())
	}
	switch g.phase {
	case "setup":
		g.heads[a] = true
		g.endTurn()
	case "start":
		if g.rs.Game == mancala.Choro {
			g.openTrn = !g.opening[g.side]
			g.opening[g.side] = true
			g.reached = !g.openTrn
			h, cw := strings.CutSuffix(a, "cw")
			g.choroLaps(h, cw)
		} else {
			g.tsoroLaps(a)
		}
	case "head":
		if a == "stop" {
			g.endTurn()
		} else {
			g.tsoroLaps(a)
		}
	case "pick":
		g.board[a[1:]] = 0
		g.picks(g.left - 1)
	case "remove":
		g.board[a[1:]]--
		g.removal(g.left - 1)
	case "dir":
		g.choroLaps(g.choose(a))
	case "open1":
		g.south, g.side, g.phase = a, "N", "open2"
	case "open2":
		g.lockstep(g.south, a)
	}
	return nil
}

func (g *refGame) tsoroLaps(h string) {
	for {
		last, _ := g.sowFrom(h, false)
		if g.board[last] == 1 {
			g.capture(last)
			return
		}
		if g.laps == 1000 {
			g.endTurn()
			return
		}
		if g.heads[last] {
			g.phase, g.hold = "head", last
			return
		}
		h = last
	}
}

func (g *refGame) capture(last string) {
	if !inner(last) || g.board[g.oppInner(last)] == 0 {
		g.endTurn()
		return
	}
	taken := g.board[g.oppInner(last)]
	g.board[g.oppInner(last)] = 0
	outer := g.rs.Game != mancala.Nsolo || g.rs.Outer
	if outer {
		taken += g.board[g.oppOuter(last)]
		g.board[g.oppOuter(last)] = 0
	}
	switch {
	case g.rs.Game == mancala.Nsolo && g.rs.Extra == 0:
		g.removal(taken)
	case g.rs.Game == mancala.Nsolo:
		g.picks(g.rs.Extra)
	default:
		g.picks(g.rs.Bonus)
	}
}

func (g *refGame) occupied(p string) []string {
	var out []string
	for _, h := range g.loops[p] {
		if g.board[h] > 0 {
			out = append(out, h)
		}
	}
	return out
}

func (g *refGame) picks(k int) {
	occ := g.occupied(other(g.side))
	if k > 0 && len(occ) > k {
		g.phase, g.left = "pick", k
		return
	}
	if k > 0 {
		for _, h := range occ {
			g.board[h] = 0
		}
	}
	g.endTurn()
}

func (g *refGame) removal(k int) {
	q := other(g.side)
	occ := g.occupied(q)
	switch {
	case k == 0:
	case g.stones(q) <= k:
		for _, h := range occ {
			g.board[h] = 0
		}
	case len(occ) == 1:
		g.board[occ[0]] -= k
	default:
		g.phase, g.left = "remove", k
		return
	}
	g.endTurn()
}

// setPosition sets the reference game to a position in notation, trusting it.
func (g *refGame) setPosition(pos string) {
	fields := strings.Fields(pos)
	rows := strings.Split(fields[0], "/")
	g.heads = map[string]bool{}
	for k, row := range rows {
		for c, cell := range strings.Split(row, ",") {
			h := string("dcba"[k]) + strconv.Itoa(c+1)
			digits, head := strings.CutSuffix(cell, "*")
			g.board[h], _ = strconv.Atoi(digits)
			if head {
				g.heads[h] = true
			}
		}
	}
	g.side = fields[1]
	opening := len(fields) == 3
	g.opening = map[string]bool{"S": !opening || g.side == "N", "N": !opening}
	g.history, g.turns, g.laps, g.result = nil, 0, 0, ""
	g.choroTurn, g.counts = newChoroTurn(), refCounts{}
	g.beginTurn()
}
