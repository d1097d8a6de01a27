// Package pgtest gives tests a fresh PostgreSQL schema of their own in the
// database named by the environment variable MATOMBO_TEST_POSTGRES (a pgx
// DSN; .ci/run sets it). When the variable is unset, tests are skipped with
// a loud message, except under CI=true, where they fail: CI must run them.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvVar is the environment variable with the test database's DSN.
const EnvVar = "MATOMBO_TEST_POSTGRES"

// DSN returns the test database's DSN from EnvVar, or skips t (fails it
// under CI=true) when the variable is unset.
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvVar)
	if dsn == "" {
		msg := "PostgreSQL TESTS NOT RUN: set " + EnvVar + " to a DSN such as " +
			"postgres://matombo:matombo@127.0.0.1:5432/matombo_test?sslmode=disable (.ci/run does)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI=true requires them")
		}
		t.Skip("\n\n*** " + msg + " ***\n")
	}
	return dsn
}

// Schema creates a fresh schema in the test database, dropped when t ends,
// and returns a DSN whose connections use it (search_path). It skips or
// fails t as DSN does when no database is configured.
func Schema(t testing.TB) string {
	t.Helper()
	dsn := DSN(t)
	b := make([]byte, 6)
	rand.Read(b)
	schema := "matombo_test_" + hex.EncodeToString(b)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("pgtest: connect to %s: %v", EnvVar, err)
	}
	defer conn.Close(context.Background())
	// The schema name is generated here, from hex digits only: not user input.
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("pgtest: create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Errorf("pgtest: connect to drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("pgtest: drop schema %s: %v", schema, err)
		}
	})
	out, err := WithSearchPath(dsn, schema)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// WithSearchPath returns dsn (a URL or a key=value string) with its
// connections' search_path set to schema.
func WithSearchPath(dsn, schema string) (string, error) {
	if !strings.Contains(dsn, "://") {
		return dsn + " search_path=" + schema, nil
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("pgtest: %s is not a valid URL", EnvVar)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), nil
}
