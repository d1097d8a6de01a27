package plot

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
)

// raster is a Canvas that paints an RGBA image, without anti-aliasing.
type raster struct {
	img *image.RGBA
}

// Render draws ch on a white RGBA image of its size.
func Render(ch Chart) *image.RGBA {
	w, h := ch.Size()
	r := &raster{img: image.NewRGBA(image.Rect(0, 0, max(w, 1), max(h, 1)))}
	draw.Draw(r.img, r.img.Bounds(), image.NewUniform(rgba(White)), image.Point{}, draw.Src)
	ch.Draw(r)
	return r.img
}

func encodePNG(w io.Writer, img image.Image) error {
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	return enc.Encode(w, img)
}

func rgba(c Color) color.RGBA {
	r, g, b := c.RGB()
	return color.RGBA{R: r, G: g, B: b, A: 0xff}
}

// fill paints the pixels of [x0, x1) × [y0, y1).
func (r *raster) fill(x0, y0, x1, y1 int, c Color) {
	rect := image.Rect(x0, y0, x1, y1).Intersect(r.img.Bounds())
	if rect.Empty() {
		return
	}
	draw.Draw(r.img, rect, image.NewUniform(rgba(c)), image.Point{}, draw.Src)
}

func round(v float64) int { return int(math.Round(v)) }

func (r *raster) Rect(x, y, w, h float64, c Color) {
	r.fill(round(x), round(y), round(x+w), round(y+h), c)
}

// Line paints a line of the given width: a rectangle when it is horizontal
// or vertical, else squares stepped along it.
func (r *raster) Line(x1, y1, x2, y2, width float64, c Color) {
	w := max(1, round(width))
	half := float64(w) / 2
	switch {
	case y1 == y2:
		r.fill(round(min(x1, x2)), round(y1-half), round(max(x1, x2))+1, round(y1-half)+w, c)
	case x1 == x2:
		r.fill(round(x1-half), round(min(y1, y2)), round(x1-half)+w, round(max(y1, y2))+1, c)
	default:
		steps := int(math.Ceil(math.Hypot(x2-x1, y2-y1))) + 1
		for i := 0; i <= steps; i++ {
			t := float64(i) / float64(steps)
			x, y := x1+t*(x2-x1), y1+t*(y2-y1)
			r.fill(round(x-half), round(y-half), round(x-half)+w, round(y-half)+w, c)
		}
	}
}

func (r *raster) Circle(cx, cy, rad float64, c Color, hollow bool) {
	ink := rgba(c)
	b := r.img.Bounds()
	for y := int(math.Floor(cy - rad)); y <= int(math.Ceil(cy+rad)); y++ {
		for x := int(math.Floor(cx - rad)); x <= int(math.Ceil(cx+rad)); x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			if d > rad || !(image.Point{X: x, Y: y}).In(b) {
				continue
			}
			if hollow && d < rad-1.5 {
				r.img.SetRGBA(x, y, rgba(White))
				continue
			}
			r.img.SetRGBA(x, y, ink)
		}
	}
}

// fontScale is the bitmap font's magnification for a font size: 1 up to
// 17 px, 2 up to 29 px, and so on.
func fontScale(size float64) int { return max(1, round(size/12)) }

func (r *raster) Text(x, y, size float64, anchor Anchor, c Color, s string) {
	k := fontScale(size)
	runes := []rune(s)
	w := len(runes)*cellWidth*k - k // no spacing after the last glyph
	left := round(x)
	switch anchor {
	case Middle:
		left -= w / 2
	case End:
		left -= w
	}
	top := round(y) - glyphAscent*k
	for i, ch := range runes {
		bits := glyphBits(ch)
		gx := left + i*cellWidth*k
		for row, line := range bits {
			for col := range glyphWidth {
				if line>>(glyphWidth-1-col)&1 == 1 {
					r.fill(gx+col*k, top+row*k, gx+(col+1)*k, top+(row+1)*k, c)
				}
			}
		}
	}
}
