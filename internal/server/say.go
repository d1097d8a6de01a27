package server

import (
	"slices"
	"strings"
	"time"

	"matombo/internal/app"
)

// Quick messages between the two players of a game: ids from a fixed
// list, which the pages show in the reader's language, never free text,
// so nothing needs moderation. A player's socket sends {"type":"say",
// "say":"good_luck"}; every player socket of the game, on any instance,
// gets {"type":"say","by":"S","say":"good_luck"}. Spectators neither send
// nor see them: the messages are between the players. They are not
// stored: a player not connected at that moment does not see them.

// quickMessages are the ids of the quick messages, in the order the
// pages offer them.
var quickMessages = []string{"good_luck", "well_played", "thank_you", "good_game"}

// The quick messages one side of a game may send.
const (
	saysPerSide = 6
	sayWindow   = time.Minute
)

// say sends quick message msg of side (the sender's seat, "" for a
// spectator) to the players of game id.
func (s *Server) say(id, side, msg string) error {
	if side == "" {
		return app.Errorf(app.EForbidden, "only the players send quick messages; you are watching game %s", id)
	}
	if !slices.Contains(quickMessages, msg) {
		return app.Errorf(app.EInvalid, "quick message %q is not one of %s", printable(msg), strings.Join(quickMessages, ", "))
	}
	if ok, retry, _ := s.says.allow(id+" "+side, time.Now()); !ok {
		secs := int((retry + time.Second - 1) / time.Second)
		return app.Errorf(app.ERateLimited, "too many quick messages: %d a minute from one side of a game; retry in %d s", saysPerSide, secs)
	}
	s.hub.sendGame(id, serverMsg{Type: "say", By: side, Say: msg}, true)
	s.signal(app.Signal{Kind: app.SignalSay, ID: id, Side: side, Say: msg})
	return nil
}
