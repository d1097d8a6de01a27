package mancala

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Position returns the position in notation (RULES.md §5): rows d, c, b, a
// as South sees them, counts of columns 1..N separated by ",", heads marked
// "*", rows separated by "/", then the side to move and, for a Choro side yet
// to make its opening turn, " opening". Mid-turn it shows the board as it
// stands and the side whose decision it is.
func (s *State) Position() string {
	var b strings.Builder
	n := s.r.n
	for row := RowD; ; row-- {
		for col := 1; col <= n; col++ {
			if col > 1 {
				b.WriteByte(',')
			}
			h := MakeHole(row, col)
			b.WriteString(strconv.Itoa(s.Count(h)))
			if s.IsHead(h) {
				b.WriteByte('*')
			}
		}
		if row == RowA {
			break
		}
		b.WriteByte('/')
	}
	b.WriteByte(' ')
	b.WriteString(s.side.String())
	if s.InOpening() {
		b.WriteString(" opening")
	}
	return b.String()
}

// PositionError is a position that cannot be read or set, with the reason.
type PositionError struct {
	Position string
	Reason   string
}

// Error returns the position and the reason it was refused.
func (e *PositionError) Error() string {
	return "mancala: bad position " + strconv.Quote(e.Position) + ": " + e.Reason
}

// SetPosition replaces the game by the position in notation, at the start of a
// turn, for the same ruleset. The game's history (repetitions, turn count,
// stats) starts afresh there. The position may be a finished game: Outcome
// then reports it. On error s is unchanged.
func (s *State) SetPosition(text string) error {
	fail := func(format string, args ...any) error {
		return &PositionError{Position: text, Reason: fmt.Sprintf(format, args...)}
	}
	r := s.r
	fields := strings.Split(text, " ")
	if len(fields) < 2 || len(fields) > 3 {
		return fail("want four rows, a space and the side to move (S or N)%s, such as %s", r.openingHint(), s.startPositionExample())
	}
	var side Player
	switch fields[1] {
	case "S":
		side = South
	case "N":
		side = North
	default:
		return fail("the side to move is %q; it must be S or N", fields[1])
	}
	opening := len(fields) == 3
	if opening && (fields[2] != "opening" || !r.choro) {
		if !r.choro {
			return fail("unexpected %q after the side to move; only Choro positions may end with \" opening\"", fields[2])
		}
		return fail("unexpected %q after the side to move; only \" opening\" may follow it", fields[2])
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != 4 {
		return fail("found %d rows; a position has 4 (d/c/b/a, separated by /)", len(rows))
	}
	var board [2][maxLoop]uint8
	var heads [2]uint64
	var stones [2]int
	for k, rowText := range rows {
		row := RowD - Row(k)
		cells := strings.Split(rowText, ",")
		if len(cells) != r.n {
			return fail("row %s has %d holes; this board has %d columns", row, len(cells), r.n)
		}
		for c, cell := range cells {
			h := MakeHole(row, c+1)
			head := strings.HasSuffix(cell, "*")
			digits := strings.TrimSuffix(cell, "*")
			v, err := strconv.Atoi(digits)
			if err != nil || v < 0 || v > 255 || digits != strconv.Itoa(v) {
				return fail("hole %s holds %q; a count is a whole number from 0 to 255, optionally followed by * for a head", h, cell)
			}
			p, i := loopIndex(h, r.n)
			board[p][i] = uint8(v)
			stones[p] += v
			if head {
				if row.Inner() {
					return fail("hole %s is marked as a head, but heads are in the outer rows", h)
				}
				heads[p] |= 1 << i
			}
		}
	}
	limit := 255
	for p := range 2 {
		if stones[p] > limit || (r.choro && stones[0]+stones[1] > limit) {
			return fail("too many stones (%d and %d); each side may hold at most %d, and Choro's board at most %d in all", stones[0], stones[1], limit, limit)
		}
	}
	var named [2]int
	if r.chooseHeads {
		named = [2]int{bits.OnesCount64(heads[South]), bits.OnesCount64(heads[North])}
		ok := named[South] <= 2 && named[North] <= 2
		if ok && (named[South] < 2 || named[North] < 2) {
			// Setup order South, North, South, North.
			if side == South {
				ok = named[South] == named[North]
			} else {
				ok = named[South] == named[North]+1
			}
		}
		if !ok {
			return fail("with heads=choose, heads are named South, North, South, North (two each) before play; %d South and %d North heads with %s to move cannot occur", named[South], named[North], side.Name())
		}
	} else if heads != r.heads {
		return fail("the heads marked are not those of %s; its start position is %s", r.rs, s.startPositionExample())
	}
	var openingDone [2]bool
	switch {
	case r.simultaneous && opening && side == North:
		return fail("with opening=simultaneous both players open in one turn, South's choice then North's, so a position before it is \"S opening\"; \"N opening\" is mid-turn, between the two choices")
	case r.simultaneous:
		openingDone = [2]bool{!opening, !opening}
	case r.choro:
		openingDone = [2]bool{!opening || side == North, !opening}
	}

	s.setBoard(board, heads, named, openingDone, side)
	return nil
}

func (r *rules) openingHint() string {
	if r.choro {
		return ", then \" opening\" if that side has yet to make its opening turn"
	}
	return ""
}

func (s *State) startPositionExample() string {
	start := &State{r: s.r}
	start.Reset()
	return start.Position()
}

// StartPosition returns the start position of rs in notation.
func StartPosition(rs Ruleset) (string, error) {
	s, err := NewGame(rs)
	if err != nil {
		return "", err
	}
	return s.Position(), nil
}
