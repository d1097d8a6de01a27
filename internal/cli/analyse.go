package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"matombo/mancala"
	"matombo/search"
)

func analyseCommand() command {
	return command{
		name:    "analyse",
		summary: "review a game record: winning chances, best lines, mistakes",
		usage: fmt.Sprintf(`usage: matombo analyse <record-file> [--level K | --movetime ms | --nodes n] [--json]

Replays a game record (RULES.md §5; '-' reads standard input) and evaluates
every turn: South's winning chance before it (with best play) and after it
(as played), the best turn from before it and the line the search expects
(the principal variation, in record notation, as far as the search saw),
and a judgement of the turn by the mover's loss of winning chance:
  inaccuracy  %d points or more
  mistake     %d points or more
  blunder     %d points or more, or a proven win thrown away
A turn that is the search's best is not judged. Chances come from the
alpha-beta search's score through the calibration fitted on self-play games
of each preset (search/calibration.json; docs/ANALYSIS.md): a ruleset that
is not a preset uses its game's curve. Positions with few stones (%d or
fewer), or where the search finds a forced result, go to the exact solver:
a proven value is 100%%, 50%% or 0%% and says so ("South wins: proven");
otherwise chances stay within 0.5%% and 99.5%%. The simultaneous Choro
opening (1. a6|d3) is judged side by side against the matrix game of the
joint openings (each searched with a quarter of the limits): its before is
the game's value, and each choice loses what it falls short of the value
against the other side's equilibrium mix.

The search is level K's (its depth and node limits, without its noise),
by default level %d, the level the calibration was fitted at; --movetime
or --nodes replace the level's limits. With a node or depth limit the
review is the same on every machine.

flags:
  --level K       search as level K, 1 to %d (default %d)
  --movetime ms   search each position this many milliseconds instead
  --nodes n       search each position this many nodes instead
  --json          print one JSON object: ruleset, limits and turns, each
                  with turn, number, side, actions, before, after (South's
                  chance in percent, proven, score in stones), best, pv,
                  drop, judgement and note (and opening: value, south and
                  north with action, best, chance, drop, judgement)

examples:
  matombo analyse game.txt
  matombo analyse game.txt --nodes 200000 --json
`, search.InaccuracyDrop, search.MistakeDrop, search.BlunderDrop, search.EndgameStones, search.AnalysisLevel, search.MaxLevel, search.AnalysisLevel),
		run: runAnalyse,
	}
}

// analyseReport is the review as --json prints it.
type analyseReport struct {
	Ruleset string        `json:"ruleset"`
	Limits  string        `json:"limits"`
	Turns   []analyseTurn `json:"turns"`
}

// analyseTurn is the review of one turn.
type analyseTurn struct {
	Turn      int             `json:"turn"`
	Number    string          `json:"number"`
	Side      string          `json:"side"`
	Actions   string          `json:"actions"`
	Before    analyseChance   `json:"before"`
	After     analyseChance   `json:"after"`
	Best      string          `json:"best"`
	PV        string          `json:"pv"`
	Drop      float64         `json:"drop"` // points of the mover's chance lost
	Judgement string          `json:"judgement"`
	Note      string          `json:"note,omitempty"`
	Opening   *analyseOpening `json:"opening,omitempty"` // the simultaneous opening's judged choices
}

// analyseOpening judges both choices of the simultaneous Choro opening
// against the matrix game of the joint openings.
type analyseOpening struct {
	Value float64       `json:"value"` // South's chance at the game's equilibrium, percent
	South analyseChoice `json:"south"`
	North analyseChoice `json:"north"`
}

// analyseChoice is one side's judged opening choice.
type analyseChoice struct {
	Action    string  `json:"action"`
	Best      string  `json:"best"`   // the choice the side's equilibrium mix plays most
	Chance    float64 `json:"chance"` // South's chance, percent, with this choice against the other side's mix
	Drop      float64 `json:"drop"`   // points of the chooser's chance lost against the game's value
	Judgement string  `json:"judgement"`
}

// analyseChance is how a position stands for South.
type analyseChance struct {
	South  float64  `json:"south"`           // South's winning chance, percent
	Proven bool     `json:"proven"`          // a proven value (the solver, or the game is over)
	Score  *float64 `json:"score,omitempty"` // the search's score for South, stones (unproven only)
	Text   string   `json:"text"`            // for people: "57.3%" or "South wins: proven"
}

func runAnalyse(ctx context.Context, e *env, args []string) int {
	c := analyseCommand()
	fs := flagSet(c.name)
	level := fs.Int("level", 0, "")
	movetime := fs.Int("movetime", 0, "")
	nodes := fs.Int("nodes", 0, "")
	asJSON := fs.Bool("json", false, "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	set := 0
	for _, v := range []int{*level, *movetime, *nodes} {
		if v != 0 {
			set++
		}
	}
	switch {
	case len(pos) != 1:
		return e.usageError(c.name, "takes one record file ('-' for standard input), got %d arguments", len(pos))
	case set > 1:
		return e.usageError(c.name, "give one of --level, --movetime and --nodes")
	case *level < 0 || *level > search.MaxLevel:
		return e.usageError(c.name, "bad --level %d: levels are %d to %d", *level, search.MinLevel, search.MaxLevel)
	case *movetime < 0 || *movetime > 600_000:
		return e.usageError(c.name, "bad --movetime %d: give 1 to 600000 milliseconds", *movetime)
	case *nodes < 0 || *nodes > 1_000_000_000:
		return e.usageError(c.name, "bad --nodes %d: give 1 to 1000000000", *nodes)
	}
	cfg := search.AnalysisConfig{Level: *level, Limits: search.Limits{MoveTime: time.Duration(*movetime) * time.Millisecond, Nodes: *nodes}}
	name := pos[0]
	text, err := readRecord(e, name)
	if err != nil {
		e.errorf(c.name, "%v", err)
		return exitFailure
	}
	rec, err := mancala.ParseRecord(text)
	if err != nil {
		e.errorf(c.name, "%s: %s", name, plain(err))
		return exitFailure
	}
	if _, err := rec.Replay(); err != nil {
		e.errorf(c.name, "%s: %s", name, plain(err))
		return exitFailure
	}
	var rev *search.GameReview
	if !finish(ctx, e, c.name, func() { rev, err = search.AnalyseGame(ctx, rec, cfg) }) {
		return exitFailure
	}
	if err != nil {
		e.errorf(c.name, "%s", err)
		return exitFailure
	}
	rep := analyseReportOf(rev, cfg)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			e.errorf(c.name, "%v", err)
			return exitFailure
		}
		return exitOK
	}
	writeAnalyseText(e.stdout, rep)
	return exitOK
}

// limitsText describes the search of a review.
func limitsText(cfg search.AnalysisConfig, lim search.Limits) string {
	var parts []string
	if lim.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", lim.Depth))
	}
	if lim.Nodes > 0 {
		parts = append(parts, thousands(float64(lim.Nodes))+" nodes")
	}
	if lim.MoveTime > 0 {
		parts = append(parts, lim.MoveTime.String())
	}
	if cfg.Limits.IsZero() {
		k := cfg.Level
		if k == 0 {
			k = search.AnalysisLevel
		}
		return fmt.Sprintf("level %d (%s)", k, strings.Join(parts, ", "))
	}
	return strings.Join(parts, ", ")
}

func analyseReportOf(rev *search.GameReview, cfg search.AnalysisConfig) analyseReport {
	rep := analyseReport{Ruleset: rev.Ruleset.String(), Limits: limitsText(cfg, rev.Limits), Turns: []analyseTurn{}}
	for _, tr := range rev.Turns {
		side := tr.Side.Name()
		if tr.Simultaneous {
			side = "both"
		}
		rep.Turns = append(rep.Turns, analyseTurn{
			Turn: tr.Turn, Number: tr.Number, Side: side,
			Actions: search.FormatTurn(tr.Actions, tr.Simultaneous),
			Before:  chanceOf(tr.Before), After: chanceOf(tr.After),
			Best:      search.FormatTurn(tr.Best, tr.Simultaneous),
			PV:        search.FormatLine(tr.Number, tr.Side, tr.PV),
			Drop:      math.Round(tr.Drop*10)/10 + 0, // + 0 turns -0 into 0
			Judgement: string(tr.Judgement), Note: tr.Note,
		})
		if o := tr.Opening; o != nil {
			choice := func(c search.OpeningChoice) analyseChoice {
				return analyseChoice{Action: c.Action.String(), Best: c.Best.String(), Chance: math.Round(c.Chance*1000) / 10,
					Drop: math.Round(c.Drop*10)/10 + 0, Judgement: string(c.Judgement)}
			}
			t := &rep.Turns[len(rep.Turns)-1]
			t.Opening = &analyseOpening{Value: math.Round(o.Value*1000) / 10, South: choice(o.Sides[0]), North: choice(o.Sides[1])}
			t.Before.Score = nil // a matrix game's value, not a search's score
		}
	}
	return rep
}

func chanceOf(c search.Chance) analyseChance {
	out := analyseChance{South: math.Round(c.South*1000) / 10, Proven: c.Proven, Text: c.String()}
	if !c.Proven {
		sc := float64(c.Score) / 100
		out.Score = &sc
	}
	return out
}

// writeAnalyseText prints the review: a header, then one line per turn
// with the move number, the turn as written, South's chance before and
// after it, the change of the mover's chance in points, the judgement,
// the best turn and the line.
func writeAnalyseText(w io.Writer, rep analyseReport) {
	fmt.Fprintf(w, "ruleset: %s\nsearch: %s\n", rep.Ruleset, rep.Limits)
	fmt.Fprintf(w, "chances are South's; change is the mover's, in points: inaccuracy %d, mistake %d, blunder %d or more lost\n\n",
		search.InaccuracyDrop, search.MistakeDrop, search.BlunderDrop)
	aw, cw := len("turn"), len("before")
	for _, t := range rep.Turns {
		aw = max(aw, len(t.Actions))
		cw = max(cw, len(t.Before.Text), len(t.After.Text))
	}
	head := fmt.Sprintf("%-6s %-*s %*s    %-*s %6s %-10s %s", "move", aw, "turn", cw, "before", cw, "after", "change", "judgement", "best and line")
	fmt.Fprintln(w, strings.TrimRight(head, " "))
	for _, t := range rep.Turns {
		line := fmt.Sprintf("%-6s %-*s %*s -> %-*s", t.Number, aw, t.Actions, cw, t.Before.Text, cw, t.After.Text)
		if t.Note != "" {
			line += "  " + t.Note
		} else {
			judged := t.Judgement
			if judged == "" {
				judged = "-"
			}
			line += fmt.Sprintf(" %+6.1f %-10s %s", 0-t.Drop, judged, t.Best)
			if t.PV != "" {
				line += "  (" + t.PV + ")"
			}
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}
