package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"matombo/internal/app"
)

// SignalChannel is the PostgreSQL notification channel of app.Signals:
// the lobby's challenges, presence and quick messages.
const SignalChannel = "matombo_signals"

var _ app.Signals = (*Notifier)(nil)

// wireSignal is a signal's notification text (JSON).
type wireSignal struct {
	Origin string `json:"o"`
	Kind   string `json:"k"`
	ID     string `json:"id,omitempty"`
	Seats  string `json:"seats,omitempty"`
	Side   string `json:"side,omitempty"`
	Say    string `json:"say,omitempty"`
}

// maxSignal bounds a signal's text (PostgreSQL's limit is 8000 bytes).
const maxSignal = 1000

// Signal implements app.Signals with pg_notify on SignalChannel.
func (n *Notifier) Signal(ctx context.Context, s app.Signal) error {
	data, _ := json.Marshal(wireSignal{Origin: n.origin, Kind: s.Kind, ID: s.ID, Seats: s.Seats, Side: s.Side, Say: s.Say}) // strings only: no error
	if len(data) > maxSignal {
		return fmt.Errorf("postgres: a %s signal of %d bytes is too long (at most %d)", s.Kind, len(data), maxSignal)
	}
	if _, err := n.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, SignalChannel, string(data)); err != nil {
		return fmt.Errorf("postgres: signal %s: %w", s.Kind, err)
	}
	return nil
}

// ListenSignals implements app.Signals: like Listen, on a connection of
// its own, it reports the signals of the other instances; malformed
// notifications are ignored.
func (n *Notifier) ListenSignals(ctx context.Context, got func(app.Signal), resync func()) error {
	return n.listen(ctx, SignalChannel, func(text string) {
		var w wireSignal
		if json.Unmarshal([]byte(text), &w) != nil || w.Kind == "" || w.Origin == n.origin {
			return
		}
		got(app.Signal{Kind: w.Kind, ID: w.ID, Seats: w.Seats, Side: w.Side, Say: w.Say, Origin: w.Origin})
	}, resync)
}
