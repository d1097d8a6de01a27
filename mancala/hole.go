package mancala

import (
	"fmt"
	"strconv"
)

// Player is a side of the board: South moves first.
type Player uint8

// The two players.
const (
	South Player = 0
	North Player = 1
)

// Other returns the opponent of p.
func (p Player) Other() Player { return p ^ 1 }

// String returns "S" or "N", as in positions and results.
func (p Player) String() string {
	if p == South {
		return "S"
	}
	return "N"
}

// Name returns "South" or "North".
func (p Player) Name() string {
	if p == South {
		return "South"
	}
	return "North"
}

// Row is a row of the board, 'a' (South's outer row, bottom) to 'd' (North's
// outer row, top).
type Row uint8

// The four rows, bottom to top as South sees the board.
const (
	RowA Row = iota // South's outer row
	RowB            // South's inner row
	RowC            // North's inner row
	RowD            // North's outer row
)

// Owner returns the player whose row r is.
func (r Row) Owner() Player { return Player(r >> 1) }

// Inner reports whether r is an inner row (b or c).
func (r Row) Inner() bool { return r == RowB || r == RowC }

// String returns the row letter, "a" to "d".
func (r Row) String() string { return string(rune('a' + r)) }

// MaxSize is the largest board size of any ruleset (Nsolo 4×36).
const MaxSize = 36

// maxLoop is the longest loop of one player's two rows.
const maxLoop = 2 * MaxSize

// Hole names a hole by row and column (1-based, left to right as South sees
// the board). The zero Hole is not a hole; use MakeHole.
type Hole uint8

// MakeHole returns the hole at row r and column col (1..MaxSize).
func MakeHole(r Row, col int) Hole { return Hole(uint8(r)<<6 | uint8(col)) }

// Row returns the row of h.
func (h Hole) Row() Row { return Row(h >> 6) }

// Col returns the 1-based column of h.
func (h Hole) Col() int { return int(h & 63) }

// Valid reports whether h is a hole of a board with size columns.
func (h Hole) Valid(size int) bool { return h.Col() >= 1 && h.Col() <= size }

// String returns the hole's name, such as "a1" or "d21".
func (h Hole) String() string { return h.Row().String() + strconv.Itoa(h.Col()) }

// ParseHole reads a hole name: a row letter a–d and a column 1–36 without
// leading zeros. It does not know the board size; check Valid.
func ParseHole(s string) (Hole, error) {
	if len(s) < 2 || len(s) > 3 || s[0] < 'a' || s[0] > 'd' || s[1] < '1' || s[1] > '9' {
		return 0, fmt.Errorf("mancala: %q is not a hole; holes are a row a–d and a column, such as a1 or d12", s)
	}
	col, err := strconv.Atoi(s[1:])
	if err != nil || col > MaxSize {
		return 0, fmt.Errorf("mancala: %q is not a hole; columns run from 1 to at most %d", s, MaxSize)
	}
	return MakeHole(Row(s[0]-'a'), col), nil
}

// loopIndex returns the player owning h and h's position on that player's
// anticlockwise loop of 2n holes (RULES.md §1): rows a and c run 0..n-1 from
// column 1, rows b and d run n..2n-1 from column n back to column 1.
func loopIndex(h Hole, n int) (Player, int) {
	r, col := h.Row(), h.Col()
	if r == RowA || r == RowC {
		return r.Owner(), col - 1
	}
	return r.Owner(), 2*n - col
}

// holeAt is the inverse of loopIndex.
func holeAt(p Player, i, n int) Hole {
	if i < n {
		return MakeHole(Row(2*p), i+1)
	}
	return MakeHole(Row(2*p+1), 2*n-i)
}

// isInner reports whether loop position i of player p is in p's inner row.
// South's inner row b is the second half of its loop, North's inner row c
// the first half.
func isInner(p Player, i, n int) bool { return (i >= n) == (p == South) }

// Loop positions of the other player relate simply: the hole in the same
// column and the same role (inner or outer) is at mirror(i) = 2n-1-i, and the
// other player's outer hole opposite an inner hole i is at the same index i.

// MarshalText writes the hole's name, such as "a3".
func (h Hole) MarshalText() ([]byte, error) {
	if h.Col() < 1 || h.Col() > 36 {
		return nil, fmt.Errorf("mancala: hole(%d) has no name", uint8(h))
	}
	return []byte(h.String()), nil
}

// UnmarshalText reads a hole's name, as ParseHole.
func (h *Hole) UnmarshalText(text []byte) error {
	v, err := ParseHole(string(text))
	if err != nil {
		return err
	}
	*h = v
	return nil
}
