package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"matombo/internal/store/storetest"
)

func TestPuzzleStore(t *testing.T) {
	storetest.RunPuzzles(t, func(t *testing.T) storetest.PuzzleStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
