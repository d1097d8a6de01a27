package mancala

import (
	"errors"
	"strings"
)

// IllegalActionError is an action that State.Apply refused, with the
// position it was refused in, why, and the actions that were legal there.
type IllegalActionError struct {
	Action   Action
	Position string   // the position in notation (mid-turn: the board as it stands)
	Legal    []Action // the legal actions, in the order of State.Legal; none when the game is over
	Over     bool     // the game was over: no action can be played
	Reason   string   // what was wrong, for people
}

// Error says which action was refused, why, and what was legal:
// "mancala: illegal action d5: you may only sow your own holes; legal
// actions are a1 a2".
func (e *IllegalActionError) Error() string {
	if e.Over {
		return "mancala: " + e.Reason + "; no action can be played"
	}
	return "mancala: illegal action " + e.Action.String() + ": " + e.Reason + "; legal actions are " + joinSorted(e.Legal)
}

// Message returns the message of an error made by this package without its
// "mancala: " prefix, for people who see it in another program's words (a
// web page, a command's output); other errors are returned whole. Errors
// that wrap one of the package's keep their own words before it.
func Message(err error) string {
	if err == nil {
		return ""
	}
	return strings.TrimPrefix(err.Error(), errPrefix)
}

// errPrefix starts the message of every error of this package.
const errPrefix = "mancala: "

// IsIllegalAction reports whether err is, or wraps, an *IllegalActionError.
func IsIllegalAction(err error) bool {
	var e *IllegalActionError
	return errors.As(err, &e)
}
