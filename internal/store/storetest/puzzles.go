package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"matombo/internal/accounts"
	"matombo/internal/app"
)

// PuzzleStore is a game store that keeps the puzzles' ratings too.
type PuzzleStore interface {
	app.Store
	accounts.PuzzleStore
}

// RunPuzzles runs the suite of accounts.PuzzleStore; newStore returns an
// empty store, closed by the suite.
func RunPuzzles(t *testing.T, newStore func(t *testing.T) PuzzleStore) {
	tests := []struct {
		name string
		f    func(*testing.T, PuzzleStore)
	}{
		{"PuzzleRatings", testPuzzleRatings},
		{"ConcurrentPuzzleResults", testConcurrentPuzzleResults},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			defer s.Close()
			tc.f(t, s)
		})
	}
}

var puzzleSeed = accounts.Glicko{Rating: 1234, Deviation: 80, Volatility: 0.06}

func attempt(preset, puzzle, id string, solved bool) accounts.PuzzleAttempt {
	return accounts.PuzzleAttempt{Preset: preset, Puzzle: puzzle, Attempt: app.HashToken(id), Seed: puzzleSeed, Solved: solved, At: base}
}

// plus is a rate function that adds d to the rating and takes 1 off the
// deviation, and records the rating it was given.
func plus(d float64, got *accounts.Glicko) accounts.PuzzleRateFunc {
	return func(b accounts.Glicko) accounts.Glicko {
		*got = b
		return accounts.Glicko{Rating: b.Rating + d, Deviation: b.Deviation - 1, Volatility: b.Volatility}
	}
}

// testPuzzleRatings: the first result starts from the seed, later ones
// from the stored rating; an attempt counts once; presets and puzzles are
// kept apart.
func testPuzzleRatings(t *testing.T, s PuzzleStore) {
	ctx := context.Background()
	if got, err := s.PuzzleRatings(ctx, "tsoro"); err != nil || len(got) != 0 {
		t.Fatalf("ratings of an empty store: %v, %v", got, err)
	}
	var given accounts.Glicko
	before, after, counted, err := s.RatePuzzle(ctx, attempt("tsoro", "tsoro-0001", "browser-a", true), plus(-10, &given))
	if err != nil || !counted {
		t.Fatalf("first result: counted %v, %v", counted, err)
	}
	if given != puzzleSeed || before.Glicko != puzzleSeed || before.Attempts != 0 {
		t.Fatalf("first result rated from %+v (before %+v), want the seed %+v", given, before, puzzleSeed)
	}
	want := accounts.PuzzleRating{Glicko: accounts.Glicko{Rating: 1224, Deviation: 79, Volatility: 0.06}, Attempts: 1, Solved: 1}
	if after != want {
		t.Fatalf("after the first result %+v, want %+v", after, want)
	}
	// The same attempt again changes nothing, whatever its result.
	given = accounts.Glicko{}
	before, after, counted, err = s.RatePuzzle(ctx, attempt("tsoro", "tsoro-0001", "browser-a", false), plus(+10, &given))
	if err != nil || counted || given != (accounts.Glicko{}) || before != want || after != want {
		t.Fatalf("a repeated attempt: counted %v, rated from %+v, before %+v after %+v, %v; want uncounted at %+v", counted, given, before, after, err, want)
	}
	// Another attempt starts from the stored rating.
	_, after, counted, err = s.RatePuzzle(ctx, attempt("tsoro", "tsoro-0001", "browser-b", false), plus(+30, &given))
	if err != nil || !counted || given != want.Glicko {
		t.Fatalf("second attempt: counted %v, rated from %+v, %v; want from %+v", counted, given, err, want.Glicko)
	}
	want2 := accounts.PuzzleRating{Glicko: accounts.Glicko{Rating: 1254, Deviation: 78, Volatility: 0.06}, Attempts: 2, Solved: 1}
	if after != want2 {
		t.Fatalf("after the second result %+v, want %+v", after, want2)
	}
	// The same attempt id at another puzzle, or the same puzzle id in
	// another preset, is another attempt.
	if _, _, counted, err := s.RatePuzzle(ctx, attempt("tsoro", "tsoro-0002", "browser-a", true), plus(1, &given)); err != nil || !counted || given != puzzleSeed {
		t.Fatalf("another puzzle: counted %v, rated from %+v, %v", counted, given, err)
	}
	if _, _, counted, err := s.RatePuzzle(ctx, attempt("nsolo", "tsoro-0001", "browser-a", true), plus(2, &given)); err != nil || !counted || given != puzzleSeed {
		t.Fatalf("another preset: counted %v, rated from %+v, %v", counted, given, err)
	}
	got, err := s.PuzzleRatings(ctx, "tsoro")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["tsoro-0001"] != want2 || got["tsoro-0002"].Rating != puzzleSeed.Rating+1 || got["tsoro-0002"].Attempts != 1 {
		t.Fatalf("tsoro ratings %+v", got)
	}
	if got, err := s.PuzzleRatings(ctx, "nsolo"); err != nil || len(got) != 1 || got["tsoro-0001"].Rating != puzzleSeed.Rating+2 {
		t.Fatalf("nsolo ratings %+v, %v", got, err)
	}
}

// testConcurrentPuzzleResults: of results sent at once, each attempt
// counts once and none is lost.
func testConcurrentPuzzleResults(t *testing.T, s PuzzleStore) {
	const n = 8
	var wg sync.WaitGroup
	counted := make([]bool, 2*n)
	errs := make([]error, 2*n)
	for i := range 2 * n {
		wg.Go(func() {
			var given accounts.Glicko
			id := fmt.Sprintf("browser-%d", i%n) // each attempt sent twice
			_, _, counted[i], errs[i] = s.RatePuzzle(context.Background(), attempt("choro", "choro-0007", id, i%2 == 0), plus(1, &given))
		})
	}
	wg.Wait()
	ok := 0
	for i, err := range errs {
		if err != nil {
			t.Fatalf("result %d: %v", i, err)
		}
		if counted[i] {
			ok++
		}
	}
	if ok != n {
		t.Fatalf("%d of %d results counted, want %d (one per attempt)", ok, 2*n, n)
	}
	got, err := s.PuzzleRatings(context.Background(), "choro")
	if err != nil {
		t.Fatal(err)
	}
	if r := got["choro-0007"]; r.Attempts != n || r.Rating != puzzleSeed.Rating+n {
		t.Fatalf("after %d attempts: %+v, want %d attempts and rating %v", n, r, n, puzzleSeed.Rating+n)
	}
}
