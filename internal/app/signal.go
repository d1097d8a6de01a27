package app

import "context"

// Signal is a note between the server instances sharing a store about
// what the store does not keep as a game change: the lobby's challenges
// changed, who is connected to a game, a player's quick message. Kind
// says which fields it carries.
type Signal struct {
	Kind   string // one of the Signal* kinds
	ID     string // a challenge's id (SignalChallenge) or a game's
	Seats  string // SignalPresence: the sides with a socket on the sender: "", "S", "N" or "SN"
	Side   string // SignalSay: the sender's side
	Say    string // SignalSay: the quick message's id
	Origin string // the sending instance: set by the carrier on receipt
}

// The kinds of Signal.
const (
	SignalChallenge = "challenge" // challenge ID changed: reload it
	SignalPresence  = "presence"  // the sender's sockets of game ID hold Seats
	SignalAsk       = "ask"       // the sender watches game ID: tell it your presence there
	SignalSay       = "say"       // a player of game ID said Say
	SignalAlive     = "alive"     // the sender is alive (its presence notes stand)
	SignalBye       = "bye"       // the sender stops: forget its presence notes
)

// Signals carries Signals between the instances sharing a store
// (postgres.Notifier is one); nil for a single instance. A signal may be
// lost (an instance not listening at that moment): what depends on one
// is kept elsewhere too (challenges are stored) or refreshed (presence is
// asked again after resync).
type Signals interface {
	// Signal sends s to the other instances.
	Signal(ctx context.Context, s Signal) error
	// ListenSignals calls got for every signal of another instance, and
	// resync when signals may have been lost, until ctx ends.
	ListenSignals(ctx context.Context, got func(Signal), resync func()) error
}
