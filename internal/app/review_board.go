package app

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// The analysis board: any position of any ruleset, with actions played on
// from it, evaluated by the review's search (review_cache.go) on the AI's
// scheduler, the state's evaluation and its best actions' kept by
// position.

const (
	// maxBoards bounds the analysis board's requests searched at once;
	// one more is refused (ERateLimited).
	maxBoards = 8
	// DefaultBoardTime bounds the wait of one request for its searches
	// (Config.BoardTime).
	DefaultBoardTime = 20 * time.Second
	// MaxBoardActions bounds the actions played on from a board's position.
	MaxBoardActions = 600
	// boardTop is how many of the best actions an evaluation shows, and
	// maxChildren how many actions of a decision are searched for them
	// (a decision with more is shown its first ones, sorted).
	boardTop    = 3
	maxChildren = 32
)

// BoardRequest asks for a state of the analysis board: the position
// (notation; "" the ruleset's start) and the actions played on from it,
// evaluated if Evaluate is set.
type BoardRequest struct {
	Ruleset  string
	Position string
	Actions  []string
	Evaluate bool
}

// BoardView is a state of the analysis board (docs/API.md).
type BoardView struct {
	View    *GameView   `json:"view"`   // the state after the actions (its legal actions, the decision due)
	Events  []EventView `json:"events"` // the last action's, for animation
	Actions []string    `json:"actions"`
	By      string      `json:"by"`       // the side of the last action ("" with none)
	TurnEnd bool        `json:"turn_end"` // a turn starts here, or the game is over
	Steps   []BoardStep `json:"steps"`    // each action's side and whether it ended its turn
	Eval    *BoardEval  `json:"eval,omitempty"`
}

// BoardStep is one action played on the analysis board.
type BoardStep struct {
	By      string `json:"by"`
	TurnEnd bool   `json:"turn_end"`
}

// BoardEval is the evaluation of a state of the analysis board.
type BoardEval struct {
	Chance ChanceView `json:"chance"`
	Best   string     `json:"best"` // the best action
	// Line is the principal variation from Best, turns separated by
	// spaces; where Chance is proven, it is the proving line.
	Line   string      `json:"line"`
	Top    []TopAction `json:"top"` // the best actions, best first, with their chances
	Limits string      `json:"limits"`
	Note   string      `json:"note,omitempty"` // why an evaluation has no best actions
}

// TopAction is one of the best actions of a state, with South's chance
// once it is played and the line from it.
type TopAction struct {
	Action string     `json:"action"`
	Chance ChanceView `json:"chance"`
	Line   string     `json:"line"` // from Action on
}

// Board returns the state of the analysis board req asks for.
func (s *Service) Board(ctx context.Context, req BoardRequest) (*BoardView, error) {
	if len(req.Actions) > MaxBoardActions {
		return nil, Errorf(EInvalid, "%d actions given; the analysis board plays at most %d from its position", len(req.Actions), MaxBoardActions)
	}
	st, err := startState(req.Ruleset, req.Position)
	if err != nil {
		return nil, err
	}
	turnStart, since := st.Clone(), []mancala.Action(nil)
	var evs []mancala.Event
	var last mancala.Action
	by := st.ToMove()
	steps := make([]BoardStep, 0, len(req.Actions))
	for i, text := range req.Actions {
		a, err := mancala.ParseAction(text)
		if err != nil {
			return nil, Errorf(EInvalid, "action %d (%q): %s", i+1, text, mancala.Message(err))
		}
		if st.IsOver() {
			return nil, Errorf(EInvalid, "action %d (%q): the game is over there", i+1, text)
		}
		by = st.ToMove()
		if evs, err = st.ApplyTraced(a, evs[:0]); err != nil {
			return nil, Errorf(EInvalid, "action %d (%q): %s; legal: %s", i+1, text, mancala.Message(err), strings.Join(legalStrings(st), " "))
		}
		last = a
		since = append(since, a)
		steps = append(steps, BoardStep{By: by.String(), TurnEnd: st.AtTurnStart() || st.IsOver()})
		if st.AtTurnStart() || st.IsOver() {
			turnStart, since = st.Clone(), since[:0]
		}
	}
	v := &GameView{Turns: [][]string{}, Moves: []TurnView{}, Players: map[string]Player{}, Seated: map[string]bool{}}
	positionView(v, st)
	out := &BoardView{View: v, Events: []EventView{}, Actions: req.Actions, Steps: steps}
	if out.Actions == nil {
		out.Actions = []string{}
	}
	out.TurnEnd = st.AtTurnStart() || st.IsOver()
	if len(req.Actions) > 0 {
		out.Events = eventViews(evs, last, by, 0)
		out.By = by.String()
	}
	if !req.Evaluate {
		return out, nil
	}
	select {
	case s.boards <- struct{}{}:
		defer func() { <-s.boards }()
	default:
		return nil, Errorf(ERateLimited, "%d analyses are being searched already; ask again in a moment", maxBoards)
	}
	bctx, cancel := context.WithTimeout(ctx, s.boardTime)
	defer cancel()
	ev, err := s.boardEval(bctx, st, turnStart, since)
	if err != nil {
		if bctx.Err() != nil && ctx.Err() == nil {
			return nil, Errorf(ERateLimited, "the computer is too busy to analyse now; ask again in a moment")
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, Errorf(EInternal, "analysis: %v", err)
	}
	out.Eval = ev
	return out, nil
}

// boardEval evaluates st, reached by the actions since from turnStart, and
// its best actions.
func (s *Service) boardEval(ctx context.Context, st, turnStart *mancala.State, since []mancala.Action) (*BoardEval, error) {
	as := s.analysts
	out := &BoardEval{Top: []TopAction{}, Limits: limitsText(as.limits())}
	if st.OpeningChoiceHidden() {
		out.Note = "South has chosen its opening; the position is evaluated once North has chosen too"
		out.Chance = ChanceView{South: 50, Text: "-"}
		return out, nil
	}
	ev, err := as.evaluate(ctx, st, boardKey(turnStart, since, st), false, true)
	if err != nil {
		return nil, err
	}
	out.Chance = chanceView(ev.Chance)
	if ev.Best != 0 {
		out.Best = ev.Best.String()
	}
	out.Line = lineText(st, ev.PV)
	switch {
	case st.IsOver():
		return out, nil
	case st.InSimultaneousOpening():
		out.Note = "the simultaneous opening: each side chooses unseen; the chance is the value of the opening's matrix game, the best the likeliest choice of South's equilibrium"
		return out, nil
	}
	legal := st.Legal(nil)
	slices.SortFunc(legal, func(a, b mancala.Action) int { return cmp.Compare(a.String(), b.String()) })
	if len(legal) > maxChildren {
		legal = legal[:maxChildren]
	}
	me := st.ToMove()
	type scored struct {
		top    TopAction
		chance float64
	}
	var all []scored
	for _, a := range legal {
		next := st.Clone()
		if err := next.Apply(a); err != nil {
			continue
		}
		nextStart, nextSince := turnStart, append(slices.Clone(since), a)
		if next.AtTurnStart() || next.IsOver() {
			nextStart, nextSince = next, nil
		}
		var cev search.Evaluation
		if next.OpeningChoiceHidden() {
			continue
		}
		if cev, err = as.evaluate(ctx, next, boardKey(nextStart, nextSince, next), ev.Chance.Proven, true); err != nil {
			return nil, err
		}
		line := a.String()
		if rest := lineText(next, cev.PV); rest != "" {
			if next.ToMove() == me && !next.AtTurnStart() {
				line += "," + rest
			} else {
				line += " " + rest
			}
		}
		all = append(all, scored{TopAction{Action: a.String(), Chance: chanceView(cev.Chance), Line: line}, cev.Chance.For(me)})
	}
	slices.SortStableFunc(all, func(x, y scored) int { return cmp.Compare(y.chance, x.chance) })
	for i := range min(boardTop, len(all)) {
		out.Top = append(out.Top, all[i].top)
	}
	return out, nil
}

// lineText writes the line of decisions from s in record notation, turns
// separated by spaces, without move numbers.
func lineText(s *mancala.State, line []mancala.Action) string {
	turns := search.SplitTurns(s, line)
	parts := make([]string, len(turns))
	for i, t := range turns {
		parts[i] = search.FormatTurn(t, false)
	}
	return strings.Join(parts, " ")
}
