package plot

import (
	"math"
	"strconv"
)

// CalibrationBin is one point of a reliability diagram: positions whose
// predicted chance averaged Predicted, of which a share Observed came true.
type CalibrationBin struct {
	Predicted, Observed float64 // 0 to 1
	Count               int
}

// ReliabilityPanel is the diagram of one set of predictions.
type ReliabilityPanel struct {
	Title string // such as the ruleset
	Note  string // a line under the title, such as the games and the log-loss
	Bins  []CalibrationBin
}

// Reliability draws reliability diagrams, one panel each: predicted
// chance across, observed share up, the diagonal of perfect calibration
// dashed, a disc per bin whose area grows with its count, labelled with it.
type Reliability struct {
	Title   string
	Panels  []ReliabilityPanel
	Columns int // panels per row; 0: up to 3
}

// Geometry of Reliability.
const (
	relW = 300
	relH = 330
)

func (r *Reliability) grid() (cols, rows int) {
	n := max(len(r.Panels), 1)
	cols = r.Columns
	if cols <= 0 {
		cols = min(n, 3)
	}
	return cols, (n + cols - 1) / cols
}

// Size implements Chart.
func (r *Reliability) Size() (w, h int) {
	cols, rows := r.grid()
	return cols*relW + 20, headerH + rows*relH + 10
}

// Draw implements Chart.
func (r *Reliability) Draw(c Canvas) {
	c.Text(10, 26, 18, Start, InkText, r.Title)
	cols, _ := r.grid()
	for i := range r.Panels {
		r.drawPanel(c, &r.Panels[i], 10+float64(i%cols*relW), headerH+float64(i/cols*relH))
	}
}

func (r *Reliability) drawPanel(c Canvas, p *ReliabilityPanel, ox, oy float64) {
	c.Text(ox+8, oy+16, 12, Start, InkText, clip(p.Title, relW-16, 12))
	c.Text(ox+8, oy+31, 10, Start, InkMuted, clip(p.Note, relW-16, 10))
	x0, y0 := ox+48, oy+54
	side := float64(relW - 70)
	x1, y1 := x0+side, y0+side
	sx := func(v float64) float64 { return x0 + v*side }
	sy := func(v float64) float64 { return y1 - v*side }
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		if v > 0 {
			c.Line(sx(v), y0, sx(v), y1, 1, InkGrid)
			c.Line(x0, sy(v), x1, sy(v), 1, InkGrid)
		}
		label := strconv.Itoa(int(math.Round(v*100))) + "%"
		c.Line(sx(v), y1, sx(v), y1+4, 1, InkText)
		c.Text(sx(v), y1+16, 10, Middle, InkText, label)
		c.Line(x0-4, sy(v), x0, sy(v), 1, InkText)
		c.Text(x0-6, sy(v)+4, 10, End, InkText, label)
	}
	c.Line(x0, y1, x1, y1, 1, InkText)
	c.Line(x0, y0, x0, y1, 1, InkText)
	for v := 0.0; v < 1; v += 0.04 { // the diagonal, dashed
		c.Line(sx(v), sy(v), sx(v+0.02), sy(v+0.02), 1, InkMuted)
	}
	c.Text((x0+x1)/2, y1+30, 10, Middle, InkMuted, "predicted")
	c.Text(ox+10, y0-4, 10, Start, InkMuted, "observed")
	if len(p.Bins) == 0 {
		c.Text((x0+x1)/2, (y0+y1)/2, 11, Middle, InkMuted, "no positions")
		return
	}
	most := 1
	for _, b := range p.Bins {
		most = max(most, b.Count)
	}
	for _, b := range p.Bins {
		if b.Count == 0 {
			continue
		}
		rad := 2 + 7*math.Sqrt(float64(b.Count)/float64(most))
		x, y := sx(clamp01(b.Predicted)), sy(clamp01(b.Observed))
		c.Circle(x, y, rad, SeriesInk(0), false)
		c.Text(x+rad+2, y-rad, 9, Start, InkMuted, strconv.Itoa(b.Count))
	}
}

func clamp01(v float64) float64 {
	if !(v >= 0) {
		return 0
	}
	return math.Min(v, 1)
}
