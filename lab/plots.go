package lab

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"matombo/plot"
)

// LengthChart returns the game-length histograms of the report, one panel
// per ruleset, with the median marked.
func LengthChart(rep *Report) *plot.Distributions {
	d := &plot.Distributions{
		Title:  fmt.Sprintf("Game length in turns (%s players)", rep.Player),
		XLabel: "turns per game (the line: median)",
	}
	for _, s := range rep.Rulesets {
		p := plot.Panel{
			Title:  s.Ruleset,
			Note:   fmt.Sprintf("%s games, mean %.1f, sd %.1f, median %g", thousands(s.Games), s.TurnsMean, s.TurnsSD, s.TurnsMedian),
			Mark:   s.TurnsMedian,
			Marked: s.Games > 0,
		}
		for _, b := range s.TurnsHist {
			p.Bars = append(p.Bars, plot.Bar{Lo: b.Lo, Hi: b.Hi, Share: ratio(b.Count, s.Games)})
		}
		d.Panels = append(d.Panels, p)
	}
	return d
}

// AdvantageChart returns the first player's advantage: the shares of games
// won by South (who moves first) and by North per ruleset, with their 95%
// intervals, against the line of 50%.
func AdvantageChart(rep *Report) *plot.Intervals {
	iv := &plot.Intervals{
		Title:   fmt.Sprintf("Who wins (%s players, 95%% intervals)", rep.Player),
		XLabel:  "share of games won",
		Series:  []string{"South (first player) wins", "North wins"},
		Ref:     0.5,
		HasRef:  true,
		Percent: true,
	}
	for _, s := range rep.Rulesets {
		iv.Rows = append(iv.Rows, plot.Row{Label: s.Ruleset, Points: []plot.Point{
			{Value: s.SouthRate, Lo: s.SouthLow, Hi: s.SouthHigh},
			{Value: s.NorthRate, Lo: s.NorthLow, Hi: s.NorthHigh},
		}})
	}
	return iv
}

// namedChart is a chart with the base name of its files.
type namedChart struct {
	name  string
	chart plot.Chart
}

// charts returns the report's charts: game-length and first-player.
func charts(rep *Report) []namedChart {
	return []namedChart{{"game-length", LengthChart(rep)}, {"first-player", AdvantageChart(rep)}}
}

// WritePlots writes the report's charts into dir (made if missing) as
// game-length.svg, game-length.png, first-player.svg and first-player.png,
// and returns the paths written. The SVGs follow the viewer's light or dark
// theme; the PNGs are light, at plot.Scale times the SVGs' size.
func WritePlots(dir string, rep *Report) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lab: cannot make the plot directory: %w", err)
	}
	var paths []string
	for _, ch := range charts(rep) {
		for _, format := range []struct {
			ext   string
			write func(*bytes.Buffer, plot.Chart) error
		}{
			{".svg", func(b *bytes.Buffer, c plot.Chart) error { return plot.WriteSVG(b, c) }},
			{".png", func(b *bytes.Buffer, c plot.Chart) error { return plot.WritePNG(b, c) }},
		} {
			var b bytes.Buffer
			if err := format.write(&b, ch.chart); err != nil {
				return paths, fmt.Errorf("lab: cannot draw %s%s: %w", ch.name, format.ext, err)
			}
			path := filepath.Join(dir, ch.name+format.ext)
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				return paths, fmt.Errorf("lab: cannot write a plot: %w", err)
			}
			paths = append(paths, path)
		}
	}
	return paths, nil
}

// SVGPlots returns the report's charts as SVG elements for the lab page to
// include, keyed by the names of WritePlots without extension. They have
// no style of their own (the page's CSP forbids inline styles): the page's
// style sheet themes them through their classes (plot.WriteInlineSVG).
func SVGPlots(rep *Report) (map[string]string, error) {
	out := make(map[string]string)
	// A ruleset without a finished game (a run stopped early) has nothing
	// to draw: its empty histogram and 0–100% interval would only mislead.
	played := *rep
	played.Rulesets = nil
	for _, s := range rep.Rulesets {
		if s.Games > 0 {
			played.Rulesets = append(played.Rulesets, s)
		}
	}
	if len(played.Rulesets) == 0 {
		return out, nil
	}
	for _, ch := range charts(&played) {
		var b bytes.Buffer
		if err := plot.WriteInlineSVG(&b, ch.chart); err != nil {
			return nil, fmt.Errorf("lab: cannot draw %s: %w", ch.name, err)
		}
		out[ch.name] = b.String()
	}
	return out, nil
}
