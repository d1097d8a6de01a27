package plot

import (
	"math"
	"strconv"
)

// Bar is one bar of a histogram: the share (0 to 1) of the observations
// from Lo to Hi, both included.
type Bar struct {
	Lo, Hi int
	Share  float64
}

// Panel is one histogram of Distributions.
type Panel struct {
	Title string // such as the ruleset
	Note  string // a line under the title, such as the mean and median
	Bars  []Bar  // in increasing order, without gaps
	// Mark, when Marked, is drawn as a vertical line (such as the median).
	Mark   float64
	Marked bool
}

// Distributions draws histograms side by side, as small multiples: each
// panel has its own axes, so distributions of different ranges stay
// readable.
type Distributions struct {
	Title   string
	XLabel  string // under every panel, such as "turns"
	Panels  []Panel
	Columns int // panels per row; 0: up to 3 (2 for four panels)
}

// Panel geometry of Distributions.
const (
	panelW  = 320
	panelH  = 200
	headerH = 44
)

func (d *Distributions) grid() (cols, rows int) {
	n := max(len(d.Panels), 1)
	cols = d.Columns
	if cols <= 0 {
		cols = min(n, 3)
		if n == 4 {
			cols = 2
		}
	}
	return cols, (n + cols - 1) / cols
}

// Size implements Chart.
func (d *Distributions) Size() (w, h int) {
	cols, rows := d.grid()
	return cols*panelW + 20, headerH + rows*panelH + 10
}

// Draw implements Chart.
func (d *Distributions) Draw(c Canvas) {
	c.Text(10, 26, 18, Start, InkText, d.Title)
	cols, _ := d.grid()
	for i := range d.Panels {
		ox := 10 + float64(i%cols*panelW)
		oy := headerH + float64(i/cols*panelH)
		d.drawPanel(c, &d.Panels[i], ox, oy)
	}
}

func (d *Distributions) drawPanel(c Canvas, p *Panel, ox, oy float64) {
	c.Text(ox+8, oy+16, 12, Start, InkText, clip(p.Title, panelW-16, 12))
	c.Text(ox+8, oy+31, 10, Start, InkMuted, clip(p.Note, panelW-16, 10))
	x0, x1 := ox+48, ox+panelW-18
	y0, y1 := oy+42, oy+panelH-34 // plot area, y0 at the top
	c.Line(x0, y1, x1, y1, 1, InkText)
	c.Line(x0, y0, x0, y1, 1, InkText)
	if len(p.Bars) == 0 {
		c.Text((x0+x1)/2, (y0+y1)/2, 11, Middle, InkMuted, "no games")
		return
	}
	lo, hi := float64(p.Bars[0].Lo), float64(p.Bars[len(p.Bars)-1].Hi+1)
	top := 0.0
	for _, b := range p.Bars {
		top = math.Max(top, b.Share)
	}
	yt, ystep := ticks(0, math.Max(top, 1e-6), 3)
	ymax := yt[len(yt)-1]
	if ymax < top {
		ymax += ystep
	}
	sx := func(v float64) float64 { return x0 + (v-lo)/(hi-lo)*(x1-x0) }
	sy := func(v float64) float64 { return y1 - v/ymax*(y1-y0) }
	for _, v := range yt {
		c.Line(x0-4, sy(v), x0, sy(v), 1, InkText)
		if v > 0 {
			c.Line(x0+1, sy(v), x1, sy(v), 1, InkGrid)
		}
		c.Text(x0-6, sy(v)+4, 10, End, InkText, percent(v, ystep))
	}
	for _, b := range p.Bars {
		left, right := sx(float64(b.Lo)), sx(float64(b.Hi+1))
		gap := 0.0
		if right-left > 4 {
			gap = 1
		}
		if b.Share > 0 {
			c.Rect(left+gap/2, sy(b.Share), right-left-gap, y1-sy(b.Share), SeriesInk(0))
		}
	}
	xt, _ := ticks(lo, hi-1, 4)
	for _, v := range xt {
		x := sx(v + 0.5)
		c.Line(x, y1, x, y1+4, 1, InkText)
		c.Text(x, y1+16, 10, Middle, InkText, strconv.FormatFloat(v, 'f', -1, 64))
	}
	if p.Marked && p.Mark >= lo && p.Mark <= hi {
		x := sx(p.Mark + 0.5)
		c.Line(x, y0, x, y1, 1.5, SeriesInk(1))
	}
	c.Text((x0+x1)/2, y1+30, 10, Middle, InkMuted, d.XLabel)
}

// clip shortens s to fit width pixels at font size size.
func clip(s string, width, size float64) string {
	r := []rune(s)
	for len(r) > 1 && textWidth(string(r), size) > width {
		r = append(r[:len(r)-2], '…')
	}
	return string(r)
}

// Point is a value with its 95% interval.
type Point struct{ Value, Lo, Hi float64 }

// Row is one label of Intervals with a point per series.
type Row struct {
	Label  string
	Points []Point // Points[i] belongs to Series[i]
}

// Intervals draws values with error bars, one row per label and one marker
// per series in each row (filled for the first series, hollow for the
// others), on a shared horizontal axis.
type Intervals struct {
	Title   string
	XLabel  string
	Series  []string // the legend
	Rows    []Row
	Ref     float64 // a reference value drawn as a dashed line, when HasRef
	HasRef  bool
	Percent bool // values are shares, printed as percentages; the axis stays within 0 to 1
}

// Geometry of Intervals.
const (
	plotW     = 520
	valueW    = 70
	rowGap    = 10
	seriesH   = 14
	intervalT = 62 // space above the rows: title and legend
	intervalB = 52 // space below: the axis
)

func (iv *Intervals) labelWidth() float64 {
	w := 60.0
	for _, r := range iv.Rows {
		w = math.Max(w, textWidth(r.Label, 12))
	}
	return w + 20
}

func (iv *Intervals) rowHeight() float64 { return float64(max(len(iv.Series), 1))*seriesH + rowGap }

// Size implements Chart.
func (iv *Intervals) Size() (w, h int) {
	return int(math.Ceil(iv.labelWidth())) + plotW + valueW + 20,
		intervalT + int(math.Ceil(float64(max(len(iv.Rows), 1))*iv.rowHeight())) + intervalB
}

// xRange returns the axis range: every interval and the reference, with a
// margin, rounded to ticks.
func (iv *Intervals) xRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	if iv.HasRef {
		lo, hi = iv.Ref, iv.Ref
	}
	for _, r := range iv.Rows {
		for _, p := range r.Points {
			lo, hi = math.Min(lo, p.Lo), math.Max(hi, p.Hi)
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	pad := math.Max((hi-lo)*0.08, 0.005)
	lo, hi = lo-pad, hi+pad
	if iv.Percent {
		lo, hi = math.Max(lo, 0), math.Min(hi, 1)
	}
	return lo, hi
}

// Draw implements Chart.
func (iv *Intervals) Draw(c Canvas) {
	c.Text(10, 26, 18, Start, InkText, iv.Title)
	for i, name := range iv.Series {
		x := 10 + float64(i)*200
		c.Circle(x+5, 45, 5, SeriesInk(i), i > 0)
		c.Text(x+16, 49, 12, Start, InkText, name)
	}
	x0 := iv.labelWidth()
	x1 := x0 + plotW
	y0 := float64(intervalT)
	y1 := y0 + float64(max(len(iv.Rows), 1))*iv.rowHeight()
	lo, hi := iv.xRange()
	xt, step := ticks(lo, hi, 6)
	lo, hi = math.Min(lo, xt[0]), math.Max(hi, xt[len(xt)-1])
	sx := func(v float64) float64 { return x0 + (v-lo)/(hi-lo)*(x1-x0) }
	for _, v := range xt {
		c.Line(sx(v), y0, sx(v), y1, 1, InkGrid)
		c.Line(sx(v), y1, sx(v), y1+4, 1, InkText)
		label := strconv.FormatFloat(v, 'f', -1, 64)
		if iv.Percent {
			label = percent(v, step)
		}
		c.Text(sx(v), y1+17, 10, Middle, InkText, label)
	}
	c.Line(x0, y1, x1, y1, 1, InkText)
	c.Text((x0+x1)/2, y1+36, 11, Middle, InkMuted, iv.XLabel)
	if iv.HasRef {
		for y := y0; y < y1; y += 8 {
			c.Line(sx(iv.Ref), y, sx(iv.Ref), math.Min(y+4, y1), 1, InkMuted)
		}
	}
	rh := iv.rowHeight()
	for i, r := range iv.Rows {
		top := y0 + float64(i)*rh + rowGap/2
		c.Text(x0-10, top+float64(len(r.Points))*seriesH/2+4, 12, End, InkText, r.Label)
		for j, p := range r.Points {
			y := top + float64(j)*seriesH + seriesH/2
			col := SeriesInk(j)
			c.Line(sx(p.Lo), y, sx(p.Hi), y, 1.5, col)
			c.Line(sx(p.Lo), y-4, sx(p.Lo), y+4, 1.5, col)
			c.Line(sx(p.Hi), y-4, sx(p.Hi), y+4, 1.5, col)
			c.Circle(sx(p.Value), y, 4, col, j > 0)
			value := strconv.FormatFloat(p.Value, 'f', 3, 64)
			if iv.Percent {
				value = strconv.FormatFloat(100*p.Value, 'f', 1, 64) + "%"
			}
			c.Text(x1+14, y+4, 11, Start, col, value)
		}
	}
}
