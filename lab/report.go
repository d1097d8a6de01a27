package lab

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"matombo/mancala"
)

// HistogramBins is the most bars of the game-length histogram in a Summary.
const HistogramBins = 30

// Report is the result of Run.
type Report struct {
	Player   string
	Seed     uint64
	Opening  int
	Games    int // games asked for per ruleset
	Workers  int
	Elapsed  time.Duration
	Complete bool // every game asked for was played
	// Rulesets has one summary per ruleset, in the order of the Config.
	Rulesets []Summary
	// Accs are the rulesets' accumulators, in the same order.
	Accs []*Acc
}

// Summary is the report of one ruleset; its JSON form is what
// `matombo lab --json` prints. Rates are shares of the games (0 to 1) with
// their Wilson 95% interval (_low, _high); means have a normal 95%
// interval. Every fraction is rounded to six decimals.
type Summary struct {
	Ruleset string `json:"ruleset"`
	Player  string `json:"player"`
	Seed    uint64 `json:"seed"`
	Opening int    `json:"opening_turns"`
	Games   int64  `json:"games"`

	SouthWins     int64   `json:"south_wins"`
	NorthWins     int64   `json:"north_wins"`
	Draws         int64   `json:"draws"`
	SouthRate     float64 `json:"south_win_rate"`
	SouthLow      float64 `json:"south_win_low"`
	SouthHigh     float64 `json:"south_win_high"`
	NorthRate     float64 `json:"north_win_rate"`
	NorthLow      float64 `json:"north_win_low"`
	NorthHigh     float64 `json:"north_win_high"`
	DrawRate      float64 `json:"draw_rate"`
	DrawLow       float64 `json:"draw_low"`
	DrawHigh      float64 `json:"draw_high"`
	TurnsMean     float64 `json:"turns_mean"`
	TurnsLow      float64 `json:"turns_mean_low"`
	TurnsHigh     float64 `json:"turns_mean_high"`
	TurnsSD       float64 `json:"turns_sd"`
	TurnsMedian   float64 `json:"turns_median"`
	TurnsMin      int     `json:"turns_min"`
	TurnsMax      int     `json:"turns_max"`
	TurnsP99      int     `json:"turns_p99"`
	TurnsHist     []Bin   `json:"turns_histogram"`
	DecisionsTurn float64 `json:"decisions_per_turn"`
	LegalDecision float64 `json:"legal_per_decision"`
	LapsTurn      float64 `json:"laps_per_turn"`
	CapturesMean  float64 `json:"captures_mean"`
	CapturesLow   float64 `json:"captures_mean_low"`
	CapturesHigh  float64 `json:"captures_mean_high"`
	CapturesSD    float64 `json:"captures_sd"`
	NoMoveEnds    int64   `json:"no_move_endings"`
	RepetitionEnd int64   `json:"repetition_endings"`
	RepetitionLow float64 `json:"repetition_low"`
	RepetitionHi  float64 `json:"repetition_high"`
	TurnCapEnds   int64   `json:"turn_cap_endings"`
	TurnCapLow    float64 `json:"turn_cap_low"`
	TurnCapHigh   float64 `json:"turn_cap_high"`
	LapCutTurns   int64   `json:"lap_cut_turns"`
	LapCutGames   int64   `json:"lap_cut_games"`
	// DistinctGames counts the different games played (by their actions),
	// for level players only (0 for random players): a deterministic level
	// repeats a game whenever the random opening repeats.
	DistinctGames int64 `json:"distinct_games"`
	// Choro holds the figures of Choro's options; nil for other games.
	Choro *ChoroSummary `json:"choro,omitempty"`
}

// ChoroSummary tells how a Choro ruleset's options play out (RULES.md
// §3.4): the simultaneous opening, who plays first after it and what that
// is worth, and how often cw=first and leave=yes change a turn. Rates are
// shares of the games that finished a simultaneous opening (opened_games),
// with their Wilson 95% interval.
type ChoroSummary struct {
	Opened            int64   `json:"opened_games"`
	NorthFirst        int64   `json:"north_first"`
	NorthFirstRate    float64 `json:"north_first_rate"`
	NorthFirstLow     float64 `json:"north_first_low"`
	NorthFirstHigh    float64 `json:"north_first_high"`
	FirstMoverWins    int64   `json:"first_mover_wins"`
	FirstMoverWinRate float64 `json:"first_mover_win_rate"`
	FirstMoverWinLow  float64 `json:"first_mover_win_low"`
	FirstMoverWinHigh float64 `json:"first_mover_win_high"`
	SameStep          int64   `json:"same_step_openings"`
	SameStepRate      float64 `json:"same_step_rate"`
	SameStepLow       float64 `json:"same_step_low"`
	SameStepHigh      float64 `json:"same_step_high"`
	// Per game (all games of the ruleset), and the games where it happened.
	CWLimitedPerGame  float64 `json:"cw_limited_per_game"`
	CWLimitedGames    int64   `json:"cw_limited_games"`
	SwitchesPerGame   float64 `json:"switches_per_game"`
	SwitchGames       int64   `json:"switch_games"`
	OtherHolesPerGame float64 `json:"other_holes_per_game"`
	OtherHoleGames    int64   `json:"other_hole_games"`
}

// summarizeChoro fills the Choro figures of a.
func summarizeChoro(a *Acc) *ChoroSummary {
	c := &ChoroSummary{Opened: a.Opened, NorthFirst: a.NorthFirst, FirstMoverWins: a.FirstMoverWins, SameStep: a.SameStep,
		CWLimitedGames: a.CWLimitedGames, SwitchGames: a.SwitchGames, OtherHoleGames: a.OtherHoleGames}
	n := a.Opened
	c.NorthFirstRate, c.FirstMoverWinRate, c.SameStepRate = ratio(a.NorthFirst, n), ratio(a.FirstMoverWins, n), ratio(a.SameStep, n)
	c.NorthFirstLow, c.NorthFirstHigh = Wilson(a.NorthFirst, n)
	c.FirstMoverWinLow, c.FirstMoverWinHigh = Wilson(a.FirstMoverWins, n)
	c.SameStepLow, c.SameStepHigh = Wilson(a.SameStep, n)
	c.CWLimitedPerGame = ratio(a.CWLimited, a.Games)
	c.SwitchesPerGame = ratio(a.Switches, a.Games)
	c.OtherHolesPerGame = ratio(a.OtherHoles, a.Games)
	for _, f := range []*float64{&c.NorthFirstRate, &c.NorthFirstLow, &c.NorthFirstHigh, &c.FirstMoverWinRate, &c.FirstMoverWinLow,
		&c.FirstMoverWinHigh, &c.SameStepRate, &c.SameStepLow, &c.SameStepHigh, &c.CWLimitedPerGame, &c.SwitchesPerGame, &c.OtherHolesPerGame} {
		*f = math.Round(*f*1e6) / 1e6
	}
	return c
}

func summarize(rs mancala.Ruleset, a *Acc, cfg *Config) Summary {
	s := Summary{Ruleset: rs.String(), Player: cfg.Player.String(), Seed: cfg.Seed, Opening: cfg.Opening, Games: a.Games}
	n := a.Games
	s.SouthWins, s.NorthWins, s.Draws = a.Results()
	s.SouthRate, s.NorthRate, s.DrawRate = ratio(s.SouthWins, n), ratio(s.NorthWins, n), ratio(s.Draws, n)
	s.SouthLow, s.SouthHigh = Wilson(s.SouthWins, n)
	s.NorthLow, s.NorthHigh = Wilson(s.NorthWins, n)
	s.DrawLow, s.DrawHigh = Wilson(s.Draws, n)
	s.TurnsMean, s.TurnsSD, s.TurnsMedian = a.TurnsMean(), a.TurnsSD(), a.TurnsMedian()
	s.TurnsLow, s.TurnsHigh = NormalCI(s.TurnsMean, s.TurnsSD, n)
	s.TurnsMin, s.TurnsMax = a.TurnsRange()
	s.TurnsP99 = a.TurnsQuantile(0.99)
	s.TurnsHist = a.Histogram(HistogramBins)
	if s.TurnsHist == nil {
		s.TurnsHist = []Bin{}
	}
	s.DecisionsTurn = ratio(a.Decisions, a.TurnsSum)
	s.LegalDecision = ratio(a.Legal, a.Decisions)
	s.LapsTurn = ratio(a.Laps, a.TurnsSum)
	s.CapturesMean, s.CapturesSD = a.CapturesMean(), a.CapturesSD()
	s.CapturesLow, s.CapturesHigh = NormalCI(s.CapturesMean, s.CapturesSD, n)
	s.NoMoveEnds = a.Ended(mancala.NoMoves)
	s.RepetitionEnd = a.Ended(mancala.Repetition)
	s.RepetitionLow, s.RepetitionHi = Wilson(s.RepetitionEnd, n)
	s.TurnCapEnds = a.Ended(mancala.TurnLimit)
	s.TurnCapLow, s.TurnCapHigh = Wilson(s.TurnCapEnds, n)
	s.LapCutTurns, s.LapCutGames = a.LapCuts, a.LapCutGames
	s.DistinctGames = int64(len(a.Seen))
	if rs.Game == mancala.Choro {
		s.Choro = summarizeChoro(a)
	}
	for _, f := range []*float64{&s.SouthRate, &s.SouthLow, &s.SouthHigh, &s.NorthRate, &s.NorthLow, &s.NorthHigh,
		&s.DrawRate, &s.DrawLow, &s.DrawHigh, &s.TurnsMean, &s.TurnsLow, &s.TurnsHigh, &s.TurnsSD,
		&s.DecisionsTurn, &s.LegalDecision, &s.LapsTurn, &s.CapturesMean, &s.CapturesLow, &s.CapturesHigh,
		&s.CapturesSD, &s.RepetitionLow, &s.RepetitionHi, &s.TurnCapLow, &s.TurnCapHigh} {
		*f = math.Round(*f*1e6) / 1e6
	}
	return s
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// column is one column of the CSV file: its header and how to print it.
type column struct {
	name  string
	value func(s *Summary) string
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }

// csvColumns are the CSV columns: the fields of the JSON form without the
// histogram, under the same names.
func csvColumns() []column {
	return []column{
		{"ruleset", func(s *Summary) string { return s.Ruleset }},
		{"player", func(s *Summary) string { return s.Player }},
		{"seed", func(s *Summary) string { return strconv.FormatUint(s.Seed, 10) }},
		{"opening_turns", func(s *Summary) string { return strconv.Itoa(s.Opening) }},
		{"games", func(s *Summary) string { return itoa(s.Games) }},
		{"south_wins", func(s *Summary) string { return itoa(s.SouthWins) }},
		{"north_wins", func(s *Summary) string { return itoa(s.NorthWins) }},
		{"draws", func(s *Summary) string { return itoa(s.Draws) }},
		{"south_win_rate", func(s *Summary) string { return ftoa(s.SouthRate) }},
		{"south_win_low", func(s *Summary) string { return ftoa(s.SouthLow) }},
		{"south_win_high", func(s *Summary) string { return ftoa(s.SouthHigh) }},
		{"north_win_rate", func(s *Summary) string { return ftoa(s.NorthRate) }},
		{"north_win_low", func(s *Summary) string { return ftoa(s.NorthLow) }},
		{"north_win_high", func(s *Summary) string { return ftoa(s.NorthHigh) }},
		{"draw_rate", func(s *Summary) string { return ftoa(s.DrawRate) }},
		{"draw_low", func(s *Summary) string { return ftoa(s.DrawLow) }},
		{"draw_high", func(s *Summary) string { return ftoa(s.DrawHigh) }},
		{"turns_mean", func(s *Summary) string { return ftoa(s.TurnsMean) }},
		{"turns_mean_low", func(s *Summary) string { return ftoa(s.TurnsLow) }},
		{"turns_mean_high", func(s *Summary) string { return ftoa(s.TurnsHigh) }},
		{"turns_sd", func(s *Summary) string { return ftoa(s.TurnsSD) }},
		{"turns_median", func(s *Summary) string { return ftoa(s.TurnsMedian) }},
		{"turns_min", func(s *Summary) string { return strconv.Itoa(s.TurnsMin) }},
		{"turns_max", func(s *Summary) string { return strconv.Itoa(s.TurnsMax) }},
		{"turns_p99", func(s *Summary) string { return strconv.Itoa(s.TurnsP99) }},
		{"decisions_per_turn", func(s *Summary) string { return ftoa(s.DecisionsTurn) }},
		{"legal_per_decision", func(s *Summary) string { return ftoa(s.LegalDecision) }},
		{"laps_per_turn", func(s *Summary) string { return ftoa(s.LapsTurn) }},
		{"captures_mean", func(s *Summary) string { return ftoa(s.CapturesMean) }},
		{"captures_mean_low", func(s *Summary) string { return ftoa(s.CapturesLow) }},
		{"captures_mean_high", func(s *Summary) string { return ftoa(s.CapturesHigh) }},
		{"captures_sd", func(s *Summary) string { return ftoa(s.CapturesSD) }},
		{"no_move_endings", func(s *Summary) string { return itoa(s.NoMoveEnds) }},
		{"repetition_endings", func(s *Summary) string { return itoa(s.RepetitionEnd) }},
		{"repetition_low", func(s *Summary) string { return ftoa(s.RepetitionLow) }},
		{"repetition_high", func(s *Summary) string { return ftoa(s.RepetitionHi) }},
		{"turn_cap_endings", func(s *Summary) string { return itoa(s.TurnCapEnds) }},
		{"turn_cap_low", func(s *Summary) string { return ftoa(s.TurnCapLow) }},
		{"turn_cap_high", func(s *Summary) string { return ftoa(s.TurnCapHigh) }},
		{"lap_cut_turns", func(s *Summary) string { return itoa(s.LapCutTurns) }},
		{"lap_cut_games", func(s *Summary) string { return itoa(s.LapCutGames) }},
		{"distinct_games", func(s *Summary) string { return itoa(s.DistinctGames) }},
		{"choro_opened_games", choroColumn(func(c *ChoroSummary) string { return itoa(c.Opened) })},
		{"choro_north_first_rate", choroColumn(func(c *ChoroSummary) string { return ftoa(c.NorthFirstRate) })},
		{"choro_first_mover_win_rate", choroColumn(func(c *ChoroSummary) string { return ftoa(c.FirstMoverWinRate) })},
		{"choro_same_step_rate", choroColumn(func(c *ChoroSummary) string { return ftoa(c.SameStepRate) })},
		{"choro_cw_limited_per_game", choroColumn(func(c *ChoroSummary) string { return ftoa(c.CWLimitedPerGame) })},
		{"choro_switches_per_game", choroColumn(func(c *ChoroSummary) string { return ftoa(c.SwitchesPerGame) })},
		{"choro_other_holes_per_game", choroColumn(func(c *ChoroSummary) string { return ftoa(c.OtherHolesPerGame) })},
	}
}

// choroColumn is a CSV column of the Choro figures, empty for other games.
func choroColumn(value func(*ChoroSummary) string) func(*Summary) string {
	return func(s *Summary) string {
		if s.Choro == nil {
			return ""
		}
		return value(s.Choro)
	}
}

// CSVHeader returns the names of the CSV columns.
func CSVHeader() []string {
	columns := csvColumns()
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = c.name
	}
	return out
}

// WriteCSV writes the report as CSV: a header line, then one line per
// ruleset (the histogram is left out; the JSON form has it).
func (r *Report) WriteCSV(w io.Writer) error {
	columns := csvColumns()
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader()); err != nil {
		return err
	}
	row := make([]string, len(columns))
	for i := range r.Rulesets {
		for j, c := range columns {
			row[j] = c.value(&r.Rulesets[i])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteText writes the report for people: a table of the main figures, then
// each ruleset in detail with a histogram of game lengths. It leaves out
// the elapsed time, so the same experiment prints the same text.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s games per ruleset, players %s, seed %d", thousands(int64(r.Games)), r.Player, r.Seed)
	if r.Player != "random" {
		fmt.Fprintf(&b, ", %d random opening turns", r.Opening)
	}
	b.WriteString("\n")
	if !r.Complete {
		b.WriteString("stopped early: the figures cover the games finished, as counted below\n")
	}
	width := len("ruleset")
	for _, s := range r.Rulesets {
		width = max(width, len(s.Ruleset))
	}
	fmt.Fprintf(&b, "\n%-*s  %10s  %16s  %16s  %16s  %8s  %7s\n", width, "ruleset", "games", "South wins", "North wins", "draws", "turns", "median")
	for _, s := range r.Rulesets {
		fmt.Fprintf(&b, "%-*s  %10s  %18s  %18s  %18s  %8.1f  %7.1f\n", width, s.Ruleset, thousands(s.Games),
			rateInterval(s.SouthRate, s.SouthLow, s.SouthHigh), rateInterval(s.NorthRate, s.NorthLow, s.NorthHigh),
			rateInterval(s.DrawRate, s.DrawLow, s.DrawHigh), s.TurnsMean, s.TurnsMedian)
	}
	for _, s := range r.Rulesets {
		writeDetail(&b, &s)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeDetail writes one ruleset's figures in full.
func writeDetail(b *strings.Builder, s *Summary) {
	n := s.Games
	fmt.Fprintf(b, "\n%s: %s games\n", s.Ruleset, thousands(n))
	line := func(label, format string, args ...any) {
		fmt.Fprintf(b, "  %-22s %s\n", label, fmt.Sprintf(format, args...))
	}
	share := func(k int64, lo, hi float64) string {
		return fmt.Sprintf("%s  %s", thousands(k), rateInterval(ratio(k, n), lo, hi))
	}
	line("South wins", "%s", share(s.SouthWins, s.SouthLow, s.SouthHigh))
	line("North wins", "%s", share(s.NorthWins, s.NorthLow, s.NorthHigh))
	line("draws", "%s", share(s.Draws, s.DrawLow, s.DrawHigh))
	line("turns per game", "mean %.2f [%.2f, %.2f], sd %.2f, median %.1f, range %d to %d, 99%% up to %d",
		s.TurnsMean, s.TurnsLow, s.TurnsHigh, s.TurnsSD, s.TurnsMedian, s.TurnsMin, s.TurnsMax, s.TurnsP99)
	line("decisions per turn", "%.3f", s.DecisionsTurn)
	line("legal actions", "%.2f per decision", s.LegalDecision)
	line("laps per turn", "%.3f", s.LapsTurn)
	line("captures per game", "mean %.2f [%.2f, %.2f], sd %.2f", s.CapturesMean, s.CapturesLow, s.CapturesHigh, s.CapturesSD)
	line("ended by no move", "%s", thousands(s.NoMoveEnds))
	line("ended by repetition", "%s", share(s.RepetitionEnd, s.RepetitionLow, s.RepetitionHi))
	line("ended by the turn cap", "%s", share(s.TurnCapEnds, s.TurnCapLow, s.TurnCapHigh))
	line("lap-limit cuts", "%s turns in %s games", thousands(s.LapCutTurns), thousands(s.LapCutGames))
	if s.DistinctGames > 0 {
		line("distinct games", "%s (the others repeat one)", thousands(s.DistinctGames))
	}
	if c := s.Choro; c != nil {
		if c.Opened > 0 {
			line("simultaneous openings", "%s finished", thousands(c.Opened))
			line("  North first after", "%s  %s", thousands(c.NorthFirst), rateInterval(c.NorthFirstRate, c.NorthFirstLow, c.NorthFirstHigh))
			line("  first mover won", "%s  %s", thousands(c.FirstMoverWins), rateInterval(c.FirstMoverWinRate, c.FirstMoverWinLow, c.FirstMoverWinHigh))
			line("  same-step finishes", "%s  %s", thousands(c.SameStep), rateInterval(c.SameStepRate, c.SameStepLow, c.SameStepHigh))
		}
		line("cw=first withheld cw", "%.3f per game, in %s games", c.CWLimitedPerGame, thousands(c.CWLimitedGames))
		line("leave switches", "%.3f per game, in %s games", c.SwitchesPerGame, thousands(c.SwitchGames))
		line("other holes instead", "%.3f per game, in %s games", c.OtherHolesPerGame, thousands(c.OtherHoleGames))
	}
	writeHistogram(b, s.TurnsHist, n)
}

// writeHistogram draws the game-length histogram in text, merging the
// bars of a Summary two by two until there are at most 15.
func writeHistogram(b *strings.Builder, bins []Bin, n int64) {
	for len(bins) > 15 {
		merged := make([]Bin, 0, (len(bins)+1)/2)
		for i := 0; i < len(bins); i += 2 {
			m := bins[i]
			if i+1 < len(bins) {
				m.Hi, m.Count = bins[i+1].Hi, m.Count+bins[i+1].Count
			}
			merged = append(merged, m)
		}
		bins = merged
	}
	var most int64
	for _, bin := range bins {
		most = max(most, bin.Count)
	}
	b.WriteString("  game length (turns):\n")
	const bar = 40
	for _, bin := range bins {
		k := 0
		if most > 0 {
			k = int((bin.Count*bar + most/2) / most)
		}
		fmt.Fprintf(b, "    %5d-%-5d %6.2f%% %s\n", bin.Lo, bin.Hi, 100*ratio(bin.Count, n), strings.Repeat("#", k))
	}
}

// rateInterval prints a share and its interval in percent.
func rateInterval(p, lo, hi float64) string {
	return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*p, 100*lo, 100*hi)
}

// thousands prints v with thousands separators.
func thousands(v int64) string {
	digits := strconv.FormatInt(v, 10)
	var b strings.Builder
	for i, ch := range digits {
		if i > 0 && ch != '-' && (len(digits)-i)%3 == 0 && digits[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}
