// Package durability holds the crash test of the web app (its tests only):
// it builds the real matombo binary, plays games through `matombo serve`
// over HTTP, kills the process with SIGKILL at random moments and restarts
// it, and checks that every action the server acknowledged is stored and
// that every stored game replays legally, on SQLite and, when
// MATOMBO_TEST_POSTGRES names a database, on PostgreSQL.
package durability
