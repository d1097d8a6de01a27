package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"matombo/internal/store/storetest"
)

func TestAccountStore(t *testing.T) {
	storetest.RunAccounts(t, func(t *testing.T) storetest.AccountStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestLobbyStore(t *testing.T) {
	storetest.RunLobby(t, func(t *testing.T) storetest.LobbyStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
