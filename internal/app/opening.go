package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// The simultaneous Choro opening (RULES.md §3.4): South chooses an outer
// hole, then North, neither seeing the other's choice. South's choice is
// stored as any action, but until North has chosen it reaches nobody but
// South: not the views of North, spectators or a game on one device, not
// the updates, the record, the replay or the events; the computer and the
// hint choose North's hole without it. This file holds what decides it.

// openingHidden reports whether st, the state of g, holds South's choice of
// the simultaneous opening, unseen, in a game in play. A game that ended
// before North chose (a resignation) shows it: nothing is left to decide.
func openingHidden(g *Game, st *mancala.State) bool {
	return !g.Over() && st.OpeningChoiceHidden()
}

// record returns the record of p as everyone may see it, and South's hidden
// opening choice ("" if none), which the record leaves out.
func (p *played) record() (*mancala.Record, string) {
	rec := p.rec.Record()
	if !openingHidden(p.g, p.state()) || len(rec.Turns) == 0 {
		return rec, ""
	}
	// The hidden choice is the whole of the last, unfinished turn: the
	// opening is the game's first turn and North has not added to it.
	last := rec.Turns[len(rec.Turns)-1]
	rec.Turns = rec.Turns[:len(rec.Turns)-1]
	if len(rec.Turns) == 0 {
		rec.Turns = nil
	}
	return rec, last[len(last)-1].String()
}

// choiceFor returns South's hidden opening choice for a viewer seated at you
// who may see it (South's seats in a game against the computer or between
// friends), else "". On one device both seats share one page: neither
// sees it there.
func (p *played) choiceFor(you string) string {
	if you != mancala.South.String() || p.g.Mode == ModeLocal {
		return ""
	}
	_, choice := p.record()
	return choice
}

// update returns the Update of p's present state with the events evs: the
// view for no seat, and South's hidden choice for South's seats (ViewFor).
func (p *played) update(evs []EventView) Update {
	return Update{Game: p.view(""), Events: evs, southChoice: p.choiceFor(mancala.South.String())}
}

// ViewFor returns the update's view as the seat you ("S", "N" or "" for a
// spectator) sees it: with You set and, for South's seats of a game
// holding South's secret opening choice, that choice (OpeningChoice).
func (u Update) ViewFor(you string) *GameView {
	v := *u.Game
	v.You = you
	v.OpeningChoice = ""
	if you == mancala.South.String() {
		v.OpeningChoice = u.southChoice
	}
	return &v
}

// choose asks the AI's player of level for the decision of st, with ctx's
// deadline as its time limit. North's choice of the simultaneous opening is
// asked without South's choice (blindOpening): so the computer playing
// North, and the hint for North, cannot use it whatever the player does with
// the state it is given.
func (s *Service) choose(ctx context.Context, st *mancala.State, level int) (mancala.Action, error) {
	p, err := s.ai.Player(level)
	if err != nil {
		return 0, fmt.Errorf("app: %w", err)
	}
	var lim search.Limits
	if d, ok := ctx.Deadline(); ok {
		lim.MoveTime = max(time.Until(d), time.Millisecond)
	}
	if !st.OpeningChoiceHidden() {
		return p.Choose(ctx, st, lim)
	}
	return blindOpening(ctx, p, st, lim, rand.IntN)
}

// blindOpening chooses North's opening hole in st, which holds South's
// choice, without it: the player is given the state before South's choice
// (BeforeOpeningChoice) with a choice for South drawn by pick from South's
// legal choices, not South's own; the state it sees says nothing of what
// South chose. An answer that is not legal in st (it cannot be, North's
// choices do not depend on South's) falls back to North's first choice.
func blindOpening(ctx context.Context, p search.Player, st *mancala.State, lim search.Limits, pick func(n int) int) (mancala.Action, error) {
	before := st.BeforeOpeningChoice()
	southChoices := before.Legal(nil)
	if err := before.Apply(southChoices[pick(len(southChoices))]); err != nil {
		return 0, Errorf(EInternal, "blind opening: %v", err)
	}
	a, err := p.Choose(ctx, before, lim)
	if err != nil {
		return 0, err
	}
	if st.Clone().Apply(a) != nil {
		return st.Legal(nil)[0], nil
	}
	return a, nil
}

// tracedStep is one action of a game replayed by traced.
type tracedStep struct {
	a      mancala.Action
	by     mancala.Player
	evs    []mancala.Event // valid during the visit only
	after  *mancala.State  // the state after the action, valid during the visit only
	south  mancala.Action  // South's choice of the simultaneous opening, for the events of North's
	hidden bool            // the action is South's opening choice, held secret: the game's last action, and openingHidden
}

// events returns the views of the step's events; none for a hidden choice.
func (t *tracedStep) events() []EventView {
	if t.hidden {
		return []EventView{}
	}
	return eventViews(t.evs, t.a, t.by, t.south)
}
