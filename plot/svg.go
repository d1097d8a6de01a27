package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
)

// svg is a Canvas that writes SVG elements. Every painted element carries
// its ink twice: as a presentation attribute in the light color (fill="…",
// stroke="…"), which a viewer without CSS shows, and as a class
// (fill-<ink>, stroke-<ink>), which a style sheet recolors: the document's
// own for the dark theme (WriteSVG), or the page's (WriteInlineSVG). No
// element has a style attribute.
type svg struct {
	w, h int
	buf  bytes.Buffer
}

func newSVG(ch Chart) *svg {
	w, h := ch.Size()
	return &svg{w: w, h: h}
}

func (s *svg) Rect(x, y, w, h float64, fill Ink) {
	fmt.Fprintf(&s.buf, `<rect x="%s" y="%s" width="%s" height="%s" class="fill-%s" fill="%s"/>`+"\n",
		f2(x), f2(y), f2(w), f2(h), fill.Name(), fill.Light().Hex())
}

func (s *svg) Line(x1, y1, x2, y2, width float64, stroke Ink) {
	fmt.Fprintf(&s.buf, `<line x1="%s" y1="%s" x2="%s" y2="%s" class="stroke-%s" stroke="%s" stroke-width="%s"/>`+"\n",
		f2(x1), f2(y1), f2(x2), f2(y2), stroke.Name(), stroke.Light().Hex(), f2(width))
}

func (s *svg) Circle(cx, cy, r float64, k Ink, hollow bool) {
	if hollow {
		fmt.Fprintf(&s.buf, `<circle cx="%s" cy="%s" r="%s" class="fill-%s stroke-%s" fill="%s" stroke="%s" stroke-width="1.5"/>`+"\n",
			f2(cx), f2(cy), f2(r), InkPaper.Name(), k.Name(), InkPaper.Light().Hex(), k.Light().Hex())
		return
	}
	fmt.Fprintf(&s.buf, `<circle cx="%s" cy="%s" r="%s" class="fill-%s" fill="%s"/>`+"\n", f2(cx), f2(cy), f2(r), k.Name(), k.Light().Hex())
}

func (s *svg) Text(x, y, size float64, anchor Anchor, k Ink, text string) {
	a := "start"
	switch anchor {
	case Middle:
		a = "middle"
	case End:
		a = "end"
	}
	fmt.Fprintf(&s.buf, `<text x="%s" y="%s" font-size="%s" text-anchor="%s" class="fill-%s" fill="%s">`,
		f2(x), f2(y), f2(size), a, k.Name(), k.Light().Hex())
	_ = xml.EscapeText(&s.buf, []byte(text)) // writing to a bytes.Buffer cannot fail
	s.buf.WriteString("</text>\n")
}

// finish writes the document: the svg element, the dark theme's style
// element when withStyle, the paper, and the elements drawn.
func (s *svg) finish(w io.Writer, withStyle bool) error {
	style := ""
	if withStyle {
		var b bytes.Buffer
		b.WriteString("<style>\n")
		_ = xml.EscapeText(&b, []byte(darkStyle())) // a bytes.Buffer cannot fail
		b.WriteString("</style>\n")
		style = b.String()
	}
	_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="'Go', 'Helvetica Neue', Arial, sans-serif">`+"\n"+
		`%s<rect width="%d" height="%d" class="fill-%s" fill="%s"/>`+"\n%s</svg>\n",
		s.w, s.h, s.w, s.h, style, s.w, s.h, InkPaper.Name(), InkPaper.Light().Hex(), s.buf.Bytes())
	return err
}

// f2 prints v with at most two decimals and no trailing zeros.
func f2(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}
