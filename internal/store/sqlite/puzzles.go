package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"matombo/internal/accounts"
)

var _ accounts.PuzzleStore = (*Store)(nil)

// PuzzleRatings implements accounts.PuzzleStore.
func (s *Store) PuzzleRatings(ctx context.Context, preset string) (map[string]accounts.PuzzleRating, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT puzzle_id, rating, rd, volatility, attempts, solved FROM puzzle_ratings WHERE preset = ?`, preset)
	if err != nil {
		return nil, fmt.Errorf("sqlite: ratings of the %s puzzles: %w", preset, err)
	}
	defer rows.Close()
	out := map[string]accounts.PuzzleRating{}
	for rows.Next() {
		var id string
		var r accounts.PuzzleRating
		if err := rows.Scan(&id, &r.Rating, &r.Deviation, &r.Volatility, &r.Attempts, &r.Solved); err != nil {
			return nil, fmt.Errorf("sqlite: ratings of the %s puzzles: %w", preset, err)
		}
		out[id] = r
	}
	return out, rows.Err()
}

// RatePuzzle implements accounts.PuzzleStore.
func (s *Store) RatePuzzle(ctx context.Context, a accounts.PuzzleAttempt, rate accounts.PuzzleRateFunc) (before, after accounts.PuzzleRating, counted bool, err error) {
	err = s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		counted = false
		before = accounts.PuzzleRating{Glicko: a.Seed}
		err := tx.QueryRowContext(ctx, `SELECT rating, rd, volatility, attempts, solved FROM puzzle_ratings WHERE preset = ? AND puzzle_id = ?`, a.Preset, a.Puzzle).
			Scan(&before.Rating, &before.Deviation, &before.Volatility, &before.Attempts, &before.Solved)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: rating of puzzle %s: %w", a.Puzzle, err)
		}
		after = before
		res, err := tx.ExecContext(ctx, `INSERT INTO puzzle_attempts (preset, puzzle_id, attempt, solved, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			a.Preset, a.Puzzle, a.Attempt, a.Solved, micros(a.At))
		if err != nil {
			return fmt.Errorf("sqlite: attempt at puzzle %s: %w", a.Puzzle, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // counted already
		}
		after.Glicko = rate(before.Glicko)
		after.Attempts++
		if a.Solved {
			after.Solved++
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_ratings (preset, puzzle_id, rating, rd, volatility, attempts, solved, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (preset, puzzle_id) DO UPDATE SET
			rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, attempts = excluded.attempts, solved = excluded.solved, updated = excluded.updated`,
			a.Preset, a.Puzzle, after.Rating, after.Deviation, after.Volatility, after.Attempts, after.Solved, micros(a.At)); err != nil {
			return fmt.Errorf("sqlite: store rating of puzzle %s: %w", a.Puzzle, err)
		}
		counted = true
		return nil
	})
	return before, after, counted && err == nil, err
}
