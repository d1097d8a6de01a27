package postgres

import (
	"testing"

	"matombo/internal/store/postgres/pgtest"
	"matombo/internal/store/storetest"
)

func TestAccountStore(t *testing.T) {
	pgtest.DSN(t) // skip (or fail under CI) once, not per subtest
	storetest.RunAccounts(t, func(t *testing.T) storetest.AccountStore { return open(t, pgtest.Schema(t)) })
}

func TestLobbyStore(t *testing.T) {
	pgtest.DSN(t) // skip (or fail under CI) once, not per subtest
	storetest.RunLobby(t, func(t *testing.T) storetest.LobbyStore { return open(t, pgtest.Schema(t)) })
}
