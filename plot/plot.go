// Package plot draws the variant lab's charts as SVG and as PNG. A chart
// draws itself once on a Canvas, a handful of primitives (rectangles,
// lines, circles, text) in inks (text, muted, grid, paper, series) rather
// than colors; the SVG writer turns them into elements whose classes name
// the inks, so the chart follows the reader's light or dark theme, and the
// PNG renderer paints them in the light theme at twice the chart's size,
// anti-aliased (golang.org/x/image/vector), with text in the Go Regular
// font (golang.org/x/image/font/gofont).
//
// The charts are those of the variant lab: Distributions (histograms side
// by side as small multiples) and Intervals (values with 95% error bars,
// one row per label).
package plot

import (
	"fmt"
	"io"
	"math"
)

// Anchor is where a text's x coordinate lies: its start, middle or end.
type Anchor uint8

// The anchors.
const (
	Start Anchor = iota
	Middle
	End
)

// Canvas is what a chart draws on. Coordinates are pixels from the top
// left; text is placed by its baseline.
type Canvas interface {
	Rect(x, y, w, h float64, fill Ink)
	Line(x1, y1, x2, y2, width float64, stroke Ink)
	// Circle draws a disc of radius r in ink k, or only its outline (of
	// width 1.5, filled with the paper) when hollow.
	Circle(cx, cy, r float64, k Ink, hollow bool)
	Text(x, y, size float64, anchor Anchor, k Ink, s string)
}

// Chart is a drawing of a fixed size.
type Chart interface {
	Size() (w, h int)
	Draw(c Canvas)
}

// textWidth estimates the width of s at font size size for the layout: a
// sans-serif averages about 0.6 em or less (Go Regular's digits are 0.57
// em, its lower case narrower), so text laid out by it fits.
func textWidth(s string, size float64) float64 {
	return float64(len([]rune(s))) * 0.6 * size
}

// ticks returns round tick values covering [lo, hi], about n of them, and
// the step between them.
func ticks(lo, hi float64, n int) ([]float64, float64) {
	if !(hi > lo) {
		hi = lo + 1
	}
	// A step down to 3/4 of the even split is allowed: a few more ticks
	// read better than too few.
	raw := (hi - lo) / float64(max(n, 1)) * 0.75
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := p
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	var out []float64
	for v := math.Floor(lo/step) * step; v <= hi+step*1e-9; v += step {
		if v >= lo-step*1e-9 {
			k := math.Round(v / step)
			if step < 1 { // k/(1/step) is the double nearest the decimal
				out = append(out, k/math.Round(1/step))
			} else {
				out = append(out, k*step)
			}
		}
	}
	return out, step
}

// percent prints a share as a percentage with the decimals that step needs
// (up to 3): a step of 2.5% prints 2.5%, 5.0%, 7.5%.
func percent(v, step float64) string {
	d := 0
	for s := step * 100; math.Abs(s-math.Round(s)) > 1e-9*math.Max(s, 1) && d < 3; s *= 10 {
		d++
	}
	return fmt.Sprintf("%.*f%%", d, v*100)
}

// WriteSVG writes ch as a standalone SVG document (a file, an img): its
// own style element recolors it when the viewer prefers a dark theme.
func WriteSVG(w io.Writer, ch Chart) error {
	s := newSVG(ch)
	ch.Draw(s)
	return s.finish(w, true)
}

// WriteInlineSVG writes ch as an SVG element for a page to include: no
// style element or attribute (a Content-Security-Policy may forbid inline
// styles), so the page's own style sheet themes it through the classes
// fill-<ink> and stroke-<ink> (see Ink.Name).
func WriteInlineSVG(w io.Writer, ch Chart) error {
	s := newSVG(ch)
	ch.Draw(s)
	return s.finish(w, false)
}

// WritePNG writes ch as a PNG image of Scale times its size.
func WritePNG(w io.Writer, ch Chart) error {
	img, err := Render(ch)
	if err != nil {
		return err
	}
	return encodePNG(w, img)
}
