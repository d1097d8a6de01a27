package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"matombo/internal/app"
)

// The store of finished game reviews (app.ReviewStore).

var _ app.ReviewStore = (*Store)(nil)

// StoredReview implements app.ReviewStore.
func (s *Store) StoredReview(ctx context.Context, game, limits string) ([]byte, error) {
	var body []byte
	err := s.pool.QueryRow(ctx, `SELECT body FROM reviews WHERE game_id = $1 AND limits = $2`, game, limits).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: review: %w", err)
	}
	return body, nil
}

// PutReview implements app.ReviewStore.
func (s *Store) PutReview(ctx context.Context, game, limits string, body []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO reviews (game_id, limits, body, created) VALUES ($1, $2, $3, $4)
			ON CONFLICT (game_id, limits) DO UPDATE SET body = excluded.body, created = excluded.created`,
			game, limits, body, time.Now().UTC())
		if err != nil {
			return fmt.Errorf("postgres: store review: %w", err)
		}
		return nil
	})
}
