package puzzles

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"matombo/mancala"
	"matombo/search"
)

// The statuses of a puzzle being played.
const (
	StatusPlaying = "playing" // the player's decision
	StatusSolved  = "solved"  // the player won the game
	StatusFailed  = "failed"  // the player's last action gave the win away
)

// Answer is what Play answers to the player's action.
type Answer struct {
	Status string
	Player mancala.Player // the side of the player: the puzzle's side to move
	Action mancala.Action // the player's action played
	// Replies are the actions the engine played after the player's, up to
	// the player's next decision or the end of the game.
	Replies []mancala.Action
	// State is the game after the player's action and the replies.
	State *mancala.State
	// Checked says the player's action was off the main line and the
	// solver proved it keeps the win (or proved it does not).
	Checked bool
	// Best is, on a failure, the action the player should have played.
	Best mancala.Action
	// Events are what the player's action and then each reply did on the
	// board, one slice per action, for the page's animation.
	Events [][]mancala.Event
}

// PlayError is a sequence of actions that cannot be played in a puzzle.
type PlayError struct{ Reason string }

// Error names what was wrong.
func (e *PlayError) Error() string { return "puzzles: " + e.Reason }

func playErrorf(format string, args ...any) error {
	return &PlayError{Reason: fmt.Sprintf(format, args...)}
}

// MaxPlayed is the most actions Play accepts: the main lines are shorter.
const MaxPlayed = 200

// Play plays the player's last action of played in puzzle p of rs: played
// is every action so far from the puzzle's position, the player's and the
// engine's replies as Play gave them, ending with the player's new one.
// The action keeps the win when it follows the main line, or when it
// leaves it and the solver proves it still wins (the first action never
// leaves it: it is the only winning one); then the engine replies with its
// best defence (the main line's while on it, else the longest the solver
// proves) until the player's next decision or the end of the game. A
// proof that does not fit the prover's budget counts as no win.
func Play(ctx context.Context, rs mancala.Ruleset, p Puzzle, played []string, pv *Prover) (Answer, error) {
	if len(played) == 0 {
		return Answer{}, playErrorf("no action to play")
	}
	if len(played) > MaxPlayed {
		return Answer{}, playErrorf("%d actions played; a puzzle takes at most %d", len(played), MaxPlayed)
	}
	s, err := fromPosition(rs, p.Position)
	if err != nil {
		return Answer{}, err
	}
	me := s.ToMove()
	acts := make([]mancala.Action, len(played))
	for i, text := range played {
		a, err := mancala.ParseAction(text)
		if err != nil {
			return Answer{}, playErrorf("action %d %q: %v", i+1, text, err)
		}
		acts[i] = a
	}
	last := len(acts) - 1
	for i, a := range acts[:last] {
		if err := s.Apply(a); err != nil {
			return Answer{}, playErrorf("action %d %q: %v", i+1, played[i], errors.Unwrap(err))
		}
		if s.IsOver() {
			return Answer{}, playErrorf("the game is over after action %d", i+1)
		}
	}
	if s.ToMove() != me {
		return Answer{}, playErrorf("the decision after action %d is the engine's, not yours", last)
	}
	a := acts[last]
	if !slices.Contains(s.Legal(nil), a) {
		return Answer{}, playErrorf("%s is not legal here; legal: %v", a, s.Legal(nil))
	}
	onLine := last < len(p.Line) && slices.Equal(played, p.Line[:last+1])
	ans := Answer{Status: StatusPlaying, Player: me, Action: a}
	if !onLine {
		if last == 0 {
			ans.Status, ans.Best = StatusFailed, mustParse(p.Action)
		} else {
			ans.Checked = true
			v, err := pv.ValueOf(ctx, s, a)
			if err != nil {
				return Answer{}, err
			}
			if v.Verdict != search.Win {
				ans.Status = StatusFailed
				if best, err := pv.bestFor(ctx, s, me); err == nil {
					ans.Best = best
				}
			}
		}
	}
	evs, err := s.ApplyTraced(a, nil)
	if err != nil {
		return Answer{}, err
	}
	ans.State, ans.Events = s, [][]mancala.Event{evs}
	if ans.Status == StatusFailed {
		return ans, nil
	}
	line := append([]mancala.Action(nil), acts...)
	for !s.IsOver() && s.ToMove() != me {
		r, err := defence(ctx, s, p, line, me, pv)
		if err != nil {
			return Answer{}, err
		}
		evs, err := s.ApplyTraced(r, nil)
		if err != nil {
			return Answer{}, err
		}
		line = append(line, r)
		ans.Replies = append(ans.Replies, r)
		ans.Events = append(ans.Events, evs)
	}
	if s.IsOver() {
		ans.Status = StatusFailed
		if w, ok := s.Outcome().Result.Winner(); ok && w == me {
			ans.Status = StatusSolved
		}
	}
	return ans, nil
}

// defence returns the engine's reply in s, line having been played: the
// main line's while line follows it, else the defence the solver proves
// holds out longest, else (a proof beyond the budget) the first legal
// action.
func defence(ctx context.Context, s *mancala.State, p Puzzle, line []mancala.Action, me mancala.Player, pv *Prover) (mancala.Action, error) {
	legal := s.Legal(nil)
	if n := len(line); n < len(p.Line) && slices.EqualFunc(line, p.Line[:n], func(a mancala.Action, t string) bool { return a.String() == t }) {
		if a, err := mancala.ParseAction(p.Line[n]); err == nil && slices.Contains(legal, a) {
			return a, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if a, err := pv.bestFor(ctx, s, me); err == nil {
		return a, nil
	}
	return legal[0], nil
}

func mustParse(text string) mancala.Action {
	a, err := mancala.ParseAction(text)
	if err != nil {
		return 0
	}
	return a
}
