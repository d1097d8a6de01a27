package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"matombo/mancala"
)

// AnalysisConfig configures a game review.
type AnalysisConfig struct {
	// Level gives the search's limits and quiescence when Limits is zero;
	// 0 means AnalysisLevel. The level's noise and blunders are not used:
	// the review always plays its best.
	Level int
	// Limits, when not zero, replace the level's limits (no quiescence).
	Limits Limits
	Seed   uint64
	// Calibration turns scores into chances; nil means DefaultCalibration.
	Calibration *Calibration
	// SolverStones: positions with at most this many stones on the board
	// are given to the exact solver first; 0 means EndgameStones.
	SolverStones int
	// SolverNodes bounds each solver run; 0 means 200,000 nodes.
	SolverNodes int
	// PVDecisions bounds the principal variation; 0 means 24 decisions.
	PVDecisions int
}

// Chance is how a position stands for South.
type Chance struct {
	South  float64 // South's chance of winning, 0 to 1, a draw counting half
	Proven bool    // proven by the exact solver, or the game is over: South is 1, 0 or 0.5
	Score  int     // the search's score for South, hundredths of a stone (0 when proven)
}

// For returns p's chance of winning.
func (c Chance) For(p mancala.Player) float64 {
	if p == mancala.South {
		return c.South
	}
	return 1 - c.South
}

// String prints the chance for people: "57.3%", or what is proven, such as
// "South wins: proven".
func (c Chance) String() string {
	if c.Proven {
		switch c.South {
		case 1:
			return "South wins: proven"
		case 0:
			return "North wins: proven"
		}
		return "draw: proven"
	}
	return strconv.FormatFloat(c.South*100, 'f', 1, 64) + "%"
}

// Judgement grades an action by the winning chance it lost the mover.
type Judgement string

// The judgements. Good is an action that lost less than InaccuracyDrop.
const (
	Good       Judgement = ""
	Inaccuracy Judgement = "inaccuracy"
	Mistake    Judgement = "mistake"
	Blunder    Judgement = "blunder"
)

// The drops in the mover's winning chance, in percentage points, from
// which a turn is an inaccuracy, a mistake or a blunder. A proven win
// thrown away is a blunder whatever the drop.
const (
	InaccuracyDrop = 10
	MistakeDrop    = 20
	BlunderDrop    = 30
)

// Judge returns the points (0 to 100) of the mover's winning chance lost
// from before (the position with best play) to after (once the turn was
// played), and the judgement. A turn that is the best turn itself (best)
// is never judged worse than Good: its drop is the search's horizon, not
// the player's.
func Judge(mover mancala.Player, before, after Chance, best bool) (float64, Judgement) {
	drop := (before.For(mover) - after.For(mover)) * 100
	switch {
	case best:
		return drop, Good
	case before.Proven && before.For(mover) == 1 && after.Proven && after.For(mover) < 1:
		return drop, Blunder // a proven win thrown away
	case drop+1e-9 >= BlunderDrop: // a margin for rounding: 0.6-0.5 is 0.0999…
		return drop, Blunder
	case drop+1e-9 >= MistakeDrop:
		return drop, Mistake
	case drop+1e-9 >= InaccuracyDrop:
		return drop, Inaccuracy
	}
	return drop, Good
}

// TurnReview is the review of one turn of a record.
type TurnReview struct {
	Turn         int              // the turn's index in the record, from 1
	Number       string           // its move number as written: "12." for South, "12..." for North
	Side         mancala.Player   // the mover (South for the simultaneous opening)
	Simultaneous bool             // the simultaneous Choro opening: South's choice, then North's
	Actions      []mancala.Action // the turn as written
	Before       Chance           // at the start of the turn, with best play
	After        Chance           // once the turn was played
	Best         []mancala.Action // the search's best turn from Before's position
	PV           [][]mancala.Action
	Drop         float64        // points of the mover's chance lost (negative: gained)
	Judgement    Judgement      // by Drop and the thresholds
	Note         string         // why a turn is not judged, or how it is
	Opening      *OpeningReview // the simultaneous opening's two judged choices
}

// OpeningReview judges the two hidden choices of the simultaneous Choro
// opening against the matrix game of the joint openings, whose entries are
// the review's chances for South of the positions after each pair of
// choices: each side's choice is worth the chance it gets against the
// other side's equilibrium mix, and loses what falls short of the game's
// value.
type OpeningReview struct {
	Value float64          // South's chance at the game's equilibrium
	Sides [2]OpeningChoice // South's choice, then North's
}

// OpeningChoice is one side's judged choice of the simultaneous opening.
type OpeningChoice struct {
	Action    mancala.Action // the choice made
	Best      mancala.Action // the choice the side's equilibrium mix plays most
	Chance    float64        // South's chance with this choice against the other side's mix
	Drop      float64        // points of the chooser's chance lost against the game's value
	Judgement Judgement      // by Drop and the thresholds
}

// GameReview is the review of a whole record.
type GameReview struct {
	Ruleset mancala.Ruleset
	Limits  Limits // the search's limits per position
	Turns   []TurnReview
}

// Analyst evaluates positions: the exact solver on small endgames, else
// the alpha-beta search, whose score the calibration turns into a chance.
// It is not safe for concurrent use.
type Analyst struct {
	cfg    AnalysisConfig
	lim    Limits
	ab     *AlphaBeta
	solver *Solver
	cal    *Calibration
	// the last opening game solved, by its position, as a review needs it
	// twice (the turn's before, and the judgement of its choices)
	openingAt string
	opening   OpeningGame
}

// Evaluation is what the Analyst found of one position.
type Evaluation struct {
	Chance Chance
	Best   mancala.Action   // the best action (0 when the game is over)
	PV     []mancala.Action // the principal variation, from Best
}

// NewAnalyst returns an Analyst, or an error if cfg is invalid.
func NewAnalyst(cfg AnalysisConfig) (*Analyst, error) {
	if cfg.Level == 0 {
		cfg.Level = AnalysisLevel
	}
	spec, err := Level(cfg.Level)
	if err != nil {
		return nil, err
	}
	if err := cfg.Limits.Validate(); err != nil {
		return nil, err
	}
	switch {
	case cfg.SolverStones < 0 || cfg.SolverNodes < 0 || cfg.PVDecisions < 0:
		return nil, errors.New("search: solver stones, solver nodes and PV decisions must be 0 (the default) or more")
	case cfg.SolverStones == 0:
		cfg.SolverStones = EndgameStones
	}
	if cfg.SolverNodes == 0 {
		cfg.SolverNodes = 200_000
	}
	if cfg.PVDecisions == 0 {
		cfg.PVDecisions = 24
	}
	an := &Analyst{cfg: cfg, cal: cfg.Calibration}
	if an.cal == nil {
		an.cal = DefaultCalibration()
	}
	if an.ab, an.lim, err = newScorer(spec, cfg.Limits, cfg.Seed); err != nil {
		return nil, err
	}
	if an.solver, err = NewSolver(18); err != nil {
		return nil, err
	}
	return an, nil
}

// Limits returns the limits of each search.
func (an *Analyst) Limits() Limits { return an.lim }

// Evaluate returns how s stands for South, its best action and line. At
// the simultaneous Choro opening it is the value of the opening's matrix
// game in the review's chances (each joint opening searched with a quarter
// of the limits), with South's likeliest equilibrium choice. A finished game
// is proven; a position with few stones, or one where the
// search finds a forced result, is given to the solver, and a value it
// proves is 1, 0 or 0.5. Otherwise the chance comes from the calibration,
// kept within 0.5% and 99.5%: only proven values are certain.
func (an *Analyst) Evaluate(ctx context.Context, s *mancala.State) (Evaluation, error) {
	return an.evaluate(ctx, s, false)
}

// evaluate is Evaluate, calling the solver whatever the stones when solve
// is set.
func (an *Analyst) evaluate(ctx context.Context, s *mancala.State, solve bool) (Evaluation, error) {
	if s.IsOver() {
		return Evaluation{Chance: outcomeChance(s)}, nil
	}
	if s.OpeningChoiceHidden() {
		return Evaluation{}, errors.New("search: cannot evaluate a position holding South's hidden opening choice")
	}
	if s.InSimultaneousOpening() { // the value of the opening's matrix game
		g, err := an.openingGame(ctx, s)
		if err != nil {
			return Evaluation{}, err
		}
		best := likeliest(g, mancala.South)
		return Evaluation{Chance: Chance{South: clampChance(g.Value)}, Best: best, PV: []mancala.Action{best}}, nil
	}
	a, err := an.ab.Choose(ctx, s, an.lim)
	if err != nil {
		return Evaluation{}, err
	}
	st := an.ab.LastStats()
	if len(s.Legal(nil)) == 1 {
		// Choose does not search a forced action: score the position after it.
		next := s.Clone()
		if err := next.Apply(a); err != nil {
			return Evaluation{}, err
		}
		ev, err := an.evaluate(ctx, next, solve)
		if err != nil {
			return Evaluation{}, err
		}
		ev.Best, ev.PV = a, append([]mancala.Action{a}, ev.PV...)
		return ev, nil
	}
	score := st.Score
	me := s.ToMove()
	if me != mancala.South {
		score = -score
	}
	ev := Evaluation{Best: a, Chance: Chance{South: an.cal.SouthChance(s.Ruleset(), score), Score: score}}
	ev.Chance.South = clampChance(ev.Chance.South)
	ev.PV = an.ab.PrincipalVariation(s, a, an.cfg.PVDecisions)
	if solve || st.Proven != 0 || s.Stones(mancala.South)+s.Stones(mancala.North) <= an.cfg.SolverStones {
		sol, err := an.solver.Solve(ctx, s, Limits{Nodes: an.cfg.SolverNodes})
		if err != nil {
			return Evaluation{}, err
		}
		if sol.Value != Unknown {
			v := (float64(sol.Value) + 1) / 2 // for the mover
			if me != mancala.South {
				v = 1 - v
			}
			ev.Chance = Chance{South: v, Proven: true}
			if ev.Best != sol.Best && sol.Value != Loss {
				ev.Best, ev.PV = sol.Best, an.ab.PrincipalVariation(s, sol.Best, an.cfg.PVDecisions)
			}
		}
	}
	return ev, nil
}

// outcomeChance is the proven chance of a finished game.
func outcomeChance(s *mancala.State) Chance {
	c := Chance{South: 0.5, Proven: true}
	if w, ok := s.Outcome().Result.Winner(); ok {
		c.South = 0
		if w == mancala.South {
			c.South = 1
		}
	}
	return c
}

// AnalyseGame reviews every turn of rec: South's winning chance before and
// after it, the best turn and line from before it, and a judgement of the
// turn by the mover's loss of winning chance (see Judge). The record must
// replay (Record.Replay). The simultaneous Choro opening is judged side by
// side (TurnReview.Opening, see OpeningReview): its Before is the value of
// the opening's matrix game, its Best each side's likeliest equilibrium
// choice, and its Judgement stays Good, each side's being in Opening. With a node or depth
// limit and no time limit the review is the same every time. It stops
// with ctx's error when ctx ends.
func AnalyseGame(ctx context.Context, rec *mancala.Record, cfg AnalysisConfig) (*GameReview, error) {
	if rec == nil {
		return nil, errors.New("search: no record given")
	}
	if _, err := rec.Replay(); err != nil {
		return nil, err
	}
	an, err := NewAnalyst(cfg)
	if err != nil {
		return nil, err
	}
	return ReviewGame(ctx, rec, an, an.Limits())
}

// PositionEvaluator evaluates the positions of a review. An Analyst is one; the
// web app wraps one to keep evaluations by position and to run each one
// on its AI scheduler.
type PositionEvaluator interface {
	// EvaluateSolving is Analyst.Evaluate, calling the exact solver
	// whatever the stones when solve is set.
	EvaluateSolving(ctx context.Context, s *mancala.State, solve bool) (Evaluation, error)
	// OpeningGame is the matrix game of the simultaneous Choro opening at
	// s in the review's chances for South, and its equilibrium.
	OpeningGame(ctx context.Context, s *mancala.State) (OpeningGame, error)
}

// EvaluateSolving implements PositionEvaluator.
func (an *Analyst) EvaluateSolving(ctx context.Context, s *mancala.State, solve bool) (Evaluation, error) {
	return an.evaluate(ctx, s, solve)
}

// OpeningGame implements PositionEvaluator.
func (an *Analyst) OpeningGame(ctx context.Context, s *mancala.State) (OpeningGame, error) {
	return an.openingGame(ctx, s)
}

// ReviewPositions is how many positions a review of rec evaluates: the
// start and the position after each turn.
func ReviewPositions(rec *mancala.Record) int { return len(rec.Turns) + 1 }

// ReviewGame is AnalyseGame with the positions evaluated by ev, whose
// searches have the limits lim (GameReview.Limits).
func ReviewGame(ctx context.Context, rec *mancala.Record, ev PositionEvaluator, lim Limits) (*GameReview, error) {
	if rec == nil {
		return nil, errors.New("search: no record given")
	}
	s, err := rec.Start()
	if err != nil {
		return nil, err
	}
	rev := &GameReview{Ruleset: rec.Ruleset, Limits: lim, Turns: make([]TurnReview, 0, len(rec.Turns))}
	before, err := ev.EvaluateSolving(ctx, s, false)
	if err != nil {
		return nil, err
	}
	num, prevBoth := 1, false
	for t, turn := range rec.Turns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tr := TurnReview{Turn: t + 1, Side: s.ToMove(), Simultaneous: s.InSimultaneousOpening(), Actions: slices.Clone(turn)}
		if t > 0 && (tr.Side == mancala.South || prevBoth) {
			num++
		}
		prevBoth = tr.Simultaneous
		tr.Number = strconv.Itoa(num) + "."
		if tr.Side == mancala.North && !tr.Simultaneous {
			tr.Number += ".."
		}
		start := s.Clone()
		var opening *OpeningReview
		if tr.Simultaneous && len(turn) == 2 {
			g, err := ev.OpeningGame(ctx, s)
			if err != nil {
				return nil, err
			}
			if opening, err = reviewOpening(g, turn[0], turn[1]); err != nil {
				return nil, err
			}
		}
		for _, a := range turn {
			if err := s.Apply(a); err != nil {
				return nil, fmt.Errorf("search: turn %d: %w", t+1, err)
			}
		}
		var after Evaluation
		if s.OpeningChoiceHidden() { // the record stops after South's hidden choice
			after = Evaluation{Chance: before.Chance}
		} else {
			// After a proven value, the solver also judges the next position,
			// so that a win thrown away is seen as one.
			solve := before.Chance.Proven
			if after, err = ev.EvaluateSolving(ctx, s, solve); err != nil {
				return nil, err
			}
		}
		tr.Before, tr.After = before.Chance, after.Chance
		switch {
		case opening != nil:
			tr.Opening = opening
			tr.Best = []mancala.Action{opening.Sides[0].Best, opening.Sides[1].Best}
			tr.Note = fmt.Sprintf("each side against the matrix game (value %.1f%%): South %s, North %s",
				100*opening.Value, opening.Sides[0].describe(), opening.Sides[1].describe())
		case tr.Simultaneous:
			tr.Note = "South's hidden opening choice: not judged until North's"
		default:
			tr.PV = SplitTurns(start, before.PV)
			if len(tr.PV) > 0 {
				tr.Best = tr.PV[0]
			}
			tr.Drop, tr.Judgement = Judge(tr.Side, tr.Before, tr.After, slices.Equal(tr.Best, turn))
		}
		rev.Turns = append(rev.Turns, tr)
		before = after
	}
	return rev, nil
}

// describe says how a choice of the opening was judged: "-" when good,
// else its judgement and drop.
func (c OpeningChoice) describe() string {
	if c.Judgement == Good {
		return "-"
	}
	return fmt.Sprintf("%s (-%.1f)", c.Judgement, c.Drop)
}

// clampChance keeps an unproven chance within 0.5% and 99.5%.
func clampChance(p float64) float64 { return math.Min(math.Max(p, 0.005), 0.995) }

// openingShare is the share of the review's limits each joint opening of
// the simultaneous Choro opening is searched with: a quarter, so that the
// 64 searches cost about 16 positions (some 1 to 2 s at level 6).
const openingShare = 4

// openingGame is the matrix game of the simultaneous opening at s in the
// review's chances for South, and its equilibrium.
func (an *Analyst) openingGame(ctx context.Context, s *mancala.State) (OpeningGame, error) {
	at := s.Ruleset().String() + "|" + s.BeforeOpeningChoice().Position()
	if an.openingAt == at {
		return an.opening, nil
	}
	rows, cols, after, err := JointOpenings(s)
	if err != nil {
		return OpeningGame{}, err
	}
	el := Limits{Depth: an.lim.Depth, Nodes: an.lim.Nodes / openingShare, MoveTime: an.lim.MoveTime / openingShare}
	if an.lim.Nodes > 0 {
		el.Nodes = max(el.Nodes, 1000)
	}
	payoff := make([][]float64, len(rows))
	for i := range rows {
		payoff[i] = make([]float64, len(cols))
		for j := range cols {
			st := after[i][j]
			if st.IsOver() {
				payoff[i][j] = outcomeChance(st).South
				continue
			}
			v := an.ab.value(ctx, st, el)
			if st.ToMove() != mancala.South {
				v = -v
			}
			payoff[i][j] = an.cal.SouthChance(st.Ruleset(), v)
		}
	}
	eq, err := SolveMatrixGame(payoff)
	if err != nil {
		return OpeningGame{}, err
	}
	g := OpeningGame{South: rows, North: cols, Payoff: payoff, Equilibrium: eq}
	if ctx.Err() == nil {
		an.openingAt, an.opening = at, g
	}
	return g, nil
}

// likeliest returns the choice of p that p's equilibrium mix in g plays most.
func likeliest(g OpeningGame, p mancala.Player) mancala.Action {
	mix, k := g.Mix(p), 0
	for x := range mix {
		if mix[x] > mix[k] {
			k = x
		}
	}
	return g.Choices(p)[k]
}

// reviewOpening judges South's choice south and North's choice north of
// the simultaneous opening against its matrix game g.
func reviewOpening(g OpeningGame, south, north mancala.Action) (*OpeningReview, error) {
	i, j := slices.Index(g.South, south), slices.Index(g.North, north)
	if i < 0 || j < 0 {
		return nil, fmt.Errorf("search: the opening %s|%s is not among the joint openings", south, north)
	}
	var rowChance, colChance float64 // South's chance with row i against North's mix, with column j against South's
	for x := range g.North {
		rowChance += g.Col[x] * g.Payoff[i][x]
	}
	for x := range g.South {
		colChance += g.Row[x] * g.Payoff[x][j]
	}
	rev := &OpeningReview{Value: g.Value}
	value := Chance{South: g.Value}
	for side, c := range []struct {
		action mancala.Action
		chance float64
	}{{south, rowChance}, {north, colChance}} {
		p := mancala.Player(side)
		drop, judged := Judge(p, value, Chance{South: c.chance}, false)
		rev.Sides[side] = OpeningChoice{Action: c.action, Best: likeliest(g, p), Chance: c.chance, Drop: max(drop, 0), Judgement: judged}
	}
	return rev, nil
}

// SplitTurns plays the line of decisions from s and cuts it into turns: a
// turn ends where the side to move changes hands or the game ends. The last
// turn may be unfinished where the line stops mid-turn. A line that does
// not play from s is cut where it stops being legal.
func SplitTurns(s *mancala.State, line []mancala.Action) [][]mancala.Action {
	cur := s.Clone()
	var out [][]mancala.Action
	var turn []mancala.Action
	for _, a := range line {
		if cur.IsOver() || cur.Apply(a) != nil {
			break
		}
		turn = append(turn, a)
		if cur.AtTurnStart() || cur.IsOver() {
			out, turn = append(out, turn), nil
		}
	}
	if len(turn) > 0 {
		out = append(out, turn)
	}
	return out
}

// FormatTurn writes a turn's actions as a record does: joined by ",", or
// by "|" for the simultaneous opening.
func FormatTurn(actions []mancala.Action, simultaneous bool) string {
	sep := ","
	if simultaneous {
		sep = "|"
	}
	names := make([]string, len(actions))
	for i, a := range actions {
		names[i] = a.String()
	}
	return strings.Join(names, sep)
}

// FormatLine writes the turns of a line in record notation with move
// numbers, the first turn being move number (as TurnReview.Number writes
// it) of side: "12... c3 13. a4,xc2 d1".
func FormatLine(number string, side mancala.Player, turns [][]mancala.Action) string {
	num, err := strconv.Atoi(strings.TrimRight(number, "."))
	if err != nil {
		num = 1
	}
	var b strings.Builder
	for i, turn := range turns {
		if i > 0 {
			b.WriteByte(' ')
			if side == mancala.South {
				num++
			}
		}
		switch {
		case side == mancala.South:
			b.WriteString(strconv.Itoa(num) + ". ")
		case i == 0:
			b.WriteString(strconv.Itoa(num) + "... ")
		}
		b.WriteString(FormatTurn(turn, false))
		side = side.Other()
	}
	return b.String()
}
