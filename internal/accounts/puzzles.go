package accounts

import (
	"context"
	"time"
)

// PuzzleAttempt is one result of a puzzle that a PuzzleStore counts at
// most once: the puzzle (Preset, Puzzle), the hash of the client's
// attempt id (one a browser, so one result per puzzle and browser), the
// puzzle's rating before its first counted result (its shipped rating),
// whether the player solved it, and when.
type PuzzleAttempt struct {
	Preset  string
	Puzzle  string
	Attempt []byte
	Seed    Glicko
	Solved  bool
	At      time.Time
}

// PuzzleRateFunc computes a puzzle's new rating from its rating before
// the result.
type PuzzleRateFunc func(before Glicko) Glicko

// PuzzleRating is a puzzle's live rating and the results counted in it.
type PuzzleRating struct {
	Glicko
	Attempts int `json:"attempts"`
	Solved   int `json:"solved"`
}

// PuzzleStore keeps the puzzles' live ratings: each puzzle is rated like
// a player, from the results of those who try it.
type PuzzleStore interface {
	// PuzzleRatings returns the stored ratings of preset's puzzles by id;
	// a puzzle without a counted result is absent.
	PuzzleRatings(ctx context.Context, preset string) (map[string]PuzzleRating, error)
	// RatePuzzle counts a once: if no result of a's puzzle with a's
	// Attempt is counted yet, it reads the puzzle's rating (a.Seed before
	// the first result), stores rate's result and records the attempt, in
	// one transaction. It returns the puzzle's rating before and after
	// and whether it counted a; an attempt counted already changes
	// nothing, and before and after are both the rating as it stands.
	RatePuzzle(ctx context.Context, a PuzzleAttempt, rate PuzzleRateFunc) (before, after PuzzleRating, counted bool, err error)
}
