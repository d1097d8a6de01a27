package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"matombo/internal/app"
)

// The store of finished game reviews (app.ReviewStore).

var _ app.ReviewStore = (*Store)(nil)

// StoredReview implements app.ReviewStore.
func (s *Store) StoredReview(ctx context.Context, game, limits string) ([]byte, error) {
	var body []byte
	err := s.db.QueryRowContext(ctx, `SELECT body FROM reviews WHERE game_id = ? AND limits = ?`, game, limits).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: review: %w", err)
	}
	return body, nil
}

// PutReview implements app.ReviewStore.
func (s *Store) PutReview(ctx context.Context, game, limits string, body []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO reviews (game_id, limits, body, created) VALUES (?, ?, ?, ?)
			ON CONFLICT (game_id, limits) DO UPDATE SET body = excluded.body, created = excluded.created`,
			game, limits, body, micros(time.Now()))
		if err != nil {
			return fmt.Errorf("sqlite: store review: %w", err)
		}
		return nil
	})
}
