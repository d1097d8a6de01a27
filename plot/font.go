package plot

import "strings"

// The bitmap font of the PNG renderer: every glyph is 5 pixels wide in a
// cell of 6 by 11 (one column and a row above and below of spacing). Rows 0
// to 6 hold capitals and digits, rows 2 to 6 the x-height of lower-case
// letters, rows 7 and 8 the descenders; the baseline is under row 6.
const (
	glyphWidth  = 5
	glyphRows   = 9
	cellWidth   = 6
	glyphAscent = 7 // rows above the baseline
)

// glyph returns the rows of r's bitmap, top first, as fields of "0" and "1"
// ("." is an empty row; missing rows at the bottom are empty). Runes
// without a glyph are drawn as a hollow box.
func glyph(r rune) string {
	switch r {
	case ' ':
		return ""
	case '0':
		return "01110 10001 10011 10101 11001 10001 01110"
	case '1':
		return "00100 01100 00100 00100 00100 00100 01110"
	case '2':
		return "01110 10001 00001 00010 00100 01000 11111"
	case '3':
		return "11111 00010 00100 00010 00001 10001 01110"
	case '4':
		return "00010 00110 01010 10010 11111 00010 00010"
	case '5':
		return "11111 10000 11110 00001 00001 10001 01110"
	case '6':
		return "00110 01000 10000 11110 10001 10001 01110"
	case '7':
		return "11111 00001 00010 00100 01000 01000 01000"
	case '8':
		return "01110 10001 10001 01110 10001 10001 01110"
	case '9':
		return "01110 10001 10001 01111 00001 00010 01100"
	case 'A':
		return "01110 10001 10001 11111 10001 10001 10001"
	case 'B':
		return "11110 10001 10001 11110 10001 10001 11110"
	case 'C':
		return "01110 10001 10000 10000 10000 10001 01110"
	case 'D':
		return "11100 10010 10001 10001 10001 10010 11100"
	case 'E':
		return "11111 10000 10000 11110 10000 10000 11111"
	case 'F':
		return "11111 10000 10000 11110 10000 10000 10000"
	case 'G':
		return "01110 10001 10000 10111 10001 10001 01111"
	case 'H':
		return "10001 10001 10001 11111 10001 10001 10001"
	case 'I':
		return "01110 00100 00100 00100 00100 00100 01110"
	case 'J':
		return "00111 00010 00010 00010 00010 10010 01100"
	case 'K':
		return "10001 10010 10100 11000 10100 10010 10001"
	case 'L':
		return "10000 10000 10000 10000 10000 10000 11111"
	case 'M':
		return "10001 11011 10101 10101 10001 10001 10001"
	case 'N':
		return "10001 10001 11001 10101 10011 10001 10001"
	case 'O':
		return "01110 10001 10001 10001 10001 10001 01110"
	case 'P':
		return "11110 10001 10001 11110 10000 10000 10000"
	case 'Q':
		return "01110 10001 10001 10001 10101 10010 01101"
	case 'R':
		return "11110 10001 10001 11110 10100 10010 10001"
	case 'S':
		return "01111 10000 10000 01110 00001 00001 11110"
	case 'T':
		return "11111 00100 00100 00100 00100 00100 00100"
	case 'U':
		return "10001 10001 10001 10001 10001 10001 01110"
	case 'V':
		return "10001 10001 10001 10001 10001 01010 00100"
	case 'W':
		return "10001 10001 10001 10101 10101 10101 01010"
	case 'X':
		return "10001 10001 01010 00100 01010 10001 10001"
	case 'Y':
		return "10001 10001 10001 01010 00100 00100 00100"
	case 'Z':
		return "11111 00001 00010 00100 01000 10000 11111"
	case 'a':
		return ". . 01110 00001 01111 10001 01111"
	case 'b':
		return "10000 10000 10110 11001 10001 10001 11110"
	case 'c':
		return ". . 01110 10000 10000 10001 01110"
	case 'd':
		return "00001 00001 01101 10011 10001 10001 01111"
	case 'e':
		return ". . 01110 10001 11111 10000 01110"
	case 'f':
		return "00110 01001 01000 11100 01000 01000 01000"
	case 'g':
		return ". . 01111 10001 10001 10001 01111 00001 01110"
	case 'h':
		return "10000 10000 10110 11001 10001 10001 10001"
	case 'i':
		return "00100 . 01100 00100 00100 00100 01110"
	case 'j':
		return "00010 . 00110 00010 00010 00010 00010 10010 01100"
	case 'k':
		return "10000 10000 10010 10100 11000 10100 10010"
	case 'l':
		return "01100 00100 00100 00100 00100 00100 01110"
	case 'm':
		return ". . 11010 10101 10101 10101 10101"
	case 'n':
		return ". . 10110 11001 10001 10001 10001"
	case 'o':
		return ". . 01110 10001 10001 10001 01110"
	case 'p':
		return ". . 11110 10001 10001 10001 11110 10000 10000"
	case 'q':
		return ". . 01111 10001 10001 10001 01111 00001 00001"
	case 'r':
		return ". . 10110 11001 10000 10000 10000"
	case 's':
		return ". . 01111 10000 01110 00001 11110"
	case 't':
		return "01000 01000 11100 01000 01000 01001 00110"
	case 'u':
		return ". . 10001 10001 10001 10011 01101"
	case 'v':
		return ". . 10001 10001 10001 01010 00100"
	case 'w':
		return ". . 10001 10001 10101 10101 01010"
	case 'x':
		return ". . 10001 01010 00100 01010 10001"
	case 'y':
		return ". . 10001 10001 10001 10001 01111 00001 01110"
	case 'z':
		return ". . 11111 00010 00100 01000 11111"
	case '.':
		return ". . . . . 01100 01100"
	case ',':
		return ". . . . . 01100 00100 01000"
	case '-', '–', '−':
		return ". . . 11111"
	case '+':
		return ". 00100 00100 11111 00100 00100"
	case '=':
		return ". . 11111 . 11111"
	case '%':
		return "11000 11001 00010 00100 01000 10011 00011"
	case '(':
		return "00010 00100 01000 01000 01000 00100 00010"
	case ')':
		return "01000 00100 00010 00010 00010 00100 01000"
	case '[':
		return "01110 01000 01000 01000 01000 01000 01110"
	case ']':
		return "01110 00010 00010 00010 00010 00010 01110"
	case ':':
		return ". 01100 01100 . 01100 01100"
	case '/':
		return "00001 00010 00010 00100 01000 01000 10000"
	case '<':
		return "00010 00100 01000 10000 01000 00100 00010"
	case '>':
		return "01000 00100 00010 00001 00010 00100 01000"
	case '_':
		return ". . . . . . . . 11111"
	case '?':
		return "01110 10001 00001 00010 00100 . 00100"
	case '\'':
		return "00100 00100 01000"
	case '#':
		return "01010 01010 11111 01010 11111 01010 01010"
	case '*':
		return ". 00100 10101 01110 10101 00100"
	case '±':
		return "00100 00100 11111 00100 00100 . 11111"
	case '≥':
		return "01000 00100 00010 00100 01000 . 11111"
	case '≤':
		return "00010 00100 01000 00100 00010 . 11111"
	case '…':
		return ". . . . . . 10101"
	case '×':
		return ". 10001 01010 00100 01010 10001"
	}
	return "11111 10001 10001 10001 10001 10001 11111"
}

// glyphBits returns r's bitmap as glyphRows rows of glyphWidth bits, the
// leftmost pixel in the highest bit.
func glyphBits(r rune) [glyphRows]uint8 {
	var out [glyphRows]uint8
	for i, row := range strings.Fields(glyph(r)) {
		if i >= glyphRows {
			break
		}
		for _, ch := range row {
			out[i] <<= 1
			if ch == '1' {
				out[i] |= 1
			}
		}
		if row == "." {
			out[i] = 0
		}
	}
	return out
}
