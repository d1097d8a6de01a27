package server

import (
	"net/http"
	"testing"

	"matombo/internal/accounts"
	"matombo/puzzles"
)

// Two browsers' attempt ids.
const (
	attemptA = "browser-a-0123456789"
	attemptB = "browser-b-0123456789"
)

// checkPuzzleResults sends results of puzzle p (at base): a solve moves
// the player's rating up and the puzzle's down, a failure the other way,
// a repeated attempt changes neither, and the list and the puzzle show
// the live rating.
func checkPuzzleResults(t *testing.T, e *testEnv, base string, p puzzles.Puzzle) {
	t.Helper()
	var res puzzleResultAnswer
	e.call("POST", base+"/result", "", map[string]any{"solved": true, "attempt": attemptA}, http.StatusOK, &res)
	if !res.Counted || res.Before.Rating != accounts.NewRating || res.Rating.Rating <= res.Before.Rating || res.Rating.Deviation >= res.Before.Deviation {
		t.Errorf("an unrated player's solve: %+v", res)
	}
	if res.PuzzleBefore.Rating != float64(p.Rating) || res.PuzzleBefore.Deviation != puzzleDeviation || res.PuzzleBefore.Attempts != 0 {
		t.Errorf("the puzzle's first result starts at %+v, want its shipped rating %d ± %d", res.PuzzleBefore, p.Rating, puzzleDeviation)
	}
	if res.PuzzleRating.Rating >= res.PuzzleBefore.Rating || res.PuzzleRating.Attempts != 1 || res.PuzzleRating.Solved != 1 {
		t.Errorf("a solve did not lower the puzzle's rating: %+v -> %+v", res.PuzzleBefore, res.PuzzleRating)
	}
	afterSolve := res.PuzzleRating
	player := res.Rating

	// The same browser again: nothing counts.
	e.call("POST", base+"/result", "", map[string]any{"solved": false, "attempt": attemptA, "rating": player}, http.StatusOK, &res)
	if res.Counted || res.Rating != player || res.PuzzleRating != afterSolve || res.PuzzleBefore != afterSolve {
		t.Errorf("a repeated attempt changed the ratings: %+v", res)
	}

	// Another browser fails it: its player goes down, the puzzle up from
	// where the solve left it.
	e.call("POST", base+"/result", "", map[string]any{"solved": false, "attempt": attemptB, "rating": player}, http.StatusOK, &res)
	if !res.Counted || res.Before != player || res.Rating.Rating >= player.Rating {
		t.Errorf("a failure did not lower the player's rating: %+v", res)
	}
	if res.PuzzleBefore != afterSolve || res.PuzzleRating.Rating <= afterSolve.Rating || res.PuzzleRating.Attempts != 2 || res.PuzzleRating.Solved != 1 {
		t.Errorf("a failure did not raise the puzzle's rating from %+v: %+v", afterSolve, res)
	}
	live := res.PuzzleRating

	var list struct {
		Puzzles []puzzleInfo `json:"puzzles"`
	}
	e.call("GET", "/api/puzzles/nsolo", "", nil, http.StatusOK, &list)
	found := false
	for _, q := range list.Puzzles {
		if q.ID == p.ID {
			found = true
			if q.Rating != round(live.Rating) || q.RD != round(live.Deviation) || q.Attempts != 2 || q.Solved != 1 {
				t.Errorf("the list shows %+v, want the live rating %+v", q, live)
			}
		}
	}
	if !found {
		t.Errorf("%s is not listed", p.ID)
	}
	var pv puzzleView
	e.call("GET", base, "", nil, http.StatusOK, &pv)
	if pv.Rating != round(live.Rating) || pv.Attempts != 2 {
		t.Errorf("the puzzle shows rating %d after %d results, want %d after 2", pv.Rating, pv.Attempts, round(live.Rating))
	}
}

func round(x float64) int { return int(x + 0.5) }
