package plot

import (
	"fmt"
	"strings"
)

// Color is an opaque RGB color, 0xRRGGBB.
type Color uint32

// RGB returns the color's components.
func (c Color) RGB() (r, g, b uint8) { return uint8(c >> 16), uint8(c >> 8), uint8(c) }

// Hex returns the color as #rrggbb.
func (c Color) Hex() string { return fmt.Sprintf("#%06x", uint32(c)&0xffffff) }

// Ink is the role of a color in a chart: text, muted text, grid lines, the
// paper, or a data series. A chart draws with inks, not colors, so that one
// drawing follows the reader's light or dark theme: the PNG is painted in
// the light colors, and the SVG names each ink by a class (InkText is
// "ink", …) that a style sheet may recolor.
type Ink uint8

// The inks other than the series.
const (
	InkText  Ink = iota // axes, tick labels, titles
	InkMuted            // notes and axis titles
	InkGrid             // grid lines
	InkPaper            // the background (and the inside of hollow markers)
	inkSeries
)

// seriesCount is how many series inks there are; SeriesInk cycles.
const seriesCount = 4

// SeriesInk returns the ink of the i-th data series (it cycles over four).
func SeriesInk(i int) Ink {
	return inkSeries + Ink(((i%seriesCount)+seriesCount)%seriesCount)
}

// inkCount is the number of inks, the series included.
const inkCount = int(inkSeries) + seriesCount

// spec returns the ink's name and its light and dark colors. The light
// colors are those of the app's light theme, the dark ones those of its
// dark theme (internal/web/static/css/app.css). An ink out of range is
// InkText.
func (k Ink) spec() (name string, light, dark Color) {
	switch k {
	case InkMuted:
		return "muted", 0x888888, 0xb8a88f
	case InkGrid:
		return "grid", 0xdddddd, 0x4a3d31
	case InkPaper:
		return "paper", 0xffffff, 0x2a221c
	case inkSeries:
		return "s0", 0x7d5127, 0xe09a5b // the app's brown (its accent)
	case inkSeries + 1:
		return "s1", 0x2b6cb0, 0x7fb2e8 // blue
	case inkSeries + 2:
		return "s2", 0x3a8a4a, 0x7fcf9f // green
	case inkSeries + 3:
		return "s3", 0xc05a1c, 0xf0a070 // orange
	}
	return "ink", 0x222222, 0xefe6d8
}

// Inks returns every ink, the series included.
func Inks() []Ink {
	out := make([]Ink, inkCount)
	for i := range out {
		out[i] = Ink(i)
	}
	return out
}

// Light returns the ink's color in the light theme (the PNG's).
func (k Ink) Light() Color { _, c, _ := k.spec(); return c }

// Dark returns the ink's color in the dark theme.
func (k Ink) Dark() Color { _, _, c := k.spec(); return c }

// Name returns the ink's name: "ink", "muted", "grid", "paper", "s0" to
// "s3". The SVG's classes are "fill-" or "stroke-" and the name.
func (k Ink) Name() string { n, _, _ := k.spec(); return n }

// darkStyle returns the CSS that recolors the SVG's classes in the dark
// theme, when the viewer prefers one. The light colors are the elements'
// own attributes, so a viewer without CSS shows the light chart.
func darkStyle() string {
	var b strings.Builder
	b.WriteString("@media (prefers-color-scheme: dark) {\n")
	for _, k := range Inks() {
		fmt.Fprintf(&b, "  .fill-%s { fill: %s; }\n  .stroke-%s { stroke: %s; }\n", k.Name(), k.Dark().Hex(), k.Name(), k.Dark().Hex())
	}
	b.WriteString("}\n")
	return b.String()
}
