package app

import (
	"errors"

	"matombo/mancala"
)

// PositionCheck is the engine's verdict on a ruleset and a position, for the
// board editor (GET /api/position/check, docs/API.md): whether the position
// can be set under the ruleset and, when it cannot, which of the two is at
// fault and why, in the engine's words.
type PositionCheck struct {
	Valid bool `json:"valid"`
	// Field is the input at fault when the check fails: "ruleset" or
	// "position".
	Field string `json:"field,omitempty"`
	// Error says what is wrong: the reason of the engine's
	// *mancala.PositionError for a position (without the position echoed
	// back), the engine's message for a ruleset.
	Error string `json:"error,omitempty"`
	// Ruleset is the ruleset written canonically, when it is valid.
	Ruleset string `json:"ruleset,omitempty"`
	// Start is the start position of the ruleset, when it is valid.
	Start string `json:"start,omitempty"`
	// View is the position as a game view (PositionView's), when valid.
	View *GameView `json:"view,omitempty"`
}

// CheckPosition checks position under ruleset with the engine. An empty
// position is the ruleset's start. A refused ruleset or position is a
// verdict (Valid false), not an error: the editor shows it while the
// position is being set up.
func CheckPosition(ruleset, position string) PositionCheck {
	rs, err := mancala.ParseRuleset(ruleset)
	if err != nil {
		return PositionCheck{Field: "ruleset", Error: mancala.Message(err)}
	}
	s, err := mancala.NewGame(rs)
	if err != nil {
		return PositionCheck{Field: "ruleset", Error: mancala.Message(err)}
	}
	c := PositionCheck{Ruleset: rs.String(), Start: s.Position()}
	if position != "" {
		if err := s.SetPosition(position); err != nil {
			c.Field, c.Error = "position", mancala.Message(err)
			var pe *mancala.PositionError
			if errors.As(err, &pe) {
				c.Error = pe.Reason
			}
			return c
		}
	}
	v := &GameView{Turns: [][]string{}, Moves: []TurnView{}, Players: map[string]Player{}, Seated: map[string]bool{}}
	positionView(v, s)
	c.Valid, c.View = true, v
	return c
}
