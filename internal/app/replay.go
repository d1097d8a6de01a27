package app

import (
	"context"

	"matombo/mancala"
)

// ReplayStep is one action of a replay with its animation.
type ReplayStep struct {
	Action   string      `json:"action"`
	By       string      `json:"by"`
	Events   []EventView `json:"events"`
	Position string      `json:"position"`
	TurnEnd  bool        `json:"turn_end"` // the action ended its turn: Position is at the start of the next
	Decision string      `json:"decision"` // the decision that follows, as in the game view (decision "start" at a turn end)
	Pending  string      `json:"pending"`  // mid-turn: what the decision that follows is, for people; "" at a turn end
	Turn     int         `json:"turn"`     // the index in the replay's Moves of the action's turn
}

// ReplayView is a stored game for the replay page.
type ReplayView struct {
	ID      string            `json:"id"`
	Ruleset string            `json:"ruleset"`
	Start   string            `json:"start"`
	Players map[string]Player `json:"players"`
	Result  string            `json:"result"`
	Reason  string            `json:"reason"`
	Headers []Header          `json:"headers,omitempty"` // an imported record's headers, in its order
	Actions []ReplayStep      `json:"actions"`
	Moves   []TurnView        `json:"moves"`                    // the turns as the record writes them
	Hidden  bool              `json:"opening_hidden,omitempty"` // South's secret opening choice is left out
	RuleFacts
}

// Header is one header line of an imported record, such as Event or Date.
type Header struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Replay returns game id action by action with events and positions,
// without South's secret opening choice (played.record).
func (s *Service) Replay(ctx context.Context, id string) (*ReplayView, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	g := p.g
	v := &ReplayView{ID: g.ID, Ruleset: g.Ruleset, Result: g.Result, Reason: g.Reason,
		Players: map[string]Player{"S": g.Players[0], "N": g.Players[1]}, Actions: []ReplayStep{}, RuleFacts: RuleFactsOf(p.state())}
	for _, t := range g.Headers {
		v.Headers = append(v.Headers, Header{Key: t.Key, Value: t.Value})
	}
	if v.Start, err = StartPositionOf(g); err != nil {
		return nil, err
	}
	rec, hidden := p.record()
	v.Moves, v.Hidden = turnViews(rec), hidden != ""
	turn := 0
	err = traced(g, 0, func(t *tracedStep) {
		if t.hidden {
			return
		}
		end := t.after.AtTurnStart() || t.after.IsOver()
		v.Actions = append(v.Actions, ReplayStep{Action: t.a.String(), By: t.by.String(), Events: t.events(), Position: t.after.Position(), TurnEnd: end, Turn: turn,
			Decision: decisionOf(t.after), Pending: t.after.Pending()})
		if end {
			turn++
		}
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// StartPositionOf returns the position game g starts from.
func StartPositionOf(g *Game) (string, error) {
	st, err := startState(g.Ruleset, g.Start)
	if err != nil {
		return "", err
	}
	return st.Position(), nil
}

// traced replays g from its start, tracing the actions from ply from on:
// visit gets each with its side, its events and the state after it.
func traced(g *Game, from int, visit func(t *tracedStep)) error {
	st, err := startState(g.Ruleset, g.Start)
	if err != nil {
		return err
	}
	var evs []mancala.Event
	var prev mancala.Action
	for i, m := range g.Actions {
		a, err := mancala.ParseAction(m.Action)
		if err != nil {
			return Errorf(EInternal, "stored game %s: %v", g.ID, err)
		}
		by := st.ToMove()
		var south mancala.Action
		if st.OpeningChoiceHidden() {
			south = prev
		}
		if i < from {
			err = st.Apply(a)
		} else {
			evs, err = st.ApplyTraced(a, evs[:0])
		}
		if err != nil {
			return Errorf(EInternal, "stored game %s does not replay at ply %d: %v", g.ID, i, err)
		}
		if i >= from {
			visit(&tracedStep{a: a, by: by, evs: evs, after: st, south: south, hidden: i == len(g.Actions)-1 && openingHidden(g, st)})
		}
		prev = a
	}
	return nil
}
