package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"matombo/internal/app"
	"matombo/internal/store/storeutil"
)

var _ app.ClockStore = (*Store)(nil)

// DueGames implements app.ClockStore: two index scans (games_due,
// games_idle), the longest due first.
func (s *Store) DueGames(ctx context.Context, now, idle time.Time, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM (
		SELECT id, deadline AS due FROM games WHERE result = '*' AND deadline IS NOT NULL AND deadline <= ?
		UNION ALL
		SELECT id, updated AS due FROM games WHERE result = '*' AND time_control = '' AND mode <> 'imported' AND updated <= ?
	) ORDER BY due LIMIT ?`, micros(now), micros(idle), max(limit, 1))
	if err != nil {
		return nil, fmt.Errorf("sqlite: games due to end: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// SetOffer implements app.ClockStore.
func (s *Store) SetOffer(ctx context.Context, id string, plies int, offer string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		st, err := s.gameState(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := storeutil.CheckInPlay(id, st.plies, st.result, plies); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET offer = ? WHERE id = ?`, offer, id)
		return err
	})
}

// TakeBack implements app.ClockStore.
func (s *Store) TakeBack(ctx context.Context, id string, plies, to, turns int, from, deadline time.Time) error {
	if to < 0 || to > plies {
		return app.Errorf(app.EInvalid, "take back to ply %d of %d", to, plies)
	}
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		st, err := s.gameState(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := storeutil.CheckInPlay(id, st.plies, st.result, plies); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM actions WHERE game_id = ? AND ply >= ?`, id, to); err != nil {
			return fmt.Errorf("sqlite: take back game %s: %w", id, err)
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET plies = ?, turns = ?, clock_from = ?, deadline = ?, offer = '', updated = ?, takebacks = takebacks + 1 WHERE id = ?`,
			to, turns, micros(from), optMicros(deadline), micros(from), id)
		return err
	})
}
