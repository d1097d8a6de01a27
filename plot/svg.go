package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
)

// svg is a Canvas that writes SVG elements. It uses presentation attributes
// only (no style attribute or element), so the SVG can be inlined in a page
// whose Content-Security-Policy forbids inline styles.
type svg struct {
	w, h int
	buf  bytes.Buffer
}

func newSVG(ch Chart) *svg {
	w, h := ch.Size()
	return &svg{w: w, h: h}
}

func (s *svg) Rect(x, y, w, h float64, fill Color) {
	fmt.Fprintf(&s.buf, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n", f2(x), f2(y), f2(w), f2(h), fill.Hex())
}

func (s *svg) Line(x1, y1, x2, y2, width float64, stroke Color) {
	fmt.Fprintf(&s.buf, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"/>`+"\n",
		f2(x1), f2(y1), f2(x2), f2(y2), stroke.Hex(), f2(width))
}

func (s *svg) Circle(cx, cy, r float64, c Color, hollow bool) {
	if hollow {
		fmt.Fprintf(&s.buf, `<circle cx="%s" cy="%s" r="%s" fill="#ffffff" stroke="%s" stroke-width="1.5"/>`+"\n", f2(cx), f2(cy), f2(r), c.Hex())
		return
	}
	fmt.Fprintf(&s.buf, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`+"\n", f2(cx), f2(cy), f2(r), c.Hex())
}

func (s *svg) Text(x, y, size float64, anchor Anchor, c Color, text string) {
	a := "start"
	switch anchor {
	case Middle:
		a = "middle"
	case End:
		a = "end"
	}
	fmt.Fprintf(&s.buf, `<text x="%s" y="%s" font-size="%s" text-anchor="%s" fill="%s">`, f2(x), f2(y), f2(size), a, c.Hex())
	_ = xml.EscapeText(&s.buf, []byte(text)) // writing to a bytes.Buffer cannot fail
	s.buf.WriteString("</text>\n")
}

func (s *svg) finish(w io.Writer) error {
	_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`+"\n"+
		`<rect width="%d" height="%d" fill="#ffffff"/>`+"\n%s</svg>\n", s.w, s.h, s.w, s.h, s.w, s.h, s.buf.Bytes())
	return err
}

// f2 prints v with at most two decimals and no trailing zeros.
func f2(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}
