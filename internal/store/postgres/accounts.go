package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/internal/store/storeutil"
)

// The store of accounts (package accounts) in the games' database.

var _ accounts.Store = (*Store)(nil)

// isForeignKeyViolation reports whether err is PostgreSQL's foreign_key_violation.
func isForeignKeyViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23503"
}

const accountColumns = `id, name, name_key, hash, seat_key, created`

func scanAccount(row pgx.Row) (*accounts.Account, error) {
	var a accounts.Account
	if err := row.Scan(&a.ID, &a.Name, &a.Key, &a.Hash, &a.SeatKey, &a.Created); err != nil {
		return nil, err
	}
	a.Created = a.Created.UTC()
	return &a, nil
}

func noAccount(what string) error { return app.Errorf(app.ENotFound, "no account %s", what) }

// CreateAccount implements accounts.Store.
func (s *Store) CreateAccount(ctx context.Context, a *accounts.Account) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO accounts (`+accountColumns+`) VALUES ($1, $2, $3, $4, $5, $6)`,
			a.ID, a.Name, a.Key, a.Hash, a.SeatKey, a.Created)
		if isUniqueViolation(err) {
			return app.Errorf(app.EConflict, "the user name %q is taken", a.Name)
		}
		if err != nil {
			return fmt.Errorf("postgres: create account: %w", err)
		}
		return nil
	})
}

func (s *Store) accountWhere(ctx context.Context, where, arg string) (*accounts.Account, error) {
	a, err := scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+where+` = $1`, arg))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, noAccount(strconv.Quote(arg))
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: account: %w", err)
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
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE accounts SET hash = $1 WHERE id = $2`, hash, id)
		if err != nil {
			return fmt.Errorf("postgres: set password: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return noAccount(id)
		}
		if keep == nil {
			return nil
		}
		if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE account_id = $1 AND hash <> $2`, id, keep); err != nil {
			return fmt.Errorf("postgres: revoke sessions: %w", err)
		}
		return nil
	})
}

// maxSessions bounds the sessions an account keeps: the oldest go first.
const maxSessions = 50

// CreateSession implements accounts.Store.
func (s *Store) CreateSession(ctx context.Context, se accounts.Session) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO sessions (hash, account_id, created, expires) VALUES ($1, $2, $3, $4)`,
			se.Hash, se.Account, se.Created, se.Expires); err != nil {
			return fmt.Errorf("postgres: create session: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE account_id = $1 AND (expires <= $2 OR hash NOT IN
			(SELECT hash FROM sessions WHERE account_id = $1 ORDER BY created DESC LIMIT $3))`,
			se.Account, se.Created, maxSessions); err != nil {
			return fmt.Errorf("postgres: expire sessions: %w", err)
		}
		return nil
	})
}

// SessionAccount implements accounts.Store.
func (s *Store) SessionAccount(ctx context.Context, hash []byte, now time.Time) (*accounts.Session, *accounts.Account, error) {
	var se accounts.Session
	var a accounts.Account
	err := s.pool.QueryRow(ctx, `SELECT s.account_id, s.created, s.expires, a.id, a.name, a.name_key, a.hash, a.seat_key, a.created
		FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.hash = $1 AND s.expires > $2`, hash, now).
		Scan(&se.Account, &se.Created, &se.Expires, &a.ID, &a.Name, &a.Key, &a.Hash, &a.SeatKey, &a.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, app.Errorf(app.ENotFound, "no session")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: session: %w", err)
	}
	se.Hash, se.Created, se.Expires, a.Created = hash, se.Created.UTC(), se.Expires.UTC(), a.Created.UTC()
	return &se, &a, nil
}

// DeleteSession implements accounts.Store.
func (s *Store) DeleteSession(ctx context.Context, hash []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE hash = $1`, hash); err != nil {
			return fmt.Errorf("postgres: delete session: %w", err)
		}
		return nil
	})
}

// LinkSeat implements accounts.Store.
func (s *Store) LinkSeat(ctx context.Context, l accounts.SeatLink, at time.Time) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO account_seats (account_id, game_id, side, linked) VALUES ($1, $2, $3, $4)
			ON CONFLICT (account_id, game_id, side) DO NOTHING`, l.Account, l.Game, l.Side.String(), at)
		if isForeignKeyViolation(err) {
			return app.Errorf(app.ENotFound, "no game %q or account %q", l.Game, l.Account)
		}
		if err != nil {
			return fmt.Errorf("postgres: link seat: %w", err)
		}
		return nil
	})
}

// GameLinks implements accounts.Store.
func (s *Store) GameLinks(ctx context.Context, id string) ([]accounts.SeatLink, error) {
	rows, err := s.pool.Query(ctx, `SELECT account_id, side FROM account_seats WHERE game_id = $1 ORDER BY linked, seq`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: seat links: %w", err)
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
	row   pgx.Row
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
		WHERE account_seats.account_id = $1`
	args := []any{id}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if f.Ruleset != "" {
		query += ` AND games.ruleset = ` + arg(f.Ruleset)
	}
	query += resultCondition[f.Result]
	switch {
	case !f.Before.IsZero() && f.BeforeID != "":
		b := arg(f.Before)
		query += ` AND (games.updated < ` + b + ` OR (games.updated = ` + b + ` AND games.id < ` + arg(f.BeforeID) + `))`
	case !f.Before.IsZero():
		query += ` AND games.updated < ` + arg(f.Before)
	}
	query += ` ORDER BY games.updated DESC, games.id DESC, account_seats.side LIMIT ` + arg(max(f.Limit, 1))
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: account games: %w", err)
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

// AccountStats implements accounts.Store.
func (s *Store) AccountStats(ctx context.Context, id string) ([]accounts.RulesetStats, error) {
	rows, err := s.pool.Query(ctx, `SELECT games.ruleset, count(*),
		count(*) FILTER (WHERE games.result = account_seats.side),
		count(*) FILTER (WHERE games.result IN ('S', 'N') AND games.result <> account_seats.side),
		count(*) FILTER (WHERE games.result = 'draw'),
		count(*) FILTER (WHERE games.result = '*')
		FROM account_seats JOIN games ON games.id = account_seats.game_id
		WHERE account_seats.account_id = $1 GROUP BY games.ruleset ORDER BY count(*) DESC, games.ruleset`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: account results: %w", err)
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
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO rated_games (game_id, ruleset, category) VALUES ($1, $2, $3) ON CONFLICT (game_id) DO NOTHING`,
			id, key.Ruleset, key.Category)
		if isForeignKeyViolation(err) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("postgres: mark game %s rated: %w", id, err)
		}
		return nil
	})
}

// RatedKey implements accounts.Store.
func (s *Store) RatedKey(ctx context.Context, id string) (accounts.RatingKey, bool, error) {
	var k accounts.RatingKey
	err := s.pool.QueryRow(ctx, `SELECT ruleset, category FROM rated_games WHERE game_id = $1`, id).Scan(&k.Ruleset, &k.Category)
	if errors.Is(err, pgx.ErrNoRows) {
		return k, false, nil
	}
	if err != nil {
		return k, false, fmt.Errorf("postgres: rated game %s: %w", id, err)
	}
	return k, true, nil
}

// ApplyRating implements accounts.Store. It locks the game's rated_games
// row, then the players' rating rows in the order of their ids, so that
// concurrent games of one player are rated one after the other.
func (s *Store) ApplyRating(ctx context.Context, id string, players [2]string, at time.Time, rate accounts.RateFunc) (bool, error) {
	done := false
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		done = false
		var k accounts.RatingKey
		var rated *time.Time
		var unrated *string
		err := tx.QueryRow(ctx, `SELECT ruleset, category, rated, unrated FROM rated_games WHERE game_id = $1 FOR UPDATE`, id).Scan(&k.Ruleset, &k.Category, &rated, &unrated)
		if errors.Is(err, pgx.ErrNoRows) || err == nil && (rated != nil || unrated != nil) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("postgres: rated game %s: %w", id, err)
		}
		nw := accounts.NewGlicko()
		order := slices.Sorted(slices.Values(players[:]))
		for _, p := range order {
			if _, err := tx.Exec(ctx, `INSERT INTO ratings (account_id, ruleset, category, rating, rd, volatility, games, updated)
				VALUES ($1, $2, $3, $4, $5, $6, 0, $7) ON CONFLICT DO NOTHING`, p, k.Ruleset, k.Category, nw.Rating, nw.Deviation, nw.Volatility, at); err != nil {
				return fmt.Errorf("postgres: rating of %s: %w", p, err)
			}
		}
		var before [2]accounts.Glicko
		for _, p := range order {
			var g accounts.Glicko
			if err := tx.QueryRow(ctx, `SELECT rating, rd, volatility FROM ratings WHERE account_id = $1 AND ruleset = $2 AND category = $3 FOR UPDATE`,
				p, k.Ruleset, k.Category).Scan(&g.Rating, &g.Deviation, &g.Volatility); err != nil {
				return fmt.Errorf("postgres: rating of %s: %w", p, err)
			}
			for i := range players {
				if players[i] == p {
					before[i] = g
				}
			}
		}
		after := rate(before)
		for i, p := range players {
			g := after[i]
			if _, err := tx.Exec(ctx, `UPDATE ratings SET rating = $4, rd = $5, volatility = $6, games = games + 1, updated = $7
				WHERE account_id = $1 AND ruleset = $2 AND category = $3`, p, k.Ruleset, k.Category, g.Rating, g.Deviation, g.Volatility, at); err != nil {
				return fmt.Errorf("postgres: store rating of %s: %w", p, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO rating_history (account_id, game_id, ruleset, category, rating, rd, at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				p, id, k.Ruleset, k.Category, g.Rating, g.Deviation, at); err != nil {
				return fmt.Errorf("postgres: store rating history of %s: %w", p, err)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE rated_games SET rated = $1 WHERE game_id = $2`, at, id); err != nil {
			return fmt.Errorf("postgres: mark game %s rated: %w", id, err)
		}
		done = true
		return nil
	})
	return done && err == nil, err
}

// SettleUnrated implements accounts.Store.
func (s *Store) SettleUnrated(ctx context.Context, id, reason string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE rated_games SET unrated = $1 WHERE game_id = $2 AND rated IS NULL`, reason, id); err != nil {
			return fmt.Errorf("postgres: settle game %s unrated: %w", id, err)
		}
		return nil
	})
}

// PendingRatings implements accounts.Store.
func (s *Store) PendingRatings(ctx context.Context, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT rated_games.game_id FROM rated_games JOIN games ON games.id = rated_games.game_id
		WHERE rated_games.rated IS NULL AND rated_games.unrated IS NULL AND games.result <> '*' ORDER BY games.updated, games.id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: pending ratings: %w", err)
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
	return s.ratings(ctx, `WHERE r.account_id = $1 ORDER BY r.games DESC, r.ruleset, r.category LIMIT 100`, id)
}

// Leaderboard implements accounts.Store.
func (s *Store) Leaderboard(ctx context.Context, key accounts.RatingKey, limit int) ([]accounts.Rating, error) {
	return s.ratings(ctx, `WHERE r.ruleset = $1 AND r.category = $2 ORDER BY r.rating DESC, a.name_key LIMIT $3`, key.Ruleset, key.Category, limit)
}

func (s *Store) ratings(ctx context.Context, where string, args ...any) ([]accounts.Rating, error) {
	rows, err := s.pool.Query(ctx, `SELECT r.account_id, a.name, r.ruleset, r.category, r.rating, r.rd, r.volatility, r.games, r.updated
		FROM ratings r JOIN accounts a ON a.id = r.account_id `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: ratings: %w", err)
	}
	defer rows.Close()
	var out []accounts.Rating
	for rows.Next() {
		var r accounts.Rating
		if err := rows.Scan(&r.Account, &r.Name, &r.Ruleset, &r.Category, &r.Glicko.Rating, &r.Deviation, &r.Volatility, &r.Games, &r.Updated); err != nil {
			return nil, err
		}
		r.Updated = r.Updated.UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// RatingHistory implements accounts.Store.
func (s *Store) RatingHistory(ctx context.Context, id string, key accounts.RatingKey, limit int) ([]accounts.RatingPoint, error) {
	rows, err := s.pool.Query(ctx, `SELECT game_id, rating, rd, at FROM (SELECT game_id, rating, rd, at FROM rating_history
		WHERE account_id = $1 AND ruleset = $2 AND category = $3 ORDER BY at DESC, game_id DESC LIMIT $4) AS newest ORDER BY at, game_id`,
		id, key.Ruleset, key.Category, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: rating history: %w", err)
	}
	defer rows.Close()
	var out []accounts.RatingPoint
	for rows.Next() {
		var p accounts.RatingPoint
		if err := rows.Scan(&p.Game, &p.Rating, &p.RD, &p.At); err != nil {
			return nil, err
		}
		p.At = p.At.UTC()
		out = append(out, p)
	}
	return out, rows.Err()
}
