package server

import (
	"context"
	"math"
	"net/http"
	"time"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/puzzles"
)

// The bounds of a result's attempt id: the browser makes one of its own,
// random, and sends it with every result.
const (
	attemptMin = 16
	attemptMax = 64
)

// seedOf is p's rating before its first counted result: its shipped
// rating (the weakest level that finds the key move).
func seedOf(p puzzles.Puzzle) accounts.Glicko {
	return accounts.Glicko{Rating: float64(p.Rating), Deviation: puzzleDeviation, Volatility: accounts.NewVolatility}
}

// liveRatings returns the stored ratings of preset's puzzles (none
// without a puzzle store).
func (s *Server) liveRatings(ctx context.Context, preset string) (map[string]accounts.PuzzleRating, error) {
	if s.puzzles.ratings == nil {
		return nil, nil
	}
	return s.puzzles.ratings.PuzzleRatings(ctx, preset)
}

// infoOf is p as the list shows it, at its live rating if live has one.
func infoOf(p puzzles.Puzzle, live map[string]accounts.PuzzleRating) puzzleInfo {
	r, ok := live[p.ID]
	if !ok {
		r = accounts.PuzzleRating{Glicko: seedOf(p)}
	}
	return puzzleInfo{ID: p.ID, Rating: int(math.Round(r.Rating)), RD: int(math.Round(r.Deviation)), Attempts: r.Attempts, Solved: r.Solved,
		Kind: p.Kind, Themes: themesOf(p)}
}

// puzzleResultRequest is the body of POST .../result: whether the player
// solved the puzzle at the first try, the player's rating before (nil or
// zero: unrated) and the client's attempt id. The server keeps the
// puzzle's rating and the attempts counted; the browser keeps the
// player's rating.
type puzzleResultRequest struct {
	Solved  bool             `json:"solved"`
	Rating  *accounts.Glicko `json:"rating"`
	Attempt string           `json:"attempt"`
}

// puzzleResultAnswer answers it: the player's rating before and after,
// the puzzle's, and whether the result counted (a result of an attempt
// counted already changes neither rating).
type puzzleResultAnswer struct {
	Rating       accounts.Glicko       `json:"rating"`
	Before       accounts.Glicko       `json:"before"`
	Counted      bool                  `json:"counted"`
	PuzzleRating accounts.PuzzleRating `json:"puzzle_rating"`
	PuzzleBefore accounts.PuzzleRating `json:"puzzle_before"`
}

// checkAttempt checks a result's attempt id.
func checkAttempt(id string) error {
	if len(id) < attemptMin || len(id) > attemptMax {
		return app.Errorf(app.EInvalid, "attempt has %d characters; give an id of %d to %d letters, digits, '-' or '_', the same for all of a browser's results", len(id), attemptMin, attemptMax)
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return app.Errorf(app.EInvalid, "attempt has the character %q; give %d to %d letters, digits, '-' or '_'", c, attemptMin, attemptMax)
		}
	}
	return nil
}

// checkGlicko checks a player's rating sent by the browser.
func checkGlicko(g accounts.Glicko) error {
	switch {
	case !(g.Rating >= 0 && g.Rating <= 4000):
		return app.Errorf(app.EInvalid, "rating %v is out of range; give 0 to 4000", g.Rating)
	case !(g.Deviation >= 1 && g.Deviation <= accounts.NewDeviation):
		return app.Errorf(app.EInvalid, "rd %v is out of range; give 1 to %d", g.Deviation, accounts.NewDeviation)
	case !(g.Volatility > 0 && g.Volatility <= 1):
		return app.Errorf(app.EInvalid, "volatility %v is out of range; give more than 0, at most 1", g.Volatility)
	}
	return nil
}

// handlePuzzleResult rates the player and the puzzle against each other,
// each from its rating before: the player scores 1 for a solve, the
// puzzle 1 for a failure. The puzzle's rating counts one result per
// attempt id.
func (s *Server) handlePuzzleResult(w http.ResponseWriter, r *http.Request) {
	p, _, err := s.puzzleOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var req puzzleResultRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	player := accounts.NewGlicko()
	if req.Rating != nil && req.Rating.Deviation != 0 {
		player = *req.Rating
	}
	if err := checkGlicko(player); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := checkAttempt(req.Attempt); err != nil {
		s.fail(w, r, err)
		return
	}
	score := 0.0
	if req.Solved {
		score = 1
	}
	out := puzzleResultAnswer{Before: player, Rating: player}
	rate := func(puzzle accounts.Glicko) accounts.Glicko {
		out.Rating = player.Update([]accounts.Outcome{{Opponent: puzzle, Score: score}}, accounts.Tau)
		return puzzle.Update([]accounts.Outcome{{Opponent: player, Score: 1 - score}}, accounts.Tau)
	}
	if s.puzzles.ratings == nil { // nowhere to keep it: the shipped rating
		out.PuzzleBefore = accounts.PuzzleRating{Glicko: seedOf(p)}
		out.PuzzleRating, out.Counted = out.PuzzleBefore, true
		rate(out.PuzzleBefore.Glicko)
		writeJSON(w, http.StatusOK, out)
		return
	}
	a := accounts.PuzzleAttempt{Preset: r.PathValue("preset"), Puzzle: p.ID, Attempt: app.HashToken(req.Attempt), Seed: seedOf(p), Solved: req.Solved, At: time.Now()}
	out.PuzzleBefore, out.PuzzleRating, out.Counted, err = s.puzzles.ratings.RatePuzzle(r.Context(), a, rate)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !out.Counted {
		out.Rating = player
	}
	writeJSON(w, http.StatusOK, out)
}

// puzzleStoreOf returns store as a puzzle store, if it keeps puzzle
// ratings.
func puzzleStoreOf(store app.Store) accounts.PuzzleStore {
	ps, _ := store.(accounts.PuzzleStore)
	return ps
}
