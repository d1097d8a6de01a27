package plot

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"strconv"
	"strings"
	"testing"
)

func sampleCharts() map[string]Chart {
	bars := []Bar{{10, 19, 0.1}, {20, 29, 0.5}, {30, 39, 0.3}, {40, 59, 0.1}}
	return map[string]Chart{
		"distributions": &Distributions{Title: "Game length", XLabel: "turns", Panels: []Panel{
			{Title: "tsoro size=8 heads=none bonus=0", Note: "mean 25.0", Bars: bars, Mark: 25, Marked: true},
			{Title: "nsolo <&> \"quoted\"", Bars: bars},
			{Title: "no games"},
			{Title: "a title far too long to fit in its panel, so it must be clipped to the width"},
		}},
		"one panel": &Distributions{Title: "x", Panels: []Panel{{Title: "choro", Bars: bars[:1]}}},
		"intervals": &Intervals{Title: "Who wins", XLabel: "share", Series: []string{"South", "North"}, Ref: 0.5, HasRef: true, Percent: true,
			Rows: []Row{
				{Label: "tsoro", Points: []Point{{0.52, 0.51, 0.53}, {0.48, 0.47, 0.49}}},
				{Label: "nsolo size=36", Points: []Point{{0.3, 0.1, 0.6}, {0.7, 0.4, 0.9}}},
			}},
		"empty intervals": &Intervals{Title: "nothing"},
		"reliability": &Reliability{Title: "Predicted against observed", Panels: []ReliabilityPanel{
			{Title: "tsoro", Note: "60 held-out games", Bins: []CalibrationBin{{0.05, 0.02, 40}, {0.52, 0.6, 300}, {0.97, 1, 12}}},
			{Title: "choro"},
		}},
	}
}

// TestSVG checks that every chart is a well-formed SVG document of its size,
// with no style attribute or element (the pages' CSP forbids inline styles).
func TestSVG(t *testing.T) {
	for name, ch := range sampleCharts() {
		var b bytes.Buffer
		if err := WriteSVG(&b, ch); err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
		var root *xml.StartElement
		elements := 0
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed XML: %v\n%s", name, err, b.String())
			}
			if se, ok := tok.(xml.StartElement); ok {
				elements++
				if root == nil {
					root = &se
				}
				for _, a := range se.Attr {
					if a.Name.Local == "style" {
						t.Errorf("%s: a style attribute", name)
					}
				}
				if se.Name.Local == "style" {
					t.Errorf("%s: a style element", name)
				}
			}
		}
		w, h := ch.Size()
		attr := func(key string) string {
			for _, a := range root.Attr {
				if a.Name.Local == key {
					return a.Value
				}
			}
			return ""
		}
		if root.Name.Local != "svg" || root.Name.Space != "http://www.w3.org/2000/svg" ||
			attr("width") != strconv.Itoa(w) || attr("height") != strconv.Itoa(h) {
			t.Errorf("%s: root %v, want an svg of %d×%d", name, root, w, h)
		}
		if elements < 5 {
			t.Errorf("%s: only %d elements", name, elements)
		}
	}
	var b bytes.Buffer
	_ = WriteSVG(&b, sampleCharts()["distributions"])
	if !strings.Contains(b.String(), "nsolo &lt;&amp;&gt; &#34;quoted&#34;") {
		t.Error("text is not escaped")
	}
}

// TestPNG checks that every chart is a PNG of its size with ink on it, and
// that the text is drawn.
func TestPNG(t *testing.T) {
	for name, ch := range sampleCharts() {
		var b bytes.Buffer
		if err := WritePNG(&b, ch); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, h := ch.Size()
		if got := img.Bounds().Size(); got.X != w || got.Y != h {
			t.Errorf("%s: %v, want %d×%d", name, got, w, h)
		}
		dark := 0
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
					dark++
				}
			}
		}
		if dark < 100 {
			t.Errorf("%s: only %d dark pixels", name, dark)
		}
	}
}

// bitmap is a Canvas chart that only writes text, to test the font.
type textChart struct{ text string }

func (c textChart) Size() (int, int) { return 60, 20 }
func (c textChart) Draw(cv Canvas)   { cv.Text(2, 12, 12, Start, Black, c.text) }

// TestFont checks the glyph table and the text renderer: every glyph has
// rows of five pixels, distinct characters look different, and a glyph's
// pixels appear exactly where its bitmap says.
func TestFont(t *testing.T) {
	chars := "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.,-+=%()[]:/<>_?'#*±≥≤×…"
	seen := map[[glyphRows]uint8]rune{}
	for _, r := range chars {
		for _, row := range strings.Fields(glyph(r)) {
			if row != "." && (len(row) != glyphWidth || strings.Trim(row, "01") != "") {
				t.Errorf("glyph %q: bad row %q", r, row)
			}
		}
		if n := len(strings.Fields(glyph(r))); n > glyphRows {
			t.Errorf("glyph %q: %d rows", r, n)
		}
		bits := glyphBits(r)
		if other, ok := seen[bits]; ok {
			t.Errorf("glyphs %q and %q are the same", r, other)
		}
		seen[bits] = r
	}
	if glyphBits('☃') != glyphBits('\x00') || glyphBits(' ') != ([glyphRows]uint8{}) {
		t.Error("unknown runes must be a box, space blank")
	}
	img := Render(textChart{"A"})
	bits := glyphBits('A')
	for row := range glyphRows {
		for col := range glyphWidth {
			r, _, _, _ := img.At(2+col, 12-glyphAscent+row).RGBA()
			ink := r < 0x8000
			if want := bits[row]>>(glyphWidth-1-col)&1 == 1; ink != want {
				t.Errorf("A at row %d col %d: ink %v, want %v", row, col, ink, want)
			}
		}
	}
}

func TestTicks(t *testing.T) {
	got, step := ticks(0.47, 0.53, 6)
	if step != 0.01 || len(got) != 7 || got[0] != 0.47 || got[6] != 0.53 {
		t.Errorf("ticks(0.47, 0.53) = %v step %v", got, step)
	}
	got, step = ticks(10, 212, 4)
	if step != 50 || got[0] != 50 || got[len(got)-1] != 200 {
		t.Errorf("ticks(10, 212) = %v step %v", got, step)
	}
	if p := percent(0.505, 0.005); p != "50.5%" {
		t.Errorf("percent = %q", p)
	}
}
