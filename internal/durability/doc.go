// Package durability holds the crash test of the web app (its tests only):
// it builds the real matombo binary, plays games through `matombo serve`
// over HTTP, kills the process with SIGKILL at random moments and restarts
// it, and checks that every action the server acknowledged is stored and
// that every stored game replays legally, on SQLite and, when
// MATOMBO_TEST_POSTGRES names a database, on PostgreSQL. On PostgreSQL it
// also runs two `matombo serve` processes on one database and checks that
// every action reaches the WebSocket clients of both and that two actions
// of one ply sent at once, one to each instance, never both apply.
package durability
