package mancala_test

import (
	"maps"
	"slices"
	"strings"

	"matombo/mancala"
)

// The reference's Choro (RULES.md §3.4), written from the text of the rules:
// the main-phase turn with the options cw and leave, the sequential opening
// (an opening turn of the mover alone) and the simultaneous opening (both
// openings sown in lockstep steps).

// choroTurn is what a main-phase Choro turn has done so far, as far as the
// options cw and leave care.
type choroTurn struct {
	allCW      bool // every lap of the turn so far was sown clockwise
	lateCW     bool // a clockwise lap was sown after an anticlockwise one
	stonesLeft bool // leave=yes: stones were left (a switch was played)
	closed     bool // leave=yes: the anticlockwise lap after a capture, once stones were left, was sown
	decCap     bool // the pending decision follows a capture (not a relay)
	decCW      bool // the lap that made the pending decision was clockwise
	decNext    string
}

func newChoroTurn() choroTurn { return choroTurn{allCW: true} }

// refCounts are the reference's counts of the Choro events that the
// engine's Stats report.
type refCounts struct {
	sameStep, limited, switches, others int
}

func (g *refGame) simultaneous() bool {
	return g.rs.Game == mancala.Choro && g.rs.Opening == mancala.OpeningSimultaneous
}

// openingHoles lists p's outer holes with 2 or more stones.
func (g *refGame) openingHoles(p string) []string {
	var out []string
	for _, h := range g.loops[p] {
		if !inner(h) && g.board[h] >= 2 {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}

// otherSpecial returns the player's other special hole.
func otherSpecial(h string) string {
	return map[string]string{"a1": "b2", "b2": "a1", "d8": "c7", "c7": "d8"}[h]
}

// cwBudget reports whether cw allows a clockwise lap now, at a decision
// after a capture.
func (g *refGame) cwBudget() bool {
	return g.rs.Clockwise == mancala.ClockwiseAny || g.allCW || !g.lateCW
}

// choroLaps sows laps from h (clockwise if cw) until the turn ends or the
// player has a decision.
func (g *refGame) choroLaps(h string, cw bool) {
	for {
		if cw {
			if !g.allCW {
				g.lateCW = true
			}
		} else {
			g.allCW = false
		}
		last, reached := g.sowFrom(h, cw)
		g.reached = g.reached || reached
		if g.board[last] == 1 || g.laps == 1000 {
			g.endTurn()
			return
		}
		next, captured := last, false
		if !g.reached {
			if o := g.oppOuterSameColumn(last); g.board[o] > 0 {
				g.board[h] += g.board[o]
				g.board[o] = 0
				next = h
			}
		} else if g.inOpposition(last) {
			g.board[h] += g.board[g.oppInner(last)] + g.board[g.oppOuter(last)]
			g.board[g.oppInner(last)], g.board[g.oppOuter(last)] = 0, 0
			next, captured = h, true
		}
		if g.openTrn {
			h, cw = next, false
			continue
		}
		g.decCap, g.decCW, g.decNext = captured, cw, next
		opts := g.choroOptions(next)
		if len(opts) > 1 {
			g.phase, g.hold, g.opts = "dir", next, opts
			return
		}
		h, cw = g.choose(opts[0])
	}
}

// oppOuterSameColumn is the opponent's outer hole in the column of h.
func (g *refGame) oppOuterSameColumn(h string) string {
	if owner(h) == "S" {
		return across(h, 'd')
	}
	return across(h, 'a')
}

// choroOptions lists the actions of the decision before the next lap,
// which lifts next by steps 3–5.
func (g *refGame) choroOptions(next string) []string {
	opts := []string{next}
	if g.special(next) && g.cwCaptures(next) {
		if g.rs.Clockwise == mancala.ClockwiseAny || (g.decCap && g.cwBudget()) {
			opts = append(opts, next+"cw")
		} else {
			g.counts.limited++
		}
	}
	if g.rs.Leave && g.decCap && !g.closed {
		if y := otherSpecial(next); g.decCW && g.board[y] >= 2 && g.cwCaptures(y) && g.cwBudget() {
			opts = append(opts, y+"cw")
		}
		if g.stonesLeft {
			for _, z := range g.loops[g.side] {
				if z != next && g.board[z] >= 2 {
					opts = append(opts, z)
				}
			}
		}
	}
	slices.Sort(opts)
	return opts
}

// choose plays the bookkeeping of action a at a decision and returns the
// hole the next lap lifts and its direction.
func (g *refGame) choose(a string) (string, bool) {
	h, cw := strings.CutSuffix(a, "cw")
	switch {
	case cw && h != g.decNext:
		g.stonesLeft = true
		g.counts.switches++
	case !cw && h != g.decNext:
		g.counts.others++
	}
	if !cw && g.decCap && g.stonesLeft {
		g.closed = true
	}
	g.phase = "start"
	return h, cw
}

// opener is one player's sowing in the simultaneous opening.
type opener struct {
	p         string
	hand      int    // stones in hand
	at        int    // index in the loop of the last hole dropped into
	origin    string // the lap's origin
	reached   bool   // a stone of this opening was dropped into the inner row
	laps      int
	landedOcc bool // the last drop fell into an occupied hole
	done      bool
	step      int // the step in which the opening ended
}

// lockstep sows the simultaneous opening from South's hole sa and North's
// hole na, step by step, and starts the main phase.
func (g *refGame) lockstep(sa, na string) {
	ps := []*opener{{p: "S", origin: sa}, {p: "N", origin: na}}
	for _, o := range ps {
		o.hand, g.board[o.origin] = g.board[o.origin], 0
		o.at, o.laps = g.index(o.origin), 1
	}
	for step := 1; !ps[0].done || !ps[1].done; step++ {
		for _, o := range ps {
			if o.done {
				continue
			}
			loop := g.loops[o.p]
			o.at = (o.at + 1) % len(loop)
			h := loop[o.at]
			o.landedOcc = g.board[h] > 0
			g.board[h]++
			o.reached = o.reached || inner(h)
			o.hand--
		}
		for _, o := range ps {
			if !o.done && o.hand == 0 {
				g.judge(o, step)
			}
		}
	}
	g.opening["S"], g.opening["N"] = true, true
	g.side = "S"
	if ps[1].step < ps[0].step {
		g.side = "N"
	}
	if ps[0].step == ps[1].step {
		g.counts.sameStep++
	}
	g.turns++
	g.laps = 0
	g.choroTurn = newChoroTurn()
	g.phase = "start"
	g.beginTurn()
}

// judge judges o's lap, whose last stone fell in this step, and lifts the
// hole it lifts next.
func (g *refGame) judge(o *opener, step int) {
	last := g.loops[o.p][o.at]
	if !o.landedOcc || o.laps == 1000 {
		o.done, o.step = true, step
		return
	}
	next := last
	if !o.reached {
		if x := g.oppOuterSameColumn(last); g.board[x] > 0 {
			g.board[o.origin] += g.board[x]
			g.board[x] = 0
			next = o.origin
		}
	} else if g.inOpposition(last) {
		g.board[o.origin] += g.board[g.oppInner(last)] + g.board[g.oppOuter(last)]
		g.board[g.oppInner(last)], g.board[g.oppOuter(last)] = 0, 0
		next = o.origin
	}
	if g.board[next] == 0 {
		o.done, o.step = true, step
		g.openingsCut++
		return
	}
	o.hand, g.board[next] = g.board[next], 0
	o.at, o.origin = g.index(next), next
	o.laps++
}

// clone returns an independent copy of g.
func (g *refGame) clone() *refGame {
	c := *g
	c.board = maps.Clone(g.board)
	c.heads = maps.Clone(g.heads)
	c.opening = maps.Clone(g.opening)
	c.history = slices.Clone(g.history)
	c.opts = slices.Clone(g.opts)
	return &c
}

// refPerft counts the sequences of exactly depth written actions.
func refPerft(g *refGame, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if g.phase == "over" {
		return 0
	}
	var n uint64
	for _, a := range g.legal() {
		c := g.clone()
		if err := c.play(a); err != nil {
			panic(err)
		}
		n += refPerft(c, depth-1)
	}
	return n
}
