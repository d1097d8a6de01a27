package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"matombo/internal/app"
	"matombo/internal/store/storeutil"
)

var _ app.ClockStore = (*Store)(nil)

// optTime is t, NULL for the zero time.
func optTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// clockMillis is m's clock in milliseconds, NULL without a clock.
func clockMillis(m app.Move) any {
	if !m.Clocked {
		return nil
	}
	return m.Clock.Milliseconds()
}

// DueGames implements app.ClockStore: two index scans (games_due,
// games_idle), the longest due first.
func (s *Store) DueGames(ctx context.Context, now, idle time.Time, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM (
		SELECT id, deadline AS due FROM games WHERE result = '*' AND deadline IS NOT NULL AND deadline <= $1
		UNION ALL
		SELECT id, updated AS due FROM games WHERE result = '*' AND time_control = '' AND mode <> 'imported' AND updated <= $2
	) AS due ORDER BY due LIMIT $3`, now, idle, max(limit, 1))
	if err != nil {
		return nil, fmt.Errorf("postgres: games due to end: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: games due to end: %w", err)
	}
	return ids, nil
}

// SetOffer implements app.ClockStore.
func (s *Store) SetOffer(ctx context.Context, id string, plies int, offer string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		st, err := lockGame(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := storeutil.CheckInPlay(id, st.plies, st.result, plies); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE games SET offer = $1 WHERE id = $2`, offer, id)
		return err
	})
}

// TakeBack implements app.ClockStore.
func (s *Store) TakeBack(ctx context.Context, id string, plies, to, turns int, from, deadline time.Time) error {
	if to < 0 || to > plies {
		return app.Errorf(app.EInvalid, "take back to ply %d of %d", to, plies)
	}
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		st, err := lockGame(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := storeutil.CheckInPlay(id, st.plies, st.result, plies); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM actions WHERE game_id = $1 AND ply >= $2`, id, to); err != nil {
			return fmt.Errorf("postgres: take back game %s: %w", id, err)
		}
		_, err = tx.Exec(ctx, `UPDATE games SET plies = $1, turns = $2, clock_from = $3, deadline = $4, offer = '', updated = $3, takebacks = takebacks + 1 WHERE id = $5`,
			to, turns, from, optTime(deadline), id)
		return err
	})
}
