// Package postgres is the app.Store on PostgreSQL through pgx (pgxpool):
// numbered SQL migrations embedded in the binary and applied under an
// advisory lock (so several server instances may start at once),
// parameterised SQL only, and appends that lock the game's row so two
// writers of one ply never both succeed, whichever instance they run in.
package postgres

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"matombo/internal/app"
	"matombo/internal/store/storeutil"
	"matombo/mancala"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the key of the advisory lock held while migrating.
const migrationLock = 0x6d61746f6d626f // "matombo"

// defaultMaxConns is the pool size unless the DSN sets pool_max_conns.
const defaultMaxConns = 16

// Store is an app.Store in one PostgreSQL database (or schema: set
// search_path in the DSN).
type Store struct {
	pool *pgxpool.Pool
}

var _ app.Store = (*Store)(nil)

// IsDSN reports whether s names a PostgreSQL database rather than a file:
// a postgres:// or postgresql:// URL.
func IsDSN(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the database of dsn (a postgres:// URL or key=value
// string, as pgx accepts; pool_max_conns sets the pool size, 16 by default)
// and brings its schema up to date.
func Open(ctx context.Context, dsn string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's message may quote the DSN, password included: do not wrap it.
		return nil, errors.New("postgres: the database address is not a valid PostgreSQL URL or key=value string")
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = defaultMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect to %s: %w", where(cfg), err)
	}
	s := &Store{pool: pool}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// where names the server and database of cfg, without credentials.
func where(cfg *pgxpool.Config) string {
	return fmt.Sprintf("%s:%d/%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database)
}

// Close closes the pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Pool returns the store's connection pool (for the Notifier and tests).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// migrate applies the embedded migrations not yet applied, in one
// transaction under an advisory lock, in the order of their numbers. It
// has the deadline of ctx only: a migration may take long on a large
// database.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := storeutil.Migrations(migrations, "migrations")
	if err != nil {
		return err
	}
	return s.runTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
			return fmt.Errorf("postgres: lock for migrations: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied TIMESTAMPTZ NOT NULL)`); err != nil {
			return fmt.Errorf("postgres: create schema_migrations: %w", err)
		}
		for _, m := range ms {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM schema_migrations WHERE version = $1`, m.Version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				continue
			}
			if _, err := tx.Exec(ctx, m.Body); err != nil {
				return fmt.Errorf("postgres: migration %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, applied) VALUES ($1, $2)`, m.Version, time.Now()); err != nil {
				return err
			}
		}
		return nil
	})
}

// CheckWrite implements app.Store: it rewrites the newest migration's row
// as it is, in a transaction it commits (a read-only server, such as a
// standby, refuses it).
func (s *Store) CheckWrite(ctx context.Context) error {
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE schema_migrations SET applied = applied WHERE version = (SELECT max(version) FROM schema_migrations)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: write check: %w", err)
	}
	return nil
}

// writeTimeout bounds every write, its wait for a connection included:
// a write not committed by then is rolled back (the service stores its
// actions with a context that has no deadline of its own).
const writeTimeout = 10 * time.Second

// rollbackTimeout bounds the rollback of a failed transaction.
const rollbackTimeout = 5 * time.Second

// tx runs f in a transaction, committing if f succeeds, within
// writeTimeout; f must use the context it is given.
func (s *Store) tx(ctx context.Context, f func(context.Context, pgx.Tx) error) error {
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	return s.runTx(ctx, f)
}

// runTx runs f in a transaction, committing if f succeeds.
func (s *Store) runTx(ctx context.Context, f func(context.Context, pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	if err := f(ctx, tx); err != nil {
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
		tx.Rollback(rctx)
		rcancel()
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: commit: %w", err)
	}
	return nil
}

func notFound(id string) error { return app.Errorf(app.ENotFound, "no game %q", id) }

// isUniqueViolation reports whether err is PostgreSQL's unique_violation.
func isUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// CreateGame implements app.Store.
func (s *Store) CreateGame(ctx context.Context, g *app.Game) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error { return createGame(ctx, tx, g) })
}

// createGame inserts g with its seats and actions in tx.
func createGame(ctx context.Context, tx pgx.Tx, g *app.Game) error {
	players, err := json.Marshal(g.Players)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO games (id, ruleset, start, mode, players, invite_s, invite_n, invite_once, invite_taken, plies, turns, result, reason, rematch, created, updated, headers,
		time_control, clock_from, deadline, offer, rated)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
		g.ID, g.Ruleset, g.Start, g.Mode, string(players), g.Invites[0], g.Invites[1], storeutil.Sides(g.InviteOnce), storeutil.Sides(g.InviteTaken),
		len(g.Actions), g.Turns, g.Result, g.Reason, g.Rematch, g.Created, g.Updated, storeutil.MarshalHeaders(g.Headers),
		g.TimeControl, optTime(g.ClockFrom), optTime(g.Deadline), g.Offer, g.Rated); err != nil {
		if isUniqueViolation(err) {
			return app.Errorf(app.EConflict, "a game with id %q exists already", g.ID)
		}
		return fmt.Errorf("postgres: create game %s: %w", g.ID, err)
	}
	for _, st := range g.Seats {
		if err := insertSeat(ctx, tx, g.ID, st); err != nil {
			return err
		}
	}
	for i, m := range g.Actions {
		if m.Ply != i {
			return app.Errorf(app.EInvalid, "action %d of game %s has ply %d", i, g.ID, m.Ply)
		}
		if err := insertAction(ctx, tx, g.ID, m); err != nil {
			return err
		}
	}
	return nil
}

func insertSeat(ctx context.Context, tx pgx.Tx, id string, st app.Seat) error {
	_, err := tx.Exec(ctx, `INSERT INTO seats (game_id, side, token_hash, created) VALUES ($1, $2, $3, $4)
		ON CONFLICT (game_id, token_hash) DO NOTHING`,
		id, st.Side.String(), st.Hash, st.Created)
	if err != nil {
		return fmt.Errorf("postgres: add seat to game %s: %w", id, err)
	}
	return nil
}

func insertAction(ctx context.Context, tx pgx.Tx, id string, m app.Move) error {
	_, err := tx.Exec(ctx, `INSERT INTO actions (game_id, ply, action, side, created, clock_ms) VALUES ($1, $2, $3, $4, $5, $6)`,
		id, m.Ply, m.Action, m.Side.String(), m.At, clockMillis(m))
	if isUniqueViolation(err) {
		return app.Errorf(app.EConflict, "stale ply %d: game %s has that ply already", m.Ply, id)
	}
	if err != nil {
		return fmt.Errorf("postgres: append action %d to game %s: %w", m.Ply, id, err)
	}
	return nil
}

// summaryColumns are the columns of a game in the archive list; gameColumns
// add the imported headers (unbounded in stored games imported before the
// records' header limits), which only a game's own page reads.
const (
	summaryColumns = `id, ruleset, start, mode, players, invite_s, invite_n, turns, result, reason, rematch, created, updated`
	gameColumns    = summaryColumns + `, invite_once, invite_taken, headers, time_control, clock_from, deadline, offer, rated, takebacks`
)

// scanGame reads a row of summaryColumns, or of gameColumns if withHeaders.
func scanGame(row pgx.Row, withHeaders bool) (*app.Game, error) {
	var g app.Game
	var players, headers []byte
	var once, taken string
	var from, deadline *time.Time
	dest := []any{&g.ID, &g.Ruleset, &g.Start, &g.Mode, &players, &g.Invites[0], &g.Invites[1],
		&g.Turns, &g.Result, &g.Reason, &g.Rematch, &g.Created, &g.Updated}
	if withHeaders {
		dest = append(dest, &once, &taken, &headers, &g.TimeControl, &from, &deadline, &g.Offer, &g.Rated, &g.Takebacks)
	}
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	if from != nil {
		g.ClockFrom = from.UTC()
	}
	if deadline != nil {
		g.Deadline = deadline.UTC()
	}
	g.InviteOnce, g.InviteTaken = storeutil.ParseSides(once), storeutil.ParseSides(taken)
	if err := json.Unmarshal(players, &g.Players); err != nil {
		return nil, fmt.Errorf("postgres: game %s: players: %w", g.ID, err)
	}
	if withHeaders {
		var err error
		if g.Headers, err = storeutil.UnmarshalHeaders(headers); err != nil {
			return nil, fmt.Errorf("postgres: game %s: %w", g.ID, err)
		}
	}
	g.Created, g.Updated = g.Created.UTC(), g.Updated.UTC()
	if g.ClockFrom.IsZero() {
		g.ClockFrom = g.Created
	}
	return &g, nil
}

// Game implements app.Store. It reads the game, its seats and its actions
// in one round trip: a batch that is one repeatable-read, read-only
// transaction, so the three agree.
func (s *Store) Game(ctx context.Context, id string) (*app.Game, error) {
	b := &pgx.Batch{}
	b.Queue(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`)
	game := b.Queue(`SELECT `+gameColumns+` FROM games WHERE id = $1`, id)
	seats := b.Queue(`SELECT side, token_hash, created FROM seats WHERE game_id = $1 ORDER BY created, seq`, id)
	actions := b.Queue(`SELECT ply, action, side, created, clock_ms FROM actions WHERE game_id = $1 ORDER BY ply`, id)
	b.Queue(`COMMIT`)
	var g *app.Game
	game.QueryRow(func(row pgx.Row) error {
		var err error
		g, err = scanGame(row, true)
		return err
	})
	var side string
	var at time.Time
	var hash []byte
	seats.Query(func(rows pgx.Rows) error {
		_, err := pgx.ForEachRow(rows, []any{&side, &hash, &at}, func() error {
			g.Seats = append(g.Seats, app.Seat{Side: storeutil.ParseSide(side), Hash: hash, Created: at.UTC()})
			return nil
		})
		return err
	})
	var m app.Move
	var clock *int64
	actions.Query(func(rows pgx.Rows) error {
		_, err := pgx.ForEachRow(rows, []any{&m.Ply, &m.Action, &side, &at, &clock}, func() error {
			m.Side, m.At = storeutil.ParseSide(side), at.UTC()
			m.Clock, m.Clocked = 0, clock != nil
			if clock != nil {
				m.Clock = time.Duration(*clock) * time.Millisecond
			}
			g.Actions = append(g.Actions, m)
			return nil
		})
		return err
	})
	err := s.pool.SendBatch(ctx, b).Close()
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: game %s: %w", id, err)
	}
	return g, nil
}

// AddSeat implements app.Store.
func (s *Store) AddSeat(ctx context.Context, id string, st app.Seat) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := lockGame(ctx, tx, id); err != nil {
			return err
		}
		return insertSeat(ctx, tx, id, st)
	})
}

type state struct {
	plies  int
	result string
}

// lockGame reads the ply count and result of game id, locking its row until
// the transaction ends.
func lockGame(ctx context.Context, tx pgx.Tx, id string) (state, error) {
	var st state
	err := tx.QueryRow(ctx, `SELECT plies, result FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&st.plies, &st.result)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, notFound(id)
	}
	if err != nil {
		return st, fmt.Errorf("postgres: game %s: %w", id, err)
	}
	return st, nil
}

// appendAction bumps the game's ply count and inserts the action in one
// statement, only if the game is in play at the expected ply. The UPDATE
// locks the game's row: a concurrent append to the same game, from any
// server instance, waits for it, then finds the ply changed and matches no
// row. The primary key (game_id, ply) of actions is a second guard.
const appendAction = `WITH bumped AS (
	UPDATE games SET plies = plies + 1, turns = $5, result = $6, reason = $7, updated = $8, clock_from = $8, deadline = $9, offer = ''
	WHERE id = $1 AND plies = $2 AND result = '*'
	RETURNING id
)
INSERT INTO actions (game_id, ply, action, side, created, clock_ms)
SELECT id, $2, $3, $4, $8, $10 FROM bumped`

// AppendAction implements app.Store in one statement (one round trip, see
// appendAction); only when it appends nothing does it look at why.
func (s *Store) AppendAction(ctx context.Context, id string, m app.Move, turns int, result, reason string) error {
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	tag, err := s.pool.Exec(ctx, appendAction, id, m.Ply, m.Action, m.Side.String(), turns, result, reason, m.At, optTime(m.Deadline), clockMillis(m))
	if isUniqueViolation(err) {
		return app.Errorf(app.EConflict, "stale ply %d: game %s has that ply already", m.Ply, id)
	}
	if err != nil {
		return fmt.Errorf("postgres: append action %d to game %s: %w", m.Ply, id, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var st state
	err = s.pool.QueryRow(ctx, `SELECT plies, result FROM games WHERE id = $1`, id).Scan(&st.plies, &st.result)
	if errors.Is(err, pgx.ErrNoRows) {
		return notFound(id)
	}
	if err != nil {
		return fmt.Errorf("postgres: game %s: %w", id, err)
	}
	if err := storeutil.CheckInPlay(id, st.plies, st.result, m.Ply); err != nil {
		return err
	}
	// The game reached m.Ply only after the append looked (m.Ply was
	// ahead of it then): still a stale ply for the client that sent it.
	return app.Errorf(app.EConflict, "stale ply %d: game %s changed meanwhile", m.Ply, id)
}

// Finish implements app.Store.
func (s *Store) Finish(ctx context.Context, id string, plies int, result, reason string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		st, err := lockGame(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := storeutil.CheckInPlay(id, st.plies, st.result, plies); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE games SET result = $1, reason = $2, updated = $3 WHERE id = $4`,
			result, reason, time.Now().UTC(), id)
		return err
	})
}

// RenamePlayer implements app.Store.
func (s *Store) RenamePlayer(ctx context.Context, id string, side mancala.Player, from, name string) (string, error) {
	var got string
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var players []byte
		err := tx.QueryRow(ctx, `SELECT players FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&players)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("postgres: game %s: %w", id, err)
		}
		out, now, changed, err := storeutil.RenamePlayer(players, side, from, name)
		got = now
		if err != nil || !changed {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET players = $1 WHERE id = $2`, string(out), id); err != nil {
			return fmt.Errorf("postgres: rename a player of game %s: %w", id, err)
		}
		return nil
	})
	return got, err
}

// inviteColumn names the column of side's invite.
func inviteColumn(side mancala.Player) string {
	if side == mancala.North {
		return "invite_n"
	}
	return "invite_s"
}

// TakeInvite implements app.Store.
func (s *Store) TakeInvite(ctx context.Context, id string, invite []byte, st app.Seat) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var stored []byte
		var once, taken string
		err := tx.QueryRow(ctx, `SELECT `+inviteColumn(st.Side)+`, invite_once, invite_taken FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&stored, &once, &taken)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("postgres: game %s: %w", id, err)
		}
		onceSet, takenSet := storeutil.ParseSides(once), storeutil.ParseSides(taken)
		if err := storeutil.CheckInvite(id, st.Side, stored, invite, onceSet, takenSet); err != nil {
			return err
		}
		if err := insertSeat(ctx, tx, id, st); err != nil {
			return err
		}
		if !onceSet[st.Side] {
			return nil
		}
		takenSet[st.Side] = true
		if _, err := tx.Exec(ctx, `UPDATE games SET invite_taken = $1 WHERE id = $2`, storeutil.Sides(takenSet), id); err != nil {
			return fmt.Errorf("postgres: take the invite of game %s: %w", id, err)
		}
		return nil
	})
}

// NewInvite implements app.Store.
func (s *Store) NewInvite(ctx context.Context, id string, side mancala.Player, invite []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var once, taken string
		err := tx.QueryRow(ctx, `SELECT invite_once, invite_taken FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&once, &taken)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("postgres: game %s: %w", id, err)
		}
		onceSet, takenSet := storeutil.ParseSides(once), storeutil.ParseSides(taken)
		onceSet[side], takenSet[side] = true, false
		if _, err := tx.Exec(ctx, `UPDATE games SET `+inviteColumn(side)+` = $1, invite_once = $2, invite_taken = $3 WHERE id = $4`,
			invite, storeutil.Sides(onceSet), storeutil.Sides(takenSet), id); err != nil {
			return fmt.Errorf("postgres: new invite for game %s: %w", id, err)
		}
		return nil
	})
}

// CreateRematch implements app.Store: the old game's row is locked while
// the rematch is stored, so a concurrent call waits and finds the link.
func (s *Store) CreateRematch(ctx context.Context, id string, g *app.Game) (string, error) {
	var out string
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var had string
		err := tx.QueryRow(ctx, `SELECT rematch FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&had)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("postgres: game %s: %w", id, err)
		}
		if had != "" {
			out = had
			return nil
		}
		if err := createGame(ctx, tx, g); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET rematch = $1 WHERE id = $2`, g.ID, id); err != nil {
			return fmt.Errorf("postgres: link game %s to its rematch: %w", id, err)
		}
		out = g.ID
		return nil
	})
	if err != nil {
		return "", err
	}
	return out, nil
}

// ListGames implements app.Store.
func (s *Store) ListGames(ctx context.Context, f app.ListFilter) ([]*app.Game, error) {
	query := `SELECT ` + summaryColumns + ` FROM games WHERE true`
	var args []any
	switch f.Status {
	case "playing":
		query += ` AND result = '*' AND mode <> 'imported'`
	case "unfinished":
		query += ` AND result = '*' AND mode = 'imported'`
	case "over":
		query += ` AND result <> '*'`
	}
	switch {
	case !f.Before.IsZero() && f.BeforeID != "":
		args = append(args, f.Before, f.BeforeID)
		query += fmt.Sprintf(` AND (updated < $%d OR (updated = $%d AND id < $%d))`, len(args)-1, len(args)-1, len(args))
	case !f.Before.IsZero():
		args = append(args, f.Before)
		query += fmt.Sprintf(` AND updated < $%d`, len(args))
	}
	args = append(args, max(f.Limit, 1))
	query += fmt.Sprintf(` ORDER BY updated DESC, id DESC LIMIT $%d`, len(args))
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: list games: %w", err)
	}
	defer rows.Close()
	var out []*app.Game
	for rows.Next() {
		g, err := scanGame(rows, false)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: list games: %w", err)
	}
	return out, nil
}
