package server

import (
	"encoding/json"

	"matombo/internal/app"
)

// A live update carries what changed, not the whole game: the view's fields
// that change with a move (the position, the board, the legal actions, the
// players and seats, the status), the turns from the one holding the last
// action the client has, and the events of the new actions. It leaves out
// the fields that stay the same for a game's life (keptFields) and the
// record, which grows with the game (GET /api/games/{id}/record has it).
// Its size depends on the board, not on the game's length.
//
// The update names its base, the ply of the view it changes: the view the
// server sent this connection last. A client that holds another view (it
// missed one, or never had one) asks for the full view with a hello, and
// the state it gets back carries the events since its ply; a client that
// reconnects gets a full view too. See docs/API.md.

// keptFields are the JSON fields of app.GameView that a game keeps for its
// life: the client keeps them from the full view. static/js/live.js lists
// the same (a test checks it).
var keptFields = []string{
	"ruleset", "ruleset_title", "game", "size", "mode", "created", "first_to_move",
	"special_holes", "sides", "simultaneous_opening",
}

// grownFields are the fields a live update leaves out because they grow
// with the game: the client drops them from the views it builds.
var grownFields = []string{"record"}

// change is the wire form of a live update that changes the view at ply
// Base (a full update is a serverMsg with its Game).
type change struct {
	Type      string          `json:"type"` // "update"
	Base      int             `json:"base"`
	TurnsFrom int             `json:"turns_from"` // the turns and moves of Game start at this turn
	Game      json.RawMessage `json:"game"`       // the view without keptFields and grownFields
	Events    []app.EventView `json:"events,omitempty"`
}

// turnsFrom returns the index of the turn of turns holding action number
// base-1 (the last one a view at ply base has): the turns before it are
// the same in every view from base on. A base at the start gives 0; a
// last action not in turns (South's hidden opening choice) gives the turns'
// number.
func turnsFrom(turns [][]string, base int) int {
	n := 0
	for i, t := range turns {
		n += len(t)
		if n >= base {
			return i
		}
	}
	return len(turns)
}

// encodeChange returns the update from the view at ply base to v, with the
// events evs, as sent; ok is false when base is not a view v follows (then
// the full view is sent).
func encodeChange(v *app.GameView, evs []app.EventView, base int) (data []byte, ok bool) {
	if base < 0 || base > v.Ply {
		return nil, false
	}
	k := turnsFrom(v.Turns, base)
	part := *v
	part.Turns = v.Turns[k:]
	if k <= len(v.Moves) {
		part.Moves = v.Moves[k:]
	}
	full, err := json.Marshal(&part)
	if err != nil {
		return nil, false
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(full, &fields); err != nil {
		return nil, false
	}
	for _, f := range keptFields {
		delete(fields, f)
	}
	for _, f := range grownFields {
		delete(fields, f)
	}
	game, err := json.Marshal(fields)
	if err != nil {
		return nil, false
	}
	data, err = json.Marshal(change{Type: "update", Base: base, TurnsFrom: k, Game: game, Events: evs})
	return data, err == nil
}
