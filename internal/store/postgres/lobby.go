package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"matombo/internal/app"
	"matombo/internal/lobby"
)

// The store of the lobby's challenges (package lobby).

var _ lobby.Store = (*Store)(nil)

const challengeColumns = `id, key_hash, account_id, name, ruleset, time_control, rated, side, kind, to_account, to_name, status, game_id, created, seen, updated`

func scanChallenge(row pgx.Row) (*lobby.Challenge, error) {
	var c lobby.Challenge
	if err := row.Scan(&c.ID, &c.KeyHash, &c.Account, &c.Name, &c.Ruleset, &c.TimeControl, &c.Rated, &c.Side, &c.Kind,
		&c.To, &c.ToName, &c.Status, &c.Game, &c.Created, &c.Seen, &c.Updated); err != nil {
		return nil, err
	}
	c.Created, c.Seen, c.Updated = c.Created.UTC(), c.Seen.UTC(), c.Updated.UTC()
	return &c, nil
}

func noChallenge(id string) error { return app.Errorf(app.ENotFound, "no challenge %q", id) }

// CreateChallenge implements lobby.Store.
func (s *Store) CreateChallenge(ctx context.Context, c *lobby.Challenge) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO challenges (`+challengeColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
			c.ID, c.KeyHash, c.Account, c.Name, c.Ruleset, c.TimeControl, c.Rated, c.Side, c.Kind, c.To, c.ToName, c.Status, c.Game,
			c.Created, c.Seen, c.Updated)
		if isUniqueViolation(err) {
			return app.Errorf(app.EConflict, "challenge %s exists already", c.ID)
		}
		if err != nil {
			return fmt.Errorf("postgres: create challenge: %w", err)
		}
		return nil
	})
}

func (s *Store) challengeWhere(ctx context.Context, where string, arg any, what string) (*lobby.Challenge, error) {
	c, err := scanChallenge(s.pool.QueryRow(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE `+where+` = $1`, arg))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, noChallenge(what)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: challenge: %w", err)
	}
	return c, nil
}

// Challenge implements lobby.Store.
func (s *Store) Challenge(ctx context.Context, id string) (*lobby.Challenge, error) {
	return s.challengeWhere(ctx, "id", id, strconv.Quote(id))
}

// ChallengeByKey implements lobby.Store.
func (s *Store) ChallengeByKey(ctx context.Context, hash []byte) (*lobby.Challenge, error) {
	return s.challengeWhere(ctx, "key_hash", hash, "of that key")
}

// OpenChallenges implements lobby.Store.
func (s *Store) OpenChallenges(ctx context.Context, limit int) ([]*lobby.Challenge, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE status = 'open' ORDER BY created, id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: open challenges: %w", err)
	}
	defer rows.Close()
	var out []*lobby.Challenge
	for rows.Next() {
		c, err := scanChallenge(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: open challenges: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: open challenges: %w", err)
	}
	return out, nil
}

// SetChallengeStatus implements lobby.Store: one conditional UPDATE, so
// that of two instances accepting one challenge at once only one does.
func (s *Store) SetChallengeStatus(ctx context.Context, id, from, to, game string, at time.Time) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE challenges SET status = $1, game_id = CASE WHEN $2 = '' THEN game_id ELSE $2 END, updated = $3 WHERE id = $4 AND status = $5`,
			to, game, at, id, from)
		if err != nil {
			return fmt.Errorf("postgres: challenge status: %w", err)
		}
		if tag.RowsAffected() == 1 {
			return nil
		}
		var status string
		err = tx.QueryRow(ctx, `SELECT status FROM challenges WHERE id = $1`, id).Scan(&status)
		if errors.Is(err, pgx.ErrNoRows) {
			return noChallenge(id)
		}
		if err != nil {
			return fmt.Errorf("postgres: challenge status: %w", err)
		}
		return app.Errorf(app.EConflict, "challenge %s is %s, not %s", id, status, from)
	})
}

// TouchChallenges implements lobby.Store.
func (s *Store) TouchChallenges(ctx context.Context, ids []string, at time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE challenges SET seen = $1 WHERE status = 'open' AND id = ANY($2)`, at, ids); err != nil {
			return fmt.Errorf("postgres: touch challenges: %w", err)
		}
		return nil
	})
}

// ExpireChallenges implements lobby.Store.
func (s *Store) ExpireChallenges(ctx context.Context, before, at time.Time) ([]string, error) {
	var ids []string
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		ids = nil
		rows, err := tx.Query(ctx, `UPDATE challenges SET status = 'expired', updated = $1 WHERE status = 'open' AND seen < $2 RETURNING id`, at, before)
		if err != nil {
			return fmt.Errorf("postgres: expire challenges: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("postgres: expire challenges: %w", err)
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	return ids, err
}

// DeleteChallenges implements lobby.Store.
func (s *Store) DeleteChallenges(ctx context.Context, before time.Time) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM challenges WHERE status <> 'open' AND updated < $1`, before); err != nil {
			return fmt.Errorf("postgres: delete challenges: %w", err)
		}
		return nil
	})
}
