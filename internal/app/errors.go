package app

import (
	"errors"
	"fmt"
)

// Code classifies an application error; the server maps each code to an
// HTTP status in one table.
type Code string

// The error codes of the application.
const (
	EInvalid          Code = "bad_request"        // the request is malformed or the action illegal
	ENotFound         Code = "not_found"          // no such game
	EForbidden        Code = "forbidden"          // the token does not allow this
	EUnauthorized     Code = "unauthorized"       // an operator's endpoint without its token
	EConflict         Code = "conflict"           // the game moved on (stale ply, game over)
	ETooLarge         Code = "too_large"          // the request body is too large
	ERateLimited      Code = "rate_limited"       // too many requests or the AI queue is full
	EInternal         Code = "internal"           // a fault of the server
	EMethodNotAllowed Code = "method_not_allowed" // the path has routes, but none for the request's method
)

// The error codes of the transport's defences (the server's Host, Origin,
// Content-Type and capacity checks).
const (
	EUnsupportedMedia Code = "unsupported_media_type" // a body of a type the route does not take
	EMisdirected      Code = "misdirected"            // a Host name the server does not answer for
	EUnavailable      Code = "unavailable"            // the server is at a capacity limit; retry later
)

// Error is an application error with a code and a message for people.
type Error struct {
	Code    Code
	Message string
	// SuggestRuleset, when set, is a ruleset under which the request would
	// succeed: a record import refused under its own Ruleset header that
	// plays under this one (mancala.ReadingError).
	SuggestRuleset string
}

func (e *Error) Error() string { return "app: " + e.Message }

// Errorf returns an *Error with code c and a formatted message.
func Errorf(c Code, format string, args ...any) *Error {
	return &Error{Code: c, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err: its *Error's code, or EInternal.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the message of err for people: its *Error's message,
// or a generic one for internal errors (whose details go to the log only).
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// ErrorSuggestRuleset returns the ruleset that err suggests (its *Error's
// SuggestRuleset), or "".
func ErrorSuggestRuleset(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.SuggestRuleset
	}
	return ""
}
