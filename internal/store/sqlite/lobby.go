package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"matombo/internal/app"
	"matombo/internal/lobby"
)

// The store of the lobby's challenges (package lobby).

var _ lobby.Store = (*Store)(nil)

const challengeColumns = `id, key_hash, account_id, name, ruleset, time_control, rated, side, kind, to_account, to_name, status, game_id, created, seen, updated`

func scanChallenge(row scanner) (*lobby.Challenge, error) {
	var c lobby.Challenge
	var rated int
	var created, seen, updated int64
	if err := row.Scan(&c.ID, &c.KeyHash, &c.Account, &c.Name, &c.Ruleset, &c.TimeControl, &rated, &c.Side, &c.Kind,
		&c.To, &c.ToName, &c.Status, &c.Game, &created, &seen, &updated); err != nil {
		return nil, err
	}
	c.Rated = rated != 0
	c.Created, c.Seen, c.Updated = fromMicros(created), fromMicros(seen), fromMicros(updated)
	return &c, nil
}

func noChallenge(id string) error { return app.Errorf(app.ENotFound, "no challenge %q", id) }

// CreateChallenge implements lobby.Store.
func (s *Store) CreateChallenge(ctx context.Context, c *lobby.Challenge) error {
	rated := 0
	if c.Rated {
		rated = 1
	}
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO challenges (`+challengeColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, c.KeyHash, c.Account, c.Name, c.Ruleset, c.TimeControl, rated, c.Side, c.Kind, c.To, c.ToName, c.Status, c.Game,
			micros(c.Created), micros(c.Seen), micros(c.Updated))
		if isUnique(err) {
			return app.Errorf(app.EConflict, "challenge %s exists already", c.ID)
		}
		if err != nil {
			return fmt.Errorf("sqlite: create challenge: %w", err)
		}
		return nil
	})
}

func (s *Store) challengeWhere(ctx context.Context, where string, arg any, what string) (*lobby.Challenge, error) {
	c, err := scanChallenge(s.db.QueryRowContext(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE `+where+` = ?`, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, noChallenge(what)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: challenge: %w", err)
	}
	return c, nil
}

// Challenge implements lobby.Store.
func (s *Store) Challenge(ctx context.Context, id string) (*lobby.Challenge, error) {
	return s.challengeWhere(ctx, "id", id, id)
}

// ChallengeByKey implements lobby.Store.
func (s *Store) ChallengeByKey(ctx context.Context, hash []byte) (*lobby.Challenge, error) {
	return s.challengeWhere(ctx, "key_hash", hash, "of that key")
}

// OpenChallenges implements lobby.Store.
func (s *Store) OpenChallenges(ctx context.Context, limit int) ([]*lobby.Challenge, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE status = 'open' ORDER BY created, id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open challenges: %w", err)
	}
	defer rows.Close()
	var out []*lobby.Challenge
	for rows.Next() {
		c, err := scanChallenge(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: open challenges: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: open challenges: %w", err)
	}
	return out, nil
}

// SetChallengeStatus implements lobby.Store.
func (s *Store) SetChallengeStatus(ctx context.Context, id, from, to, game string, at time.Time) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var status string
		err := tx.QueryRowContext(ctx, `SELECT status FROM challenges WHERE id = ?`, id).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return noChallenge(id)
		}
		if err != nil {
			return fmt.Errorf("sqlite: challenge status: %w", err)
		}
		if status != from {
			return app.Errorf(app.EConflict, "challenge %s is %s, not %s", id, status, from)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE challenges SET status = ?, game_id = CASE WHEN ? = '' THEN game_id ELSE ? END, updated = ? WHERE id = ?`,
			to, game, game, micros(at), id); err != nil {
			return fmt.Errorf("sqlite: challenge status: %w", err)
		}
		return nil
	})
}

// TouchChallenges implements lobby.Store.
func (s *Store) TouchChallenges(ctx context.Context, ids []string, at time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	args := []any{micros(at)}
	for _, id := range ids {
		args = append(args, id)
	}
	q := `UPDATE challenges SET seen = ? WHERE status = 'open' AND id IN (?` + strings.Repeat(", ?", len(ids)-1) + `)`
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("sqlite: touch challenges: %w", err)
		}
		return nil
	})
}

// ExpireChallenges implements lobby.Store.
func (s *Store) ExpireChallenges(ctx context.Context, before, at time.Time) ([]string, error) {
	var ids []string
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		ids = nil
		rows, err := tx.QueryContext(ctx, `UPDATE challenges SET status = 'expired', updated = ? WHERE status = 'open' AND seen < ? RETURNING id`, micros(at), micros(before))
		if err != nil {
			return fmt.Errorf("sqlite: expire challenges: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("sqlite: expire challenges: %w", err)
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	return ids, err
}

// DeleteChallenges implements lobby.Store.
func (s *Store) DeleteChallenges(ctx context.Context, before time.Time) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM challenges WHERE status <> 'open' AND updated < ?`, micros(before)); err != nil {
			return fmt.Errorf("sqlite: delete challenges: %w", err)
		}
		return nil
	})
}
