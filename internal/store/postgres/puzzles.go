package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"matombo/internal/accounts"
)

var _ accounts.PuzzleStore = (*Store)(nil)

// PuzzleRatings implements accounts.PuzzleStore.
func (s *Store) PuzzleRatings(ctx context.Context, preset string) (map[string]accounts.PuzzleRating, error) {
	rows, err := s.pool.Query(ctx, `SELECT puzzle_id, rating, rd, volatility, attempts, solved FROM puzzle_ratings WHERE preset = $1`, preset)
	if err != nil {
		return nil, fmt.Errorf("postgres: ratings of the %s puzzles: %w", preset, err)
	}
	defer rows.Close()
	out := map[string]accounts.PuzzleRating{}
	for rows.Next() {
		var id string
		var r accounts.PuzzleRating
		if err := rows.Scan(&id, &r.Rating, &r.Deviation, &r.Volatility, &r.Attempts, &r.Solved); err != nil {
			return nil, fmt.Errorf("postgres: ratings of the %s puzzles: %w", preset, err)
		}
		out[id] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: ratings of the %s puzzles: %w", preset, err)
	}
	return out, nil
}

// RatePuzzle implements accounts.PuzzleStore: the attempt's insert makes
// concurrent results of one attempt count once, and the puzzle's row,
// seeded if absent, is locked while it is rated.
func (s *Store) RatePuzzle(ctx context.Context, a accounts.PuzzleAttempt, rate accounts.PuzzleRateFunc) (before, after accounts.PuzzleRating, counted bool, err error) {
	err = s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		counted = false
		tag, err := tx.Exec(ctx, `INSERT INTO puzzle_attempts (preset, puzzle_id, attempt, solved, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
			a.Preset, a.Puzzle, a.Attempt, a.Solved, a.At)
		if err != nil {
			return fmt.Errorf("postgres: attempt at puzzle %s: %w", a.Puzzle, err)
		}
		if tag.RowsAffected() == 0 { // counted already: the rating as it stands
			before = accounts.PuzzleRating{Glicko: a.Seed}
			err := tx.QueryRow(ctx, `SELECT rating, rd, volatility, attempts, solved FROM puzzle_ratings WHERE preset = $1 AND puzzle_id = $2`, a.Preset, a.Puzzle).
				Scan(&before.Rating, &before.Deviation, &before.Volatility, &before.Attempts, &before.Solved)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("postgres: rating of puzzle %s: %w", a.Puzzle, err)
			}
			after = before
			return nil
		}
		if _, err := tx.Exec(ctx, `INSERT INTO puzzle_ratings (preset, puzzle_id, rating, rd, volatility, attempts, solved, updated)
			VALUES ($1, $2, $3, $4, $5, 0, 0, $6) ON CONFLICT DO NOTHING`, a.Preset, a.Puzzle, a.Seed.Rating, a.Seed.Deviation, a.Seed.Volatility, a.At); err != nil {
			return fmt.Errorf("postgres: seed rating of puzzle %s: %w", a.Puzzle, err)
		}
		before = accounts.PuzzleRating{}
		if err := tx.QueryRow(ctx, `SELECT rating, rd, volatility, attempts, solved FROM puzzle_ratings WHERE preset = $1 AND puzzle_id = $2 FOR UPDATE`, a.Preset, a.Puzzle).
			Scan(&before.Rating, &before.Deviation, &before.Volatility, &before.Attempts, &before.Solved); err != nil {
			return fmt.Errorf("postgres: rating of puzzle %s: %w", a.Puzzle, err)
		}
		after = before
		after.Glicko = rate(before.Glicko)
		after.Attempts++
		if a.Solved {
			after.Solved++
		}
		if _, err := tx.Exec(ctx, `UPDATE puzzle_ratings SET rating = $3, rd = $4, volatility = $5, attempts = $6, solved = $7, updated = $8 WHERE preset = $1 AND puzzle_id = $2`,
			a.Preset, a.Puzzle, after.Rating, after.Deviation, after.Volatility, after.Attempts, after.Solved, a.At); err != nil {
			return fmt.Errorf("postgres: store rating of puzzle %s: %w", a.Puzzle, err)
		}
		counted = true
		return nil
	})
	return before, after, counted && err == nil, err
}
