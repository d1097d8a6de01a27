package postgres

import (
	"testing"

	"matombo/internal/store/postgres/pgtest"
	"matombo/internal/store/storetest"
)

func TestPuzzleStore(t *testing.T) {
	pgtest.DSN(t) // skip (or fail under CI) once, not per subtest
	storetest.RunPuzzles(t, func(t *testing.T) storetest.PuzzleStore { return open(t, pgtest.Schema(t)) })
}
