package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/internal/store/storeutil"
)

// The store of accounts (package accounts) in the games' database.

var _ accounts.Store = (*Store)(nil)

// isUnique reports whether err is a UNIQUE or PRIMARY KEY violation.
func isUnique(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

const accountColumns = `id, name, name_key, hash, seat_key, created`

func scanAccount(row scanner) (*accounts.Account, error) {
	var a accounts.Account
	var created int64
	if err := row.Scan(&a.ID, &a.Name, &a.Key, &a.Hash, &a.SeatKey, &created); err != nil {
		return nil, err
	}
	a.Created = fromMicros(created)
	return &a, nil
}

func noAccount(what string) error { return app.Errorf(app.ENotFound, "no account %s", what) }

// CreateAccount implements accounts.Store.
func (s *Store) CreateAccount(ctx context.Context, a *accounts.Account) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO accounts (`+accountColumns+`) VALUES (?, ?, ?, ?, ?, ?)`,
			a.ID, a.Name, a.Key, a.Hash, a.SeatKey, micros(a.Created))
		if isUnique(err) {
			return app.Errorf(app.EConflict, "the user name %q is taken", a.Name)
		}
		if err != nil {
			return fmt.Errorf("sqlite: create account: %w", err)
		}
		return nil
	})
}

func (s *Store) accountWhere(ctx context.Context, where, arg string) (*accounts.Account, error) {
	a, err := scanAccount(s.db.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+where+` = ?`, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, noAccount(fmt.Sprintf("%q", arg))
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: account: %w", err)
	}
	return a, nil
}

// AccountByName implements accounts.Store.
func (s *Store) AccountByName(ctx context.Context, key string) (*accounts.Account, error) {
	return s.accountWhere(ctx, "name_key", key)
}

// AccountByID implements accounts.Store.
func (s *Store) AccountByID(ctx context.Context, id string) (*accounts.Account, error) {
	return s.accountWhere(ctx, "id", id)
}

// SetPassword implements accounts.Store.
func (s *Store) SetPassword(ctx context.Context, id, hash string, keep []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET hash = ? WHERE id = ?`, hash, id)
		if err != nil {
			return fmt.Errorf("sqlite: set password: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return noAccount(id)
		}
		if keep == nil {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = ? AND hash <> ?`, id, keep); err != nil {
			return fmt.Errorf("sqlite: revoke sessions: %w", err)
		}
		return nil
	})
}

// maxSessions bounds the sessions an account keeps: the oldest go first.
const maxSessions = 50

// CreateSession implements accounts.Store.
func (s *Store) CreateSession(ctx context.Context, se accounts.Session) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (hash, account_id, created, expires) VALUES (?, ?, ?, ?)`,
			se.Hash, se.Account, micros(se.Created), micros(se.Expires)); err != nil {
			return fmt.Errorf("sqlite: create session: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = ? AND (expires <= ? OR hash NOT IN
			(SELECT hash FROM sessions WHERE account_id = ? ORDER BY created DESC LIMIT ?))`,
			se.Account, micros(se.Created), se.Account, maxSessions); err != nil {
			return fmt.Errorf("sqlite: expire sessions: %w", err)
		}
		return nil
	})
}

// SessionAccount implements accounts.Store.
func (s *Store) SessionAccount(ctx context.Context, hash []byte, now time.Time) (*accounts.Session, *accounts.Account, error) {
	var se accounts.Session
	var created, expires int64
	row := s.db.QueryRowContext(ctx, `SELECT s.account_id, s.created, s.expires, a.id, a.name, a.name_key, a.hash, a.seat_key, a.created
		FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.hash = ? AND s.expires > ?`, hash, micros(now))
	var a accounts.Account
	var acreated int64
	err := row.Scan(&se.Account, &created, &expires, &a.ID, &a.Name, &a.Key, &a.Hash, &a.SeatKey, &acreated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, app.Errorf(app.ENotFound, "no session")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("sqlite: session: %w", err)
	}
	se.Hash, se.Created, se.Expires, a.Created = hash, fromMicros(created), fromMicros(expires), fromMicros(acreated)
	return &se, &a, nil
}

// DeleteSession implements accounts.Store.
func (s *Store) DeleteSession(ctx context.Context, hash []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE hash = ?`, hash); err != nil {
			return fmt.Errorf("sqlite: delete session: %w", err)
		}
		return nil
	})
}

// LinkSeat implements accounts.Store.
func (s *Store) LinkSeat(ctx context.Context, l accounts.SeatLink, at time.Time) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO account_seats (account_id, game_id, side, linked) VALUES (?, ?, ?, ?)
			ON CONFLICT (account_id, game_id, side) DO NOTHING`, l.Account, l.Game, l.Side.String(), micros(at))
		if err != nil && strings.Contains(err.Error(), "FOREIGN KEY") {
			return app.Errorf(app.ENotFound, "no game %q or account %q", l.Game, l.Account)
		}
		if err != nil {
			return fmt.Errorf("sqlite: link seat: %w", err)
		}
		return nil
	})
}

// GameLinks implements accounts.Store.
func (s *Store) GameLinks(ctx context.Context, id string) ([]accounts.SeatLink, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT account_id, side FROM account_seats WHERE game_id = ? ORDER BY linked, rowid`, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seat links: %w", err)
	}
	defer rows.Close()
	var out []accounts.SeatLink
	for rows.Next() {
		l := accounts.SeatLink{Game: id}
		var side string
		if err := rows.Scan(&l.Account, &side); err != nil {
			return nil, err
		}
		l.Side = storeutil.ParseSide(side)
		out = append(out, l)
	}
	return out, rows.Err()
}

// extraScan scans a row of summaryColumns followed by extra columns.
type extraScan struct {
	row   scanner
	extra []any
}

func (e extraScan) Scan(dest ...any) error { return e.row.Scan(append(dest, e.extra...)...) }

// resultCondition is the SQL condition of an account games' result filter.
var resultCondition = map[string]string{
	"won":     ` AND games.result = account_seats.side`,
	"lost":    ` AND games.result IN ('S', 'N') AND games.result <> account_seats.side`,
	"drawn":   ` AND games.result = 'draw'`,
	"playing": ` AND games.result = '*'`,
}

// AccountGames implements accounts.Store.
func (s *Store) AccountGames(ctx context.Context, id string, f accounts.GameFilter) ([]accounts.AccountGame, error) {
	query := `SELECT ` + summaryColumns + `, account_seats.side FROM account_seats JOIN games ON games.id = account_seats.game_id
		WHERE account_seats.account_id = ?`
	args := []any{id}
	if f.Ruleset != "" {
		query += ` AND games.ruleset = ?`
		args = append(args, f.Ruleset)
	}
	query += resultCondition[f.Result]
	switch {
	case !f.Before.IsZero() && f.BeforeID != "":
		query += ` AND (games.updated < ? OR (games.updated = ? AND games.id < ?))`
		args = append(args, micros(f.Before), micros(f.Before), f.BeforeID)
	case !f.Before.IsZero():
		query += ` AND games.updated < ?`
		args = append(args, micros(f.Before))
	}
	query += ` ORDER BY games.updated DESC, games.id DESC, account_seats.side LIMIT ?`
	args = append(args, max(f.Limit, 1))
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: account games: %w", err)
	}
	defer rows.Close()
	var out []accounts.AccountGame
	for rows.Next() {
		var side string
		g, err := scanGame(extraScan{rows, []any{&side}}, false)
		if err != nil {
			return nil, err
		}
		out = append(out, accounts.AccountGame{Game: g, Side: storeutil.ParseSide(side)})
	}
	return out, rows.Err()
}

// statsQuery counts an account's games per ruleset by result.
const statsQuery = `SELECT games.ruleset, count(*),
	coalesce(sum(CASE WHEN games.result = account_seats.side THEN 1 ELSE 0 END), 0),
	coalesce(sum(CASE WHEN games.result IN ('S', 'N') AND games.result <> account_seats.side THEN 1 ELSE 0 END), 0),
	coalesce(sum(CASE WHEN games.result = 'draw' THEN 1 ELSE 0 END), 0),
	coalesce(sum(CASE WHEN games.result = '*' THEN 1 ELSE 0 END), 0)
	FROM account_seats JOIN games ON games.id = account_seats.game_id
	WHERE account_seats.account_id = ? GROUP BY games.ruleset ORDER BY count(*) DESC, games.ruleset`

// AccountStats implements accounts.Store.
func (s *Store) AccountStats(ctx context.Context, id string) ([]accounts.RulesetStats, error) {
	rows, err := s.db.QueryContext(ctx, statsQuery, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: account results: %w", err)
	}
	defer rows.Close()
	var out []accounts.RulesetStats
	for rows.Next() {
		var r accounts.RulesetStats
		if err := rows.Scan(&r.Ruleset, &r.Games, &r.Won, &r.Lost, &r.Drawn, &r.Playing); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// MarkRated implements accounts.Store.
func (s *Store) MarkRated(ctx context.Context, id string, key accounts.RatingKey) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO rated_games (game_id, ruleset, category) VALUES (?, ?, ?) ON CONFLICT (game_id) DO NOTHING`,
			id, key.Ruleset, key.Category)
		if err != nil && strings.Contains(err.Error(), "FOREIGN KEY") {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("sqlite: mark game %s rated: %w", id, err)
		}
		return nil
	})
}

// RatedKey implements accounts.Store.
func (s *Store) RatedKey(ctx context.Context, id string) (accounts.RatingKey, bool, error) {
	var k accounts.RatingKey
	err := s.db.QueryRowContext(ctx, `SELECT ruleset, category FROM rated_games WHERE game_id = ?`, id).Scan(&k.Ruleset, &k.Category)
	if errors.Is(err, sql.ErrNoRows) {
		return k, false, nil
	}
	if err != nil {
		return k, false, fmt.Errorf("sqlite: rated game %s: %w", id, err)
	}
	return k, true, nil
}

// ApplyRating implements accounts.Store.
func (s *Store) ApplyRating(ctx context.Context, id string, players [2]string, at time.Time, rate accounts.RateFunc) (bool, error) {
	done := false
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var k accounts.RatingKey
		var rated sql.NullInt64
		var unrated sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT ruleset, category, rated, unrated FROM rated_games WHERE game_id = ?`, id).Scan(&k.Ruleset, &k.Category, &rated, &unrated)
		if errors.Is(err, sql.ErrNoRows) || err == nil && (rated.Valid || unrated.Valid) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("sqlite: rated game %s: %w", id, err)
		}
		var before [2]accounts.Glicko
		for i, p := range players {
			before[i] = accounts.NewGlicko()
			err := tx.QueryRowContext(ctx, `SELECT rating, rd, volatility FROM ratings WHERE account_id = ? AND ruleset = ? AND category = ?`,
				p, k.Ruleset, k.Category).Scan(&before[i].Rating, &before[i].Deviation, &before[i].Volatility)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("sqlite: rating of %s: %w", p, err)
			}
		}
		after := rate(before)
		for i, p := range players {
			g := after[i]
			if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (account_id, ruleset, category, rating, rd, volatility, games, updated)
				VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (account_id, ruleset, category) DO UPDATE SET
				rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, games = ratings.games + 1, updated = excluded.updated`,
				p, k.Ruleset, k.Category, g.Rating, g.Deviation, g.Volatility, micros(at)); err != nil {
				return fmt.Errorf("sqlite: store rating of %s: %w", p, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO rating_history (account_id, game_id, ruleset, category, rating, rd, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				p, id, k.Ruleset, k.Category, g.Rating, g.Deviation, micros(at)); err != nil {
				return fmt.Errorf("sqlite: store rating history of %s: %w", p, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE rated_games SET rated = ? WHERE game_id = ?`, micros(at), id); err != nil {
			return fmt.Errorf("sqlite: mark game %s rated: %w", id, err)
		}
		done = true
		return nil
	})
	return done && err == nil, err
}

// SettleUnrated implements accounts.Store.
func (s *Store) SettleUnrated(ctx context.Context, id, reason string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE rated_games SET unrated = ? WHERE game_id = ? AND rated IS NULL`, reason, id); err != nil {
			return fmt.Errorf("sqlite: settle game %s unrated: %w", id, err)
		}
		return nil
	})
}

// PendingRatings implements accounts.Store.
func (s *Store) PendingRatings(ctx context.Context, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT rated_games.game_id FROM rated_games JOIN games ON games.id = rated_games.game_id
		WHERE rated_games.rated IS NULL AND rated_games.unrated IS NULL AND games.result <> '*' ORDER BY games.updated, games.id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: pending ratings: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Ratings implements accounts.Store.
func (s *Store) Ratings(ctx context.Context, id string) ([]accounts.Rating, error) {
	return s.ratings(ctx, `WHERE r.account_id = ? ORDER BY r.games DESC, r.ruleset, r.category LIMIT 100`, id)
}

// Leaderboard implements accounts.Store.
func (s *Store) Leaderboard(ctx context.Context, key accounts.RatingKey, limit int) ([]accounts.Rating, error) {
	return s.ratings(ctx, `WHERE r.ruleset = ? AND r.category = ? ORDER BY r.rating DESC, a.name_key LIMIT ?`, key.Ruleset, key.Category, limit)
}

func (s *Store) ratings(ctx context.Context, where string, args ...any) ([]accounts.Rating, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.account_id, a.name, r.ruleset, r.category, r.rating, r.rd, r.volatility, r.games, r.updated
		FROM ratings r JOIN accounts a ON a.id = r.account_id `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: ratings: %w", err)
	}
	defer rows.Close()
	var out []accounts.Rating
	for rows.Next() {
		var r accounts.Rating
		var updated int64
		if err := rows.Scan(&r.Account, &r.Name, &r.Ruleset, &r.Category, &r.Glicko.Rating, &r.Deviation, &r.Volatility, &r.Games, &updated); err != nil {
			return nil, err
		}
		r.Updated = fromMicros(updated)
		out = append(out, r)
	}
	return out, rows.Err()
}

// RatingHistory implements accounts.Store.
func (s *Store) RatingHistory(ctx context.Context, id string, key accounts.RatingKey, limit int) ([]accounts.RatingPoint, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT game_id, rating, rd, at FROM (SELECT game_id, rating, rd, at FROM rating_history
		WHERE account_id = ? AND ruleset = ? AND category = ? ORDER BY at DESC, game_id DESC LIMIT ?) ORDER BY at, game_id`,
		id, key.Ruleset, key.Category, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: rating history: %w", err)
	}
	defer rows.Close()
	var out []accounts.RatingPoint
	for rows.Next() {
		var p accounts.RatingPoint
		var at int64
		if err := rows.Scan(&p.Game, &p.Rating, &p.RD, &at); err != nil {
			return nil, err
		}
		p.At = fromMicros(at)
		out = append(out, p)
	}
	return out, rows.Err()
}
