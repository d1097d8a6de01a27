package mancala

import (
	"strconv"
	"strings"
)

// WrittenTurn is one turn of a record as the record writes it, for move
// lists.
type WrittenTurn struct {
	Number int    // the move number: move k holds South's turn then North's; after a simultaneous opening (move 1) the main phase starts at move 2
	Side   Player // the side that plays the turn; South for the simultaneous opening, whose first choice is South's
	Both   bool   // the turn is the simultaneous Choro opening: both sides' choices
	Text   string // the turn in notation: its actions joined by ",", the simultaneous opening's two choices by "|"
}

// WrittenTurns returns the turns of r as String writes them, with their
// move numbers and sides, the last, unfinished turn included.
func (r *Record) WrittenTurns() []WrittenTurn {
	order := r.order()
	out := make([]WrittenTurn, len(r.Turns))
	names := make([]string, 0, 4)
	for t, turn := range r.Turns {
		side, num, both := order.turn(t)
		names = names[:0]
		for _, a := range turn {
			names = append(names, a.String())
		}
		out[t] = WrittenTurn{Number: num, Side: side, Both: both, Text: strings.Join(names, actionSeparator(both))}
	}
	return out
}

// prefix returns the move number written before the turn at index t of
// turns (as WrittenTurns gives them): "k. " before South's turn, "k... "
// before North's when it opens a line of play (the record's first turn, or
// the first after a simultaneous opening), "" otherwise.
func (w WrittenTurn) prefix(t int, turns []WrittenTurn) string {
	switch {
	case w.Side == South:
		return strconv.Itoa(w.Number) + ". "
	case t == 0 || (t == 1 && turns[0].Both):
		return strconv.Itoa(w.Number) + "... "
	}
	return ""
}

// ParseRecordAs reads a record as ParseRecord does, but under the ruleset
// rs instead of its Ruleset header's (which must still be there and valid):
// to import a record under the reading that a *ReadingError suggests.
func ParseRecordAs(text string, rs Ruleset) (*Record, error) {
	p := recordParser{rec: &Record{}, reading: &rs}
	if err := p.parse(text); err != nil {
		return nil, err
	}
	return p.rec, nil
}
