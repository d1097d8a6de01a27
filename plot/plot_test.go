package plot

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
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

// svgInfo is what parseSVG finds in an SVG document.
type svgInfo struct {
	root     xml.StartElement
	elements int      // painted elements: rect, line, circle, text
	styles   []string // the text of each style element
}

// parseSVG parses doc as XML and checks every painted element: no style
// attribute, a class naming an ink for each paint (fill-<ink>, and
// stroke-<ink> for lines and hollow circles), and the paint attribute in
// that ink's light color.
func parseSVG(t *testing.T, name string, doc []byte) svgInfo {
	t.Helper()
	inks := map[string]Ink{}
	for _, k := range Inks() {
		inks[k.Name()] = k
	}
	var info svgInfo
	dec := xml.NewDecoder(bytes.NewReader(doc))
	inStyle := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v\n%s", name, err, doc)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if info.root.Name.Local == "" {
				info.root = tok
			}
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			if _, ok := attr["style"]; ok {
				t.Errorf("%s: a style attribute on %s", name, tok.Name.Local)
			}
			switch tok.Name.Local {
			case "style":
				inStyle = true
				info.styles = append(info.styles, "")
			case "rect", "line", "circle", "text":
				info.elements++
				classes := strings.Fields(attr["class"])
				if len(classes) == 0 {
					t.Errorf("%s: a %s without a class", name, tok.Name.Local)
				}
				for _, c := range classes {
					paint, ink, _ := strings.Cut(c, "-")
					k, ok := inks[ink]
					if !ok || (paint != "fill" && paint != "stroke") {
						t.Errorf("%s: %s has class %q, not fill-<ink> or stroke-<ink>", name, tok.Name.Local, c)
						continue
					}
					if got := attr[paint]; got != k.Light().Hex() {
						t.Errorf("%s: %s of class %s has %s=%q, want %s", name, tok.Name.Local, c, paint, got, k.Light().Hex())
					}
				}
				if tok.Name.Local == "line" && !strings.HasPrefix(attr["class"], "stroke-") {
					t.Errorf("%s: a line of class %q", name, attr["class"])
				}
			}
		case xml.EndElement:
			inStyle = false
		case xml.CharData:
			if inStyle {
				info.styles[len(info.styles)-1] += string(tok)
			}
		}
	}
	return info
}

func checkRoot(t *testing.T, name string, info svgInfo, ch Chart) {
	t.Helper()
	w, h := ch.Size()
	attr := func(key string) string {
		for _, a := range info.root.Attr {
			if a.Name.Local == key {
				return a.Value
			}
		}
		return ""
	}
	if info.root.Name.Local != "svg" || info.root.Name.Space != "http://www.w3.org/2000/svg" ||
		attr("width") != strconv.Itoa(w) || attr("height") != strconv.Itoa(h) {
		t.Errorf("%s: root %v, want an svg of %d×%d", name, info.root, w, h)
	}
	if info.elements < 5 {
		t.Errorf("%s: only %d elements", name, info.elements)
	}
}

// TestSVG checks that every chart is a well-formed SVG document of its
// size, every element themed by classes, with one style element that gives
// every ink its dark color when the viewer prefers a dark theme.
func TestSVG(t *testing.T) {
	for name, ch := range sampleCharts() {
		var b bytes.Buffer
		if err := WriteSVG(&b, ch); err != nil {
			t.Fatal(err)
		}
		info := parseSVG(t, name, b.Bytes())
		checkRoot(t, name, info, ch)
		if len(info.styles) != 1 {
			t.Fatalf("%s: %d style elements, want 1", name, len(info.styles))
		}
		css := info.styles[0]
		if !strings.Contains(css, "@media (prefers-color-scheme: dark)") {
			t.Errorf("%s: the style has no dark theme:\n%s", name, css)
		}
		for _, k := range Inks() {
			for _, paint := range []string{"fill", "stroke"} {
				rule := "." + paint + "-" + k.Name() + " { " + paint + ": " + k.Dark().Hex() + "; }"
				if !strings.Contains(css, rule) {
					t.Errorf("%s: the dark theme lacks %q", name, rule)
				}
			}
		}
	}
	var b bytes.Buffer
	_ = WriteSVG(&b, sampleCharts()["distributions"])
	if !strings.Contains(b.String(), "nsolo &lt;&amp;&gt; &#34;quoted&#34;") {
		t.Error("text is not escaped")
	}
}

// TestInlineSVG checks the SVG for pages: themed by the same classes, and
// without any style (the pages' CSP forbids inline styles), not even the
// word.
func TestInlineSVG(t *testing.T) {
	for name, ch := range sampleCharts() {
		var b bytes.Buffer
		if err := WriteInlineSVG(&b, ch); err != nil {
			t.Fatal(err)
		}
		info := parseSVG(t, name, b.Bytes())
		checkRoot(t, name, info, ch)
		if len(info.styles) != 0 || strings.Contains(b.String(), "style") {
			t.Errorf("%s: the inline SVG has a style", name)
		}
	}
}

// TestInks checks that the inks have distinct names and colors in each
// theme, that the paper contrasts with the text in both, and that the
// series cycle.
func TestInks(t *testing.T) {
	names := map[string]bool{}
	light, dark := map[Color]bool{}, map[Color]bool{}
	for _, k := range Inks() {
		if names[k.Name()] || light[k.Light()] || dark[k.Dark()] {
			t.Errorf("ink %s repeats a name or color", k.Name())
		}
		names[k.Name()], light[k.Light()], dark[k.Dark()] = true, true, true
	}
	lum := func(c Color) int { r, g, b := c.RGB(); return int(r) + int(g) + int(b) }
	if lum(InkPaper.Light()) < lum(InkText.Light())+300 || lum(InkText.Dark()) < lum(InkPaper.Dark())+300 {
		t.Error("text and paper do not contrast in both themes")
	}
	if SeriesInk(0) != SeriesInk(4) || SeriesInk(-1) != SeriesInk(3) || SeriesInk(0) == SeriesInk(1) {
		t.Error("SeriesInk does not cycle over four inks")
	}
}

// decodePNG writes ch as a PNG and decodes it.
func decodePNG(t *testing.T, name string, ch Chart) image.Image {
	t.Helper()
	var b bytes.Buffer
	if err := WritePNG(&b, ch); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return img
}

// TestPNG checks that every chart is a PNG of twice its size, with ink on
// it.
func TestPNG(t *testing.T) {
	for name, ch := range sampleCharts() {
		img := decodePNG(t, name, ch)
		w, h := ch.Size()
		if got := img.Bounds().Size(); got.X != Scale*w || got.Y != Scale*h || Scale != 2 {
			t.Errorf("%s: %v, want %d×%d", name, got, 2*w, 2*h)
		}
		dark := 0
		for y := 0; y < img.Bounds().Dy(); y++ {
			for x := 0; x < img.Bounds().Dx(); x++ {
				if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
					dark++
				}
			}
		}
		if dark < 400 {
			t.Errorf("%s: only %d dark pixels", name, dark)
		}
	}
}

// drawing is a chart that draws what its function says, to test the
// renderer.
type drawing struct {
	w, h int
	draw func(Canvas)
}

func (d drawing) Size() (int, int) { return d.w, d.h }
func (d drawing) Draw(c Canvas)    { d.draw(c) }

// greys returns the distinct colors of img in r other than the paper, and
// the bounds of the pixels that have them.
func greys(img image.Image, r image.Rectangle) (map[color.RGBA]int, image.Rectangle) {
	paper := rgba(InkPaper.Light())
	out := map[color.RGBA]int{}
	var box image.Rectangle
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			rr, g, b, a := img.At(x, y).RGBA()
			c := color.RGBA{uint8(rr >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
			if c == paper {
				continue
			}
			out[c]++
			box = box.Union(image.Rect(x, y, x+1, y+1))
		}
	}
	return out, box
}

// TestPNGText checks that text is drawn anti-aliased in a real font: many
// grey levels between the ink and the paper, the ink itself at the
// strokes' cores, glyphs of the font's proportions where the anchor puts
// them.
func TestPNGText(t *testing.T) {
	const text = "Game length 0123"
	for _, anchor := range []Anchor{Start, Middle, End} {
		ch := drawing{200, 30, func(c Canvas) { c.Text(100, 20, 12, anchor, InkText, text) }}
		img := decodePNG(t, "text", ch)
		levels, box := greys(img, img.Bounds())
		if len(levels) <= 2 {
			t.Fatalf("anchor %d: %d grey levels in the text, want an anti-aliased text", anchor, len(levels))
		}
		if len(levels) < 16 {
			t.Errorf("anchor %d: only %d grey levels in the text", anchor, len(levels))
		}
		if levels[rgba(InkText.Light())] < 20 {
			t.Errorf("anchor %d: %d pixels of the text's own color", anchor, levels[rgba(InkText.Light())])
		}
		for c := range levels {
			if c.R != c.G || c.G != c.B {
				t.Errorf("anchor %d: color %v is not a grey between the ink and the paper", anchor, c)
				break
			}
		}
		// 16 characters of a 24 px font: about 8 to 11 px each; ascenders
		// about 18 px over the baseline at 40 (0.75 em), the g's descender
		// about 5 px below it.
		if w := box.Dx(); w < 120 || w > 200 {
			t.Errorf("anchor %d: the text is %d px wide", anchor, w)
		}
		if box.Max.Y < 43 || box.Max.Y > 48 || box.Min.Y < 16 || box.Min.Y > 26 {
			t.Errorf("anchor %d: the text spans rows %d to %d, baseline 40", anchor, box.Min.Y, box.Max.Y)
		}
		mid := (box.Min.X + box.Max.X) / 2
		switch {
		case anchor == Start && (box.Min.X < 200 || box.Min.X > 204):
			t.Errorf("start-anchored text begins at %d, want 200", box.Min.X)
		case anchor == Middle && (mid < 195 || mid > 205):
			t.Errorf("centred text's middle at %d, want 200", mid)
		case anchor == End && (box.Max.X > 201 || box.Max.X < 195):
			t.Errorf("end-anchored text ends at %d, want 200", box.Max.X)
		}
	}
}

// TestPNGShapes checks the shapes: lines on whole chart pixels are sharp
// (exactly the ink, two PNG pixels a chart pixel), circles and slanted
// lines have anti-aliased edges, a hollow marker is a ring around the
// paper.
func TestPNGShapes(t *testing.T) {
	img := decodePNG(t, "line", drawing{40, 20, func(c Canvas) { c.Line(5, 10, 35, 10, 1, InkText) }})
	levels, box := greys(img, img.Bounds())
	if len(levels) != 1 || box != image.Rect(9, 19, 71, 21) {
		t.Errorf("a 1-px line at y=10 from x=5 to 35: %d colors over %v, want one over (9,19)-(71,21)", len(levels), box)
	}
	img = decodePNG(t, "disc", drawing{20, 20, func(c Canvas) { c.Circle(10, 10, 5, SeriesInk(1), false) }})
	levels, box = greys(img, img.Bounds())
	if len(levels) < 4 || box.Dx() < 19 || box.Dx() > 22 || box.Dy() < 19 || box.Dy() > 22 {
		t.Errorf("a disc of radius 5 at scale 2: %d colors over %v", len(levels), box)
	}
	if got := img.At(20, 20); got != rgba(SeriesInk(1).Light()) {
		t.Errorf("the disc's centre is %v", got)
	}
	img = decodePNG(t, "ring", drawing{20, 20, func(c Canvas) { c.Circle(10, 10, 5, SeriesInk(1), true) }})
	if got := img.At(20, 20); got != rgba(InkPaper.Light()) {
		t.Errorf("the hollow marker's centre is %v, want the paper", got)
	}
	if got := img.At(30, 20); got != rgba(SeriesInk(1).Light()) {
		t.Errorf("the hollow marker's ring is %v at its radius", got)
	}
	img = decodePNG(t, "slant", drawing{40, 40, func(c Canvas) { c.Line(5, 5, 35, 30, 1.5, InkText) }})
	if levels, _ := greys(img, img.Bounds()); len(levels) < 4 {
		t.Errorf("a slanted line has %d colors, want anti-aliased edges", len(levels))
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
	for _, c := range []struct {
		v, step float64
		want    string
	}{{0.505, 0.005, "50.5%"}, {0.025, 0.025, "2.5%"}, {0.05, 0.025, "5.0%"}, {0.2, 0.05, "20%"}, {0.0002, 0.0001, "0.02%"}} {
		if p := percent(c.v, c.step); p != c.want {
			t.Errorf("percent(%v, %v) = %q, want %q", c.v, c.step, p, c.want)
		}
	}
}
