package app

import (
	"time"

	"matombo/mancala"
)

// Clock is the time source of the games' clocks, injected so that tests
// use a fake one (package fakeclock); nil in Config is the real time.
type Clock interface {
	// Now returns the present time.
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed, unless the
	// timer is stopped first.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a timer of a Clock.
type Timer interface {
	// Stop stops the timer; it reports whether it stopped it before f ran.
	Stop() bool
}

// realClock is the real time.
type realClock struct{}

func (realClock) Now() time.Time                            { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// How the clocks run (docs/CHOICES.md, "Clocks"):
//
// A side's clock runs while the decision is its own: from the moment the
// other side's turn ended (or its own previous decision of the turn was
// played) until its action is stored, by the server's clock. A turn may
// be several decisions of one side (relays, picks, Choro's directions);
// the increment is added once, when the turn passes to the other side.
// Each side's first turn is untimed in a real-time game: its clock starts
// once both sides have played a turn (the game can be aborted until then,
// and is aborted if a side takes longer than StartWindow for its first
// turn). A correspondence turn has its days, from the moment it began,
// whatever the decisions in it; a correspondence game is aborted if its
// first turns pass their time, and lost by the side to move later.
//
// Every action stores the mover's time left after it (Move.Clock) and the
// deadline of the decision that follows (Move.Deadline, kept with the
// game): a restart, or another instance, reads the clocks from the store.

// StartWindow is how long each side of a real-time game has for its first
// turn, which its clock does not count: a game whose first turns are not
// played within it is aborted.
const StartWindow = time.Hour

// AbandonAfter is how long a game without a clock may wait with nobody
// acting before it is ended (abandonedResult).
const AbandonAfter = 14 * 24 * time.Hour

// The reasons of games ended by the clock, the abandonment rule or the
// players' agreement, besides the rules' ones and "resigned".
const (
	ReasonTime       = "time"        // the side to move ran out of time
	ReasonNotStarted = "not started" // a first turn was not played in time: aborted
	ReasonAbandoned  = "abandoned"   // a game without a clock nobody played on for AbandonAfter
	ReasonAborted    = "aborted"     // a player aborted the game before both sides had played
	ReasonAgreed     = "agreed"      // the players agreed to a draw
)

// ResultAborted is the result of a game that ended without counting: no
// winner, no draw, never rated.
const ResultAborted = "aborted"

// handovers counts how often the decision passed from one side to the
// other in actions, then to toMove: 2 once both sides have played a turn.
func handovers(actions []Move, toMove mancala.Player) int {
	return handoversUpTo(actions, toMove, len(actions)+1)
}

// handoversUpTo is handovers counted up to limit at most: the handovers
// of a game come in its first actions, so asking whether both sides have
// played (limit 2) reads only those.
func handoversUpTo(actions []Move, toMove mancala.Player, limit int) int {
	n := 0
	for i := 1; i < len(actions) && n < limit; i++ {
		if actions[i].Side != actions[i-1].Side {
			n++
		}
	}
	if n < limit && len(actions) > 0 && actions[len(actions)-1].Side != toMove {
		n++
	}
	return n
}

// bothPlayed reports whether both sides of g have played a turn, the
// decision now being toMove's.
func bothPlayed(g *Game, toMove mancala.Player) bool { return handoversUpTo(g.Actions, toMove, 2) >= 2 }

// clockLeft returns side's time left as stored: its last action's clock,
// or the control's start (a correspondence turn's time).
func clockLeft(g *Game, tc TimeControl, side mancala.Player) time.Duration {
	for i := len(g.Actions) - 1; i >= 0; i-- {
		if m := g.Actions[i]; m.Side == side && m.Clocked {
			return m.Clock
		}
	}
	if tc.Correspondence() {
		return tc.turnTime()
	}
	return tc.Base
}

// timeControlOf returns g's time control (zero for none or an unreadable
// one, which the store never holds).
func timeControlOf(g *Game) TimeControl {
	tc, _ := ParseTimeControl(g.TimeControl)
	return tc
}

// stamp sets m's clock and deadline: m is side's action at m.At in g
// (before it is appended), leaving the decision to next (over: the game
// ends with it).
func stamp(g *Game, m *Move, side, next mancala.Player, over bool) {
	tc := timeControlOf(g)
	if tc.IsZero() {
		return
	}
	now := m.At
	turnEnds := next != side
	m.Clocked = true
	if tc.Correspondence() {
		m.Clock = max(g.Deadline.Sub(now), 0)
		switch {
		case over:
		case turnEnds:
			m.Deadline = now.Add(tc.turnTime())
		default:
			m.Deadline = g.Deadline // the turn keeps its time
		}
		return
	}
	left := clockLeft(g, tc, side)
	played := handoversUpTo(g.Actions, side, 2) // before this action
	timed := played >= 2
	if timed {
		left -= now.Sub(g.ClockFrom)
		if turnEnds {
			left += tc.Increment
		}
	}
	m.Clock = max(left, 0)
	if over {
		return
	}
	if turnEnds {
		played++ // the handovers after the action
	}
	switch {
	case played < 2:
		m.Deadline = now.Add(StartWindow)
	case next == side:
		m.Deadline = now.Add(m.Clock)
	default:
		m.Deadline = now.Add(clockLeft(g, tc, next)) // m is side's: next's clock is as stored
	}
}

// startClock sets a new game's clock: the first decision's deadline.
func startClock(g *Game, tc TimeControl) {
	g.ClockFrom = g.Created
	switch {
	case tc.Correspondence():
		g.Deadline = g.Created.Add(tc.turnTime())
	case !tc.IsZero():
		g.Deadline = g.Created.Add(StartWindow)
	}
}

// dueEnd returns how game g, whose decision is toMove's, ends at now by
// its clock or the abandonment rule, if it does.
func dueEnd(g *Game, toMove mancala.Player, now time.Time) (result, reason string, ok bool) {
	if g.Over() || g.Mode == ModeImported {
		return "", "", false
	}
	if timeControlOf(g).IsZero() {
		if now.Sub(g.Updated) < AbandonAfter {
			return "", "", false
		}
		result, reason = abandonedResult(g, toMove)
		return result, reason, true
	}
	if g.Deadline.IsZero() || now.Before(g.Deadline) {
		return "", "", false
	}
	if !bothPlayed(g, toMove) {
		return ResultAborted, ReasonNotStarted, true
	}
	return toMove.Other().String(), ReasonTime, true
}

// abandonedResult is the end of a game without a clock nobody has acted
// in for AbandonAfter: the side to move loses if the other side was
// waiting for it (both sides have played, and the opponent is a friend or
// the computer); it is aborted if a side never played, or if one device
// held both sides (nobody was waiting).
func abandonedResult(g *Game, toMove mancala.Player) (string, string) {
	if g.Mode == ModeLocal || !bothPlayed(g, toMove) {
		return ResultAborted, ReasonAbandoned
	}
	return toMove.Other().String(), ReasonAbandoned
}

// ClockView is a game's clocks as clients see them (the clock of
// /api/games/{id}): the time left of each side at the view's moment, the
// side whose clock runs, the decision's deadline, and the rule that ends
// the game when nobody acts.
type ClockView struct {
	Control  string `json:"control"`  // the time control, "" for none
	Category string `json:"category"` // its rating category
	// Left is each side's time left in milliseconds at At: for
	// correspondence, the time left of the turn (the side not to move:
	// a whole turn's time).
	Left    map[string]int64 `json:"left_ms,omitempty"`
	Running string           `json:"running"`      // the side whose clock runs, "" if none (first turns, game over, no clock)
	At      *time.Time       `json:"at,omitempty"` // the server's time of the view, for a game with a clock (Left is at it)
	Due     *time.Time       `json:"deadline"`     // when the decision in play ends the game (flag, abort, correspondence time); null if none
	Started bool             `json:"started"`      // both sides have played a turn: the game can no longer be aborted
	// AbandonAfterS is, for a game without a clock, the seconds of
	// inactivity after which it is ended (abandonedResult).
	AbandonAfterS int64 `json:"abandon_after_s,omitempty"`
	// IdleSince is, for a game without a clock, the time of its last change.
	IdleSince *time.Time `json:"idle_since,omitempty"`
}

// clockView returns the clocks of p at now.
func (p *played) clockView(now time.Time) *ClockView {
	g := p.g
	toMove := p.state().ToMove()
	tc := timeControlOf(g)
	v := &ClockView{Control: tc.String(), Category: tc.Category(), Started: bothPlayed(g, toMove)}
	if tc.IsZero() {
		if !g.Over() && g.Mode != ModeImported {
			v.AbandonAfterS = int64(AbandonAfter / time.Second)
			idle := g.Updated
			v.IdleSince = &idle
		}
		return v
	}
	at := now.UTC()
	v.At = &at
	v.Left = map[string]int64{}
	for _, side := range []mancala.Player{mancala.South, mancala.North} {
		left := clockLeft(g, tc, side)
		switch {
		case tc.Correspondence() && side == toMove && !g.Over():
			left = g.Deadline.Sub(now)
		case tc.Correspondence():
			left = tc.turnTime()
		}
		v.Left[side.String()] = max(left, 0).Milliseconds()
	}
	if g.Over() {
		if g.Reason == ReasonTime {
			v.Left[toMove.String()] = 0 // the flag fell
		}
		return v
	}
	due := g.Deadline
	v.Due = &due
	if tc.Correspondence() || v.Started {
		v.Running = toMove.String()
	}
	if !tc.Correspondence() && v.Started {
		v.Left[toMove.String()] = max(g.Deadline.Sub(now), 0).Milliseconds()
	}
	return v
}

// deadlineFrom returns the deadline of g's decision of toMove if it
// begins at now (after a takeback): zero without a clock.
func deadlineFrom(g *Game, toMove mancala.Player, now time.Time) time.Time {
	tc := timeControlOf(g)
	switch {
	case tc.IsZero():
		return time.Time{}
	case tc.Correspondence():
		return now.Add(tc.turnTime())
	case !bothPlayed(g, toMove):
		return now.Add(StartWindow)
	}
	return now.Add(clockLeft(g, tc, toMove))
}
