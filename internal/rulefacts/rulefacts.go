// Package rulefacts gives the facts of a game's rules that the pages draw
// and explain with (docs/API.md, "Rule facts"), from the engine, so that no
// rule is written again in JavaScript: the server's views and the offline
// engine's carry the same.
package rulefacts

import "matombo/mancala"

// Facts are the facts of a game's rules the pages draw and explain with,
// so that no rule is written again in JavaScript (docs/API.md, "Rule
// facts"): they come from the engine.
type Facts struct {
	// SpecialHoles are Choro's special holes, which may be sown clockwise:
	// South's then North's; [] in the other games.
	SpecialHoles []string `json:"special_holes"`
	// Sides are each side's rows and sowing loop, by "S" and "N".
	Sides map[string]Side `json:"sides"`
	// SimultaneousOpening: the game opens with Choro's simultaneous opening
	// (opening=simultaneous).
	SimultaneousOpening bool `json:"simultaneous_opening"`
}

// Side is one side's holes as its rules use them.
type Side struct {
	Outer string `json:"outer"` // the letter of the side's outer row
	Inner string `json:"inner"` // the letter of its inner row
	// Loop is the side's holes in anticlockwise sowing order: a lap drops
	// its stones into the holes after its origin, round and round; a
	// clockwise lap runs it backwards. Laps never leave it.
	Loop    []string `json:"loop"`
	Special []string `json:"special"` // the side's Choro special holes; [] in the other games
}

// Of returns the rule facts of the game s plays.
func Of(s *mancala.State) Facts {
	f := Facts{SpecialHoles: []string{}, Sides: map[string]Side{},
		SimultaneousOpening: s.Ruleset().Game == mancala.Choro && s.Ruleset().Opening == mancala.OpeningSimultaneous}
	for _, p := range []mancala.Player{mancala.South, mancala.North} {
		sf := Side{Loop: []string{}, Special: []string{}}
		for _, h := range s.Loop(p) {
			sf.Loop = append(sf.Loop, h.String())
			if h.Row().Inner() {
				sf.Inner = h.Row().String()
			} else {
				sf.Outer = h.Row().String()
			}
		}
		for _, h := range s.SpecialHoles(p) {
			sf.Special = append(sf.Special, h.String())
		}
		f.SpecialHoles = append(f.SpecialHoles, sf.Special...)
		f.Sides[p.String()] = sf
	}
	return f
}

// Turn is one turn of a game as its record writes it, for the move lists
// of the pages.
type Turn struct {
	Number int    `json:"number"` // the move number
	Side   string `json:"side"`   // "S", "N", or "both" for the simultaneous Choro opening
	Text   string `json:"text"`   // the turn in notation: "a7,stop", "a6|d3"
}

// Turns returns the turns of rec as written (mancala.Record.WrittenTurns).
func Turns(rec *mancala.Record) []Turn {
	ws := rec.WrittenTurns()
	out := make([]Turn, len(ws))
	for i, w := range ws {
		side := w.Side.String()
		if w.Both {
			side = "both"
		}
		out[i] = Turn{Number: w.Number, Side: side, Text: w.Text}
	}
	return out
}

// Board is the board of a view: each row's counts from column 1, and the
// heads.
type Board struct {
	Rows  map[string][]int `json:"rows"`
	Heads []string         `json:"heads"`
}

// BoardOf returns the board of s as the views carry it.
func BoardOf(s *mancala.State) Board {
	n := s.Size()
	b := Board{Rows: map[string][]int{}, Heads: []string{}}
	for r := mancala.RowA; r <= mancala.RowD; r++ {
		counts := make([]int, n)
		for c := 1; c <= n; c++ {
			h := mancala.MakeHole(r, c)
			counts[c-1] = s.Count(h)
			if s.IsHead(h) {
				b.Heads = append(b.Heads, h.String())
			}
		}
		b.Rows[r.String()] = counts
	}
	return b
}
