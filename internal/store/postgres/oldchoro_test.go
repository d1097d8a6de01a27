package postgres

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"matombo/internal/store/postgres/pgtest"
	"matombo/internal/store/storetest"
	"matombo/internal/store/storeutil"
)

// TestMigrateOldChoro writes games of the old Choro (every ruleset string
// that meant it) and games of other rulesets into a schema as it was before
// the Choro migration, opens it, and checks that the old Choro games became
// the DLP's reading and replay to their results, and the others are as they
// were.
func TestMigrateOldChoro(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Schema(t)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	ms, err := storeutil.Migrations(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied TIMESTAMPTZ NOT NULL)`)
	migrated := false
	for _, m := range ms {
		if m.Name == "0005_choro_dlp.sql" {
			migrated = true
			break
		}
		exec(m.Body)
		exec(`INSERT INTO schema_migrations VALUES ($1, now())`, m.Version)
	}
	if !migrated {
		t.Fatal("no migration 0005_choro_dlp.sql")
	}
	old, untouched := storetest.OldChoroGames(t), storetest.UntouchedGames()
	for _, g := range append(append([]storetest.OldChoro(nil), old...), untouched...) {
		exec(`INSERT INTO games (id, ruleset, mode, players, plies, turns, result, reason, created, updated)
			VALUES ($1, $2, 'local', '[{"kind":"human","name":"Ama"},{"kind":"human","name":"Kofi"}]', $3, $4, $5, $6, now(), now())`,
			g.ID, g.Ruleset, len(g.Actions), g.Turns, g.Result, g.Reason)
		for _, m := range g.Actions {
			exec(`INSERT INTO actions (game_id, ply, action, side, created) VALUES ($1, $2, $3, $4, now())`, g.ID, m.Ply, m.Action, m.Side.String())
		}
	}
	s := open(t, dsn)
	defer s.Close()
	storetest.CheckOldChoro(t, s, old, untouched)
}
