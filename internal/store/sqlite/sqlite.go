// Package sqlite is the app.Store on SQLite through the pure-Go driver
// modernc.org/sqlite: WAL mode, a busy timeout, numbered SQL migrations
// embedded in the binary, parameterised SQL only.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"matombo/internal/app"
	"matombo/internal/store/storeutil"
	"matombo/mancala"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is an app.Store in one SQLite database file.
type Store struct {
	db    *sql.DB
	stmts map[string]*sql.Stmt // the statements of every action, prepared once

	// The writer goroutine (writer.go) runs every writing transaction.
	jobs     chan *writeJob
	quit     chan struct{} // closed by Close
	stopOnce sync.Once     // closes quit
	stopped  chan struct{} // closed when the writer has stopped
	closed   sync.Once     // closes the statements and the database
	closeErr error
}

// The statements run on every action, prepared at Open (SQLite parses a
// statement each time it is not prepared).
const (
	qGame         = `SELECT ` + gameColumns + ` FROM games WHERE id = ?`
	qSeats        = `SELECT side, token_hash, created FROM seats WHERE game_id = ? ORDER BY created, rowid`
	qActions      = `SELECT ply, action, side, created, clock_ms FROM actions WHERE game_id = ? ORDER BY ply`
	qState        = `SELECT plies, result FROM games WHERE id = ?`
	qInsertSeat   = `INSERT INTO seats (game_id, side, token_hash, created) VALUES (?, ?, ?, ?) ON CONFLICT (game_id, token_hash) DO NOTHING`
	qInsertAction = `INSERT INTO actions (game_id, ply, action, side, created, clock_ms) VALUES (?, ?, ?, ?, ?, ?)`
	qAppended     = `UPDATE games SET plies = plies + 1, turns = ?, result = ?, reason = ?, updated = ?, clock_from = ?, deadline = ?, offer = '' WHERE id = ?`
)

// prepare prepares the hot statements.
func (s *Store) prepare(ctx context.Context) error {
	s.stmts = map[string]*sql.Stmt{}
	for _, q := range []string{qGame, qSeats, qActions, qState, qInsertSeat, qInsertAction, qAppended} {
		st, err := s.db.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("sqlite: prepare %q: %w", q, err)
		}
		s.stmts[q] = st
	}
	return nil
}

// txStmt returns the prepared statement q for use in tx.
func (s *Store) txStmt(ctx context.Context, tx *sql.Tx, q string) *sql.Stmt {
	return tx.StmtContext(ctx, s.stmts[q])
}

var _ app.Store = (*Store)(nil)

// Open opens (creating if needed) the database at path and brings its
// schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	s := &Store{db: db}
	s.startWriter()
	if err := s.migrate(ctx); err != nil {
		s.stopWriter()
		db.Close()
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		s.stopWriter()
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close commits the writes already asked for and closes the database. A
// second Close does nothing and returns the first one's error.
func (s *Store) Close() error {
	s.closed.Do(func() {
		s.stopWriter()
		for _, st := range s.stmts {
			st.Close()
		}
		s.closeErr = s.db.Close()
	})
	return s.closeErr
}

// CheckWrite implements app.Store: it rewrites the newest migration's row
// as it is, through the writer, and waits for the commit.
func (s *Store) CheckWrite(ctx context.Context) error {
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE schema_migrations SET applied = applied WHERE version = (SELECT max(version) FROM schema_migrations)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: write check: %w", err)
	}
	return nil
}

// migrate applies the embedded migrations not yet applied (read and
// ordered by storeutil.Migrations), each in a transaction of its own, run
// directly rather than by the writer (no write is queued yet at Open), with
// the deadline of ctx only: a migration may take long on a large database.
func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("sqlite: create schema_migrations: %w", err)
	}
	ms, err := storeutil.Migrations(migrations, "migrations")
	if err != nil {
		return err
	}
	for _, m := range ms {
		if err := s.migrateOne(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// migrateOne applies migration m unless it has been applied.
func (s *Store) migrateOne(ctx context.Context, m storeutil.Migration) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: migration %s: begin: %w", m.Name, err)
	}
	defer tx.Rollback() // after a commit, does nothing
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&n); err != nil || n > 0 {
		return err
	}
	if _, err := tx.ExecContext(ctx, m.Body); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.Name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied) VALUES (?, ?)`, m.Version, time.Now().UnixMicro()); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.Name, err)
	}
	return tx.Commit()
}

func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// optMicros is t in unix microseconds, NULL for the zero time.
func optMicros(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMicro()
}

// fromOptMicros reads an optMicros column.
func fromOptMicros(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return fromMicros(v.Int64)
}

// clockMillis is m's clock in milliseconds, NULL without a clock.
func clockMillis(m app.Move) any {
	if !m.Clocked {
		return nil
	}
	return m.Clock.Milliseconds()
}

func notFound(id string) error { return app.Errorf(app.ENotFound, "no game %q", id) }

// CreateGame implements app.Store.
func (s *Store) CreateGame(ctx context.Context, g *app.Game) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error { return s.createGame(ctx, tx, g) })
}

// createGame inserts g with its seats and actions in tx.
func (s *Store) createGame(ctx context.Context, tx *sql.Tx, g *app.Game) error {
	players, err := json.Marshal(g.Players)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO games (id, ruleset, start, mode, players, invite_s, invite_n, invite_once, invite_taken, plies, turns, result, reason, rematch, created, updated, headers,
		time_control, clock_from, deadline, offer, rated)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Ruleset, g.Start, g.Mode, string(players), g.Invites[0], g.Invites[1], storeutil.Sides(g.InviteOnce), storeutil.Sides(g.InviteTaken),
		len(g.Actions), g.Turns, g.Result, g.Reason, g.Rematch, micros(g.Created), micros(g.Updated), storeutil.MarshalHeaders(g.Headers),
		g.TimeControl, optMicros(g.ClockFrom), optMicros(g.Deadline), g.Offer, g.Rated); err != nil {
		return fmt.Errorf("sqlite: create game %s: %w", g.ID, err)
	}
	for _, st := range g.Seats {
		if err := s.insertSeat(ctx, tx, g.ID, st); err != nil {
			return err
		}
	}
	for i, m := range g.Actions {
		if m.Ply != i {
			return app.Errorf(app.EInvalid, "action %d of game %s has ply %d", i, g.ID, m.Ply)
		}
		if err := s.insertAction(ctx, tx, g.ID, m); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) insertSeat(ctx context.Context, tx *sql.Tx, id string, st app.Seat) error {
	_, err := s.txStmt(ctx, tx, qInsertSeat).ExecContext(ctx,
		id, st.Side.String(), st.Hash, micros(st.Created))
	if err != nil {
		return fmt.Errorf("sqlite: add seat to game %s: %w", id, err)
	}
	return nil
}

func (s *Store) insertAction(ctx context.Context, tx *sql.Tx, id string, m app.Move) error {
	_, err := s.txStmt(ctx, tx, qInsertAction).ExecContext(ctx,
		id, m.Ply, m.Action, m.Side.String(), micros(m.At), clockMillis(m))
	if err != nil {
		return fmt.Errorf("sqlite: append action %d to game %s: %w", m.Ply, id, err)
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

type scanner interface{ Scan(dest ...any) error }

// scanGame reads a row of summaryColumns, or of gameColumns if withHeaders.
func scanGame(row scanner, withHeaders bool) (*app.Game, error) {
	var g app.Game
	var players, once, taken, headers string
	var created, updated int64
	var from, deadline sql.NullInt64
	dest := []any{&g.ID, &g.Ruleset, &g.Start, &g.Mode, &players, &g.Invites[0], &g.Invites[1],
		&g.Turns, &g.Result, &g.Reason, &g.Rematch, &created, &updated}
	if withHeaders {
		dest = append(dest, &once, &taken, &headers, &g.TimeControl, &from, &deadline, &g.Offer, &g.Rated, &g.Takebacks)
	}
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	g.ClockFrom, g.Deadline = fromOptMicros(from), fromOptMicros(deadline)
	g.InviteOnce, g.InviteTaken = storeutil.ParseSides(once), storeutil.ParseSides(taken)
	if err := json.Unmarshal([]byte(players), &g.Players); err != nil {
		return nil, fmt.Errorf("sqlite: game %s: players: %w", g.ID, err)
	}
	if withHeaders {
		var err error
		if g.Headers, err = storeutil.UnmarshalHeaders([]byte(headers)); err != nil {
			return nil, fmt.Errorf("sqlite: game %s: %w", g.ID, err)
		}
	}
	g.Created, g.Updated = fromMicros(created), fromMicros(updated)
	if g.ClockFrom.IsZero() {
		g.ClockFrom = g.Created
	}
	return &g, nil
}

// Game implements app.Store. It reads the game, its seats and its actions
// in one read transaction (deferred: it takes no write lock), so the three
// agree: in WAL mode, its reads see the database as of the first.
func (s *Store) Game(ctx context.Context, id string) (*app.Game, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: game %s: begin: %w", id, err)
	}
	defer tx.Rollback() // it only read
	g, err := scanGame(s.txStmt(ctx, tx, qGame).QueryRowContext(ctx, id), true)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: game %s: %w", id, err)
	}
	rows, err := s.txStmt(ctx, tx, qSeats).QueryContext(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seats of %s: %w", id, err)
	}
	for rows.Next() {
		var st app.Seat
		var side string
		var created int64
		if err := rows.Scan(&side, &st.Hash, &created); err != nil {
			rows.Close()
			return nil, err
		}
		st.Side, st.Created = storeutil.ParseSide(side), fromMicros(created)
		g.Seats = append(g.Seats, st)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = s.txStmt(ctx, tx, qActions).QueryContext(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: actions of %s: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var m app.Move
		var side string
		var created int64
		var clock sql.NullInt64
		if err := rows.Scan(&m.Ply, &m.Action, &side, &created, &clock); err != nil {
			return nil, err
		}
		m.Side, m.At = storeutil.ParseSide(side), fromMicros(created)
		m.Clock, m.Clocked = time.Duration(clock.Int64)*time.Millisecond, clock.Valid
		g.Actions = append(g.Actions, m)
	}
	return g, rows.Err()
}

// AddSeat implements app.Store.
func (s *Store) AddSeat(ctx context.Context, id string, st app.Seat) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := s.gameState(ctx, tx, id); err != nil {
			return err
		}
		return s.insertSeat(ctx, tx, id, st)
	})
}

type state struct {
	plies  int
	result string
}

func (s *Store) gameState(ctx context.Context, tx *sql.Tx, id string) (state, error) {
	var st state
	err := s.txStmt(ctx, tx, qState).QueryRowContext(ctx, id).Scan(&st.plies, &st.result)
	if errors.Is(err, sql.ErrNoRows) {
		return st, notFound(id)
	}
	if err != nil {
		return st, fmt.Errorf("sqlite: game %s: %w", id, err)
	}
	return st, nil
}

// AppendAction implements app.Store.
func (s *Store) AppendAction(ctx context.Context, id string, m app.Move, turns int, result, reason string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		st, err := s.gameState(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := storeutil.CheckInPlay(id, st.plies, st.result, m.Ply); err != nil {
			return err
		}
		if err := s.insertAction(ctx, tx, id, m); err != nil {
			return err
		}
		_, err = s.txStmt(ctx, tx, qAppended).ExecContext(ctx,
			turns, result, reason, micros(m.At), micros(m.At), optMicros(m.Deadline), id)
		return err
	})
}

// Finish implements app.Store.
func (s *Store) Finish(ctx context.Context, id string, plies int, result, reason string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		st, err := s.gameState(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := storeutil.CheckInPlay(id, st.plies, st.result, plies); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET result = ?, reason = ?, updated = ? WHERE id = ?`,
			result, reason, micros(time.Now()), id)
		return err
	})
}

// RenamePlayer implements app.Store.
func (s *Store) RenamePlayer(ctx context.Context, id string, side mancala.Player, from, name string) (string, error) {
	var got string
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var players string
		err := tx.QueryRowContext(ctx, `SELECT players FROM games WHERE id = ?`, id).Scan(&players)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("sqlite: game %s: %w", id, err)
		}
		out, now, changed, err := storeutil.RenamePlayer([]byte(players), side, from, name)
		got = now
		if err != nil || !changed {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET players = ? WHERE id = ?`, string(out), id); err != nil {
			return fmt.Errorf("sqlite: rename a player of game %s: %w", id, err)
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
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var stored []byte
		var once, taken string
		err := tx.QueryRowContext(ctx, `SELECT `+inviteColumn(st.Side)+`, invite_once, invite_taken FROM games WHERE id = ?`, id).Scan(&stored, &once, &taken)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("sqlite: game %s: %w", id, err)
		}
		onceSet, takenSet := storeutil.ParseSides(once), storeutil.ParseSides(taken)
		if err := storeutil.CheckInvite(id, st.Side, stored, invite, onceSet, takenSet); err != nil {
			return err
		}
		if err := s.insertSeat(ctx, tx, id, st); err != nil {
			return err
		}
		if !onceSet[st.Side] {
			return nil
		}
		takenSet[st.Side] = true
		if _, err := tx.ExecContext(ctx, `UPDATE games SET invite_taken = ? WHERE id = ?`, storeutil.Sides(takenSet), id); err != nil {
			return fmt.Errorf("sqlite: take the invite of game %s: %w", id, err)
		}
		return nil
	})
}

// NewInvite implements app.Store.
func (s *Store) NewInvite(ctx context.Context, id string, side mancala.Player, invite []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var once, taken string
		err := tx.QueryRowContext(ctx, `SELECT invite_once, invite_taken FROM games WHERE id = ?`, id).Scan(&once, &taken)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("sqlite: game %s: %w", id, err)
		}
		onceSet, takenSet := storeutil.ParseSides(once), storeutil.ParseSides(taken)
		onceSet[side], takenSet[side] = true, false
		if _, err := tx.ExecContext(ctx, `UPDATE games SET `+inviteColumn(side)+` = ?, invite_once = ?, invite_taken = ? WHERE id = ?`,
			invite, storeutil.Sides(onceSet), storeutil.Sides(takenSet), id); err != nil {
			return fmt.Errorf("sqlite: new invite for game %s: %w", id, err)
		}
		return nil
	})
}

// CreateRematch implements app.Store.
func (s *Store) CreateRematch(ctx context.Context, id string, g *app.Game) (string, error) {
	var out string
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var had string
		err := tx.QueryRowContext(ctx, `SELECT rematch FROM games WHERE id = ?`, id).Scan(&had)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("sqlite: game %s: %w", id, err)
		}
		if had != "" {
			out = had
			return nil
		}
		if err := s.createGame(ctx, tx, g); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET rematch = ? WHERE id = ?`, g.ID, id); err != nil {
			return fmt.Errorf("sqlite: link game %s to its rematch: %w", id, err)
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
	query := `SELECT ` + summaryColumns + ` FROM games WHERE 1 = 1`
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
		query += ` AND (updated < ? OR (updated = ? AND id < ?))`
		args = append(args, micros(f.Before), micros(f.Before), f.BeforeID)
	case !f.Before.IsZero():
		query += ` AND updated < ?`
		args = append(args, micros(f.Before))
	}
	query += ` ORDER BY updated DESC, id DESC LIMIT ?`
	args = append(args, max(f.Limit, 1))
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list games: %w", err)
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
	return out, rows.Err()
}
