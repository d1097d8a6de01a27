package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Channel is the PostgreSQL notification channel of game changes.
const Channel = "matombo_games"

// Notifier carries "game id changed, it now has ply actions" between server
// instances that share one database, with PostgreSQL's LISTEN/NOTIFY. Each
// Notifier has an origin id; Listen reports only the notifications of other
// Notifiers, since an instance has told its own clients already. See
// docs/SCALING.md for how the server's hub uses it.
type Notifier struct {
	pool   *pgxpool.Pool
	origin string
	// OnReady, if set before Listen, is called each time the listening
	// connection is ready (after LISTEN).
	OnReady func()
	// OnError, if set before Listen, is told why the listening connection
	// failed, before it reconnects (for the log).
	OnError func(error)
}

// NewNotifier returns a Notifier on pool with a fresh origin id.
func NewNotifier(pool *pgxpool.Pool) *Notifier {
	b := make([]byte, 8)
	rand.Read(b)
	return &Notifier{pool: pool, origin: hex.EncodeToString(b)}
}

// Origin returns the notifier's id, which its notifications carry.
func (n *Notifier) Origin() string { return n.origin }

// Notify tells the other instances that game id now has ply actions. The
// notification is delivered when the statement's transaction commits (here
// at once); it is lost for listeners not connected at that moment.
func (n *Notifier) Notify(ctx context.Context, id string, ply int) error {
	if _, err := n.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, Channel, payload(n.origin, id, ply)); err != nil {
		return fmt.Errorf("postgres: notify game %s: %w", id, err)
	}
	return nil
}

// payload is the text of a notification: "origin id ply" (ids contain no
// spaces).
func payload(origin, id string, ply int) string {
	return origin + " " + id + " " + strconv.Itoa(ply)
}

// parsePayload splits a notification's text; ok is false for a malformed one.
func parsePayload(s string) (origin, id string, ply int, ok bool) {
	f := strings.Fields(s)
	if len(f) != 3 {
		return "", "", 0, false
	}
	ply, err := strconv.Atoi(f[2])
	if err != nil || ply < 0 {
		return "", "", 0, false
	}
	return f[0], f[1], ply, true
}

// Listen calls changed for every notification of another instance until
// ctx ends, on one connection of its own taken from the pool. When that
// connection fails it reconnects, backing off up to 5 s, and then calls
// resync (if not nil): notifications sent while it was down are lost, so
// the listener should refresh every game it has clients for. It returns
// ctx's error. Its signature is app-neutral (no pgx types), so the server
// can take it through an interface of its own.
func (n *Notifier) Listen(ctx context.Context, changed func(id string, ply int), resync func()) error {
	return n.listen(ctx, Channel, func(text string) {
		origin, id, ply, ok := parsePayload(text)
		if ok && origin != n.origin {
			changed(id, ply)
		}
	}, resync)
}

// listen calls got with the text of every notification on channel until
// ctx ends, reconnecting as Listen says.
func (n *Notifier) listen(ctx context.Context, channel string, got func(text string), resync func()) error {
	backoff := 100 * time.Millisecond
	for first := true; ; first = false {
		if !first && resync != nil {
			resync()
		}
		err := n.listenOnce(ctx, channel, got)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if n.OnError != nil {
			n.OnError(err)
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return ctx.Err()
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// listenOnce listens on channel on one connection until it fails or ctx ends.
func (n *Notifier) listenOnce(ctx context.Context, channel string, got func(text string)) error {
	pc, err := n.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// A listening connection must not go back to the pool.
	conn := pc.Hijack()
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	if n.OnReady != nil {
		n.OnReady()
	}
	for {
		note, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		got(note.Payload)
	}
}
