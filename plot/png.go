package plot

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Scale is how many PNG pixels a chart pixel spans in each direction: the
// PNG of a w×h chart is Scale·w × Scale·h, sharp on high-density screens and
// in print.
const Scale = 2

// raster is a Canvas that paints an RGBA image at Scale times the chart's
// coordinates, anti-aliased: shapes through a vector rasterizer, text in
// Go Regular.
type raster struct {
	img   *image.RGBA
	z     *vector.Rasterizer
	font  *sfnt.Font
	faces map[float64]font.Face // by size in PNG pixels
	err   error                 // the first error of a Text
}

// Render draws ch on an RGBA image of Scale times its size, on the paper
// of the light theme.
func Render(ch Chart) (*image.RGBA, error) {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("plot: the Go font does not parse: %w", err)
	}
	w, h := ch.Size()
	r := &raster{
		img:   image.NewRGBA(image.Rect(0, 0, max(w, 1)*Scale, max(h, 1)*Scale)),
		z:     vector.NewRasterizer(1, 1),
		font:  f,
		faces: map[float64]font.Face{},
	}
	draw.Draw(r.img, r.img.Bounds(), image.NewUniform(rgba(InkPaper.Light())), image.Point{}, draw.Src)
	ch.Draw(r)
	for _, face := range r.faces {
		_ = face.Close() // an opentype face's Close does nothing that can fail
	}
	if r.err != nil {
		return nil, r.err
	}
	return r.img, nil
}

func encodePNG(w io.Writer, img image.Image) error {
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	return enc.Encode(w, img)
}

func rgba(c Color) color.RGBA {
	r, g, b := c.RGB()
	return color.RGBA{R: r, G: g, B: b, A: 0xff}
}

// point is a position in PNG pixels.
type point struct{ x, y float64 }

// fill paints the closed path through pts (PNG pixels), each of the
// contours given as its own slice, with the nonzero rule; contours of
// opposite orientation cut holes.
func (r *raster) fill(k Ink, contours ...[]point) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range contours {
		for _, p := range c {
			x0, y0 = math.Min(x0, p.x), math.Min(y0, p.y)
			x1, y1 = math.Max(x1, p.x), math.Max(y1, p.y)
		}
	}
	box := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1))).Intersect(r.img.Bounds())
	if box.Empty() {
		return
	}
	// The rasterizer's origin is the box's corner; it clamps what lies
	// outside the box (only where the image's edge cut it) to the edge.
	r.z.Reset(box.Dx(), box.Dy())
	ox, oy := float64(box.Min.X), float64(box.Min.Y)
	for _, c := range contours {
		if len(c) < 3 {
			continue
		}
		r.z.MoveTo(float32(c[0].x-ox), float32(c[0].y-oy))
		for _, p := range c[1:] {
			r.z.LineTo(float32(p.x-ox), float32(p.y-oy))
		}
		r.z.ClosePath()
	}
	r.z.Draw(r.img, box, image.NewUniform(rgba(k.Light())), image.Point{})
}

// Rect implements Canvas.
func (r *raster) Rect(x, y, w, h float64, k Ink) {
	if !(w > 0 && h > 0) {
		return
	}
	x0, y0, x1, y1 := x*Scale, y*Scale, (x+w)*Scale, (y+h)*Scale
	r.fill(k, []point{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})
}

// Line implements Canvas: a rectangle of the width along the segment, with
// square ends reaching half the width past each end point when the line is
// horizontal or vertical (so axes and ticks meet without a notch), butt
// ends otherwise.
func (r *raster) Line(x1, y1, x2, y2, width float64, k Ink) {
	ax, ay, bx, by := x1*Scale, y1*Scale, x2*Scale, y2*Scale
	half := math.Max(width, 0.5) * Scale / 2
	dx, dy := bx-ax, by-ay
	n := math.Hypot(dx, dy)
	if n == 0 {
		r.fill(k, []point{{ax - half, ay - half}, {ax + half, ay - half}, {ax + half, ay + half}, {ax - half, ay + half}})
		return
	}
	ux, uy := dx/n, dy/n
	if dx == 0 || dy == 0 {
		ax, ay, bx, by = ax-ux*half, ay-uy*half, bx+ux*half, by+uy*half
	}
	px, py := -uy*half, ux*half // the half-width, across the line
	r.fill(k, []point{{ax + px, ay + py}, {bx + px, by + py}, {bx - px, by - py}, {ax - px, ay - py}})
}

// circle returns a polygon of the circle, fine enough that its facets do
// not show, clockwise or (reverse) anticlockwise.
func circle(cx, cy, rad float64, reverse bool) []point {
	n := max(24, int(math.Ceil(rad*4)))
	pts := make([]point, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / float64(n)
		if reverse {
			a = -a
		}
		pts[i] = point{cx + rad*math.Cos(a), cy + rad*math.Sin(a)}
	}
	return pts
}

// Circle implements Canvas; a hollow circle is a ring of width 1.5 around
// a disc of the paper.
func (r *raster) Circle(cx, cy, rad float64, k Ink, hollow bool) {
	if !(rad > 0) {
		return
	}
	x, y, s := cx*Scale, cy*Scale, rad*Scale
	if !hollow {
		r.fill(k, circle(x, y, s, false))
		return
	}
	// The stroke of width 1.5 is centred on the circle, as in the SVG.
	outer, inner := s+0.75*Scale, math.Max(s-0.75*Scale, 0)
	r.fill(InkPaper, circle(x, y, inner, false))
	r.fill(k, circle(x, y, outer, false), circle(x, y, inner, true))
}

// face returns the Go Regular face of size px (PNG pixels), made once.
func (r *raster) face(px float64) (font.Face, error) {
	if f, ok := r.faces[px]; ok {
		return f, nil
	}
	f, err := opentype.NewFace(r.font, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, fmt.Errorf("plot: no face of %g px: %w", px, err)
	}
	r.faces[px] = f
	return f, nil
}

// Text implements Canvas: s in Go Regular at the size, its baseline at y.
func (r *raster) Text(x, y, size float64, anchor Anchor, k Ink, s string) {
	if s == "" || r.err != nil {
		return
	}
	f, err := r.face(size * Scale)
	if err != nil {
		r.err = err
		return
	}
	d := font.Drawer{Dst: r.img, Src: image.NewUniform(rgba(k.Light())), Face: f}
	left := x * Scale
	switch w := float64(d.MeasureString(s)) / 64; anchor {
	case Middle:
		left -= w / 2
	case End:
		left -= w
	}
	d.Dot = fixed.Point26_6{X: fixed.Int26_6(math.Round(left * 64)), Y: fixed.Int26_6(math.Round(y * Scale * 64))}
	d.DrawString(s)
}
