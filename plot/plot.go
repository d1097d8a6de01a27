// Package plot draws simple charts as SVG and as PNG with the standard
// library alone. A chart draws itself once on a Canvas, a handful of
// primitives (rectangles, lines, circles, text); the SVG writer turns them
// into elements and the PNG renderer rasterizes them, with text in a small
// bitmap font defined in this package. So both files show the same chart at
// the same size in pixels.
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

// Color is an opaque RGB color, 0xRRGGBB.
type Color uint32

// RGB returns the color's components.
func (c Color) RGB() (r, g, b uint8) { return uint8(c >> 16), uint8(c >> 8), uint8(c) }

// Hex returns the color as #rrggbb.
func (c Color) Hex() string { return fmt.Sprintf("#%06x", uint32(c)&0xffffff) }

// The colors of the charts.
const (
	Black Color = 0x222222
	Gray  Color = 0x888888
	Light Color = 0xdddddd
	White Color = 0xffffff
)

// Palette returns the i-th series color (it cycles).
func Palette(i int) Color {
	colors := [...]Color{
		0x7d5127, // the app's brown
		0x2b6cb0, // blue
		0x3a8a4a, // green
		0xc05a1c, // orange
	}
	return colors[((i%len(colors))+len(colors))%len(colors)]
}

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
	Rect(x, y, w, h float64, fill Color)
	Line(x1, y1, x2, y2, width float64, stroke Color)
	// Circle draws a disc of radius r, filled with fill, or only its outline
	// (of width 1.5) when hollow.
	Circle(cx, cy, r float64, c Color, hollow bool)
	Text(x, y, size float64, anchor Anchor, c Color, s string)
}

// Chart is a drawing of a fixed size.
type Chart interface {
	Size() (w, h int)
	Draw(c Canvas)
}

// textWidth estimates the width of s at font size size: the SVG's
// sans-serif averages about 0.6 em, as does the bitmap font.
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

// percent prints a share as a percentage with the decimals that step needs.
func percent(v, step float64) string {
	d := 0
	for s := step * 100; s < 1-1e-9 && d < 3; s *= 10 {
		d++
	}
	return fmt.Sprintf("%.*f%%", d, v*100)
}

// WriteSVG writes ch as an SVG document.
func WriteSVG(w io.Writer, ch Chart) error {
	s := newSVG(ch)
	ch.Draw(s)
	return s.finish(w)
}

// WritePNG writes ch as a PNG image.
func WritePNG(w io.Writer, ch Chart) error {
	return encodePNG(w, Render(ch))
}
