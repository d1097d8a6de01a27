package app

import (
	"strings"
	"time"

	"matombo/internal/rulefacts"
	"matombo/mancala"
)

// GameView is a game as clients see it (the JSON of /api/games/{id}, see
// docs/API.md).
type GameView struct {
	ID           string            `json:"id"`
	Ruleset      string            `json:"ruleset"`
	RulesetTitle string            `json:"ruleset_title"`
	Game         string            `json:"game"`
	Size         int               `json:"size"`
	Mode         string            `json:"mode"`
	Created      time.Time         `json:"created"`
	Updated      time.Time         `json:"updated"`
	Status       string            `json:"status"` // "playing" or "over"
	Position     string            `json:"position"`
	ToMove       string            `json:"to_move"`
	Ply          int               `json:"ply"`
	Board        Board             `json:"board"`
	Stones       map[string]int    `json:"stones"`
	Legal        []string          `json:"legal"`
	Pending      string            `json:"pending"`
	Decision     string            `json:"decision"`
	Turns        [][]string        `json:"turns"`
	FirstToMove  string            `json:"first_to_move"` // the side of the first turn: the start position's side to move
	Moves        []TurnView        `json:"moves"`         // the turns as the record writes them
	Record       string            `json:"record"`
	Result       string            `json:"result"`
	Reason       string            `json:"reason"`
	Players      map[string]Player `json:"players"`
	Seated       map[string]bool   `json:"seated"` // whether a side has a human seat (a friend has joined)
	Rematch      string            `json:"rematch"`
	Thinking     bool              `json:"thinking"` // the AI has the decision
	// OpeningHidden: South's choice of the simultaneous Choro opening is
	// made and held secret until North has chosen (see docs/API.md): the
	// view leaves it out.
	OpeningHidden bool `json:"opening_hidden"`
	// OpeningChoice is South's secret choice, in the view of a seat allowed
	// to see it only (played.choiceFor).
	OpeningChoice string `json:"opening_choice,omitempty"`
	You           string `json:"you"`
	// PendingHole is the hole a mid-turn decision is about: the head of a
	// "head" decision, the hole the next lap lifts in a "direction"
	// decision; "" otherwise.
	PendingHole string `json:"pending_hole"`
	// Clock is the game's clocks, or for a game without one the rule
	// that ends it when nobody acts (clock.go); nil in a bare position.
	Clock *ClockView `json:"clock,omitempty"`
	// Offers is what the players may offer or answer (offers.go).
	Offers *OffersView `json:"offers,omitempty"`
	// Takebacks counts the takebacks accepted: a view with more is newer
	// than one with fewer, whatever their plies.
	Takebacks int `json:"takebacks"`
	RuleFacts
}

// RuleFacts are the facts of a game's rules the pages draw and explain with
// (package rulefacts), embedded in the views.
type RuleFacts = rulefacts.Facts

// RuleFactsOf returns the rule facts of the game s plays.
func RuleFactsOf(s *mancala.State) RuleFacts { return rulefacts.Of(s) }

// Board is the board of a view (rulefacts.Board).
type Board = rulefacts.Board

// EventView is one step of an action for animation.
type EventView struct {
	Kind      string `json:"kind"` // "sow", "take", "move" or "lap-limit"
	From      string `json:"from"`
	To        string `json:"to"`
	Stones    int    `json:"stones"`
	Clockwise bool   `json:"clockwise"`
	Action    string `json:"action"`
	By        string `json:"by"`
	Step      int    `json:"step,omitempty"` // the lockstep step of the simultaneous Choro opening, from 1; 0 elsewhere
}

// eventViews returns the views of the events evs of action a by side by.
// The events of the simultaneous Choro opening (North's choice, which sows
// both openings) belong to the side whose opening they are in: South's to
// South and its choice south.
func eventViews(evs []mancala.Event, a mancala.Action, by mancala.Player, south mancala.Action) []EventView {
	out := make([]EventView, len(evs))
	for i, e := range evs {
		act, side := a, by
		if e.Step > 0 && eventSide(e) == mancala.South {
			act, side = south, mancala.South
		}
		out[i] = EventView{Kind: e.Kind.String(), From: e.From.String(), To: e.To.String(),
			Stones: e.Stones, Clockwise: e.Clockwise, Action: act.String(), By: side.String(), Step: e.Step}
	}
	return out
}

// eventSide returns the side whose action made e: the sower of a lap, the
// capturer of a capture (into its lap's origin, or off the opponent's side).
func eventSide(e mancala.Event) mancala.Player {
	switch e.Kind {
	case mancala.EventMove, mancala.EventLapLimit:
		return e.To.Row().Owner()
	case mancala.EventTake:
		return e.From.Row().Owner().Other()
	}
	return e.From.Row().Owner()
}

// titles names the games for people.
var titles = map[mancala.Game]string{
	mancala.Tsoro:       "Tsoro",
	mancala.MisoroTsoro: "Misoro Tsoro",
	mancala.MusoroTsoro: "Musoro Tsoro",
	mancala.Nsolo:       "Nsolo",
	mancala.Choro:       "Choro",
}

// decisionOf names the kind of decision s waits for (mancala.DecisionKind's
// names); South's choice of the simultaneous Choro opening is "opening" as
// North's is, though for the engine it starts a turn.
func decisionOf(s *mancala.State) string {
	k := s.Decision().Kind
	if k == mancala.DecisionTurn && s.InSimultaneousOpening() {
		return mancala.DecisionOpening.String()
	}
	return k.String()
}

// legalStrings returns the legal actions of s sorted as strings, [] when over.
func legalStrings(s *mancala.State) []string {
	acts := s.Legal(nil)
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = a.String()
	}
	mancala.SortActionStrings(out)
	return out
}

// positionView fills the board fields of v from s.
func positionView(v *GameView, s *mancala.State) {
	rs := s.Ruleset()
	v.Ruleset = rs.String()
	v.RulesetTitle = titles[rs.Game]
	v.Game = rs.Game.String()
	v.Size = s.Size()
	v.Position = s.Position()
	v.ToMove = s.ToMove().String()
	v.Board = rulefacts.BoardOf(s)
	v.Stones = map[string]int{"S": s.Stones(mancala.South), "N": s.Stones(mancala.North)}
	v.Legal = legalStrings(s)
	v.Pending = s.Pending()
	v.Decision = decisionOf(s)
	if h := s.Decision().Hole; h != 0 {
		v.PendingHole = h.String()
	}
	v.RuleFacts = RuleFactsOf(s)
	v.FirstToMove = v.ToMove
	if s.IsOver() {
		v.Result = s.Outcome().Result.String()
		v.Reason = s.Outcome().Reason.String()
		v.Status = "over"
	} else {
		v.Result = "*"
		v.Status = "playing"
	}
}

// PositionView returns a view of a bare position (the position viewer).
func PositionView(ruleset, position string) (*GameView, error) {
	s, err := startState(ruleset, position)
	if err != nil {
		return nil, err
	}
	v := &GameView{Turns: [][]string{}, Moves: []TurnView{}, Players: map[string]Player{}, Seated: map[string]bool{}}
	positionView(v, s)
	return v, nil
}

// played is a stored game replayed: the state and its record.
type played struct {
	g     *Game
	rec   *mancala.Recorder
	clock Clock // the time of the views' clocks; nil: the real time
}

func (p *played) state() *mancala.State { return p.rec.State() }

// replay rebuilds the game g from its stored actions.
func replay(g *Game) (*played, error) {
	s, err := startState(g.Ruleset, g.Start)
	if err != nil {
		return nil, err
	}
	rec, err := mancala.NewRecorder(s)
	if err != nil {
		return nil, err
	}
	for _, m := range g.Actions {
		a, err := mancala.ParseAction(m.Action)
		if err == nil {
			err = rec.Apply(a)
		}
		if err != nil {
			return nil, Errorf(EInternal, "stored game %s does not replay at ply %d: %v", g.ID, m.Ply, err)
		}
	}
	if g.Over() && !s.IsOver() {
		// Ended outside the rules (resigned, imported with a result).
		if r, err := mancala.ParseResult(g.Result); err == nil {
			rec.SetResult(r)
		}
	}
	p := &played{g: g, rec: rec}
	// An imported record keeps its own headers in their order, its Date
	// and Site included (the names as the players are named now); a game
	// played here gets the day it began and its address. Room is kept for
	// those four within mancala.MaxHeaders, which Import checked: only a
	// game stored with more headers (imported before the limit) loses the
	// last of its others, so that its export imports again.
	room := mancala.MaxHeaders - 2 - 4 // Ruleset, Result; South, North, Date, Site
	if g.Start != "" {
		room-- // Position
	}
	for _, t := range g.Headers {
		switch t.Key {
		case "South", "North", "Date", "Site":
			rec.SetTag(t.Key, t.Value)
		default:
			if room > 0 && rec.SetTag(t.Key, t.Value) == nil {
				room--
			}
		}
	}
	for i, name := range []string{"South", "North"} {
		if n := g.Players[i].Name; n != "" {
			rec.SetTag(name, n)
		}
	}
	if _, ok := rec.Tag("Date"); !ok {
		rec.SetTag("Date", g.Created.UTC().Format("2006.01.02"))
	}
	if _, ok := rec.Tag("Site"); !ok {
		rec.SetTag("Site", "matombo "+g.ID)
	}
	return p, nil
}

func startState(ruleset, start string) (*mancala.State, error) {
	rs, err := mancala.ParseRuleset(ruleset)
	if err != nil {
		return nil, Errorf(EInvalid, "%s", mancala.Message(err))
	}
	s, err := mancala.NewGame(rs)
	if err != nil {
		return nil, Errorf(EInvalid, "%s", mancala.Message(err))
	}
	if start != "" {
		if err := s.SetPosition(start); err != nil {
			return nil, Errorf(EInvalid, "%s", mancala.Message(err))
		}
	}
	return s, nil
}

// view returns the view of p for a viewer seated at you ("" for none).
func (p *played) view(you string) *GameView {
	g, s := p.g, p.state()
	v := &GameView{ID: g.ID, Mode: g.Mode, Created: g.Created, Updated: g.Updated,
		Ply: len(g.Actions), Rematch: g.Rematch, Thinking: aiToMove(p), You: you}
	positionView(v, s)
	v.Result, v.Reason = g.Result, g.Reason
	if g.Over() {
		v.Status = "over"
		v.Decision = "over"
		v.Legal = []string{}
		v.Pending = ""
		v.PendingHole = ""
	} else {
		v.Status = "playing"
	}
	rec, hidden := p.record()
	v.OpeningHidden = hidden != ""
	v.OpeningChoice = p.choiceFor(you)
	v.Moves = turnViews(rec)
	v.FirstToMove = firstToMove(rec.Position)
	v.Turns = make([][]string, len(rec.Turns))
	for i, t := range rec.Turns {
		v.Turns[i] = make([]string, len(t))
		for j, a := range t {
			v.Turns[i][j] = a.String()
		}
	}
	v.Record = rec.String()
	v.Players = map[string]Player{"S": g.Players[0], "N": g.Players[1]}
	now := time.Now()
	if p.clock != nil {
		now = p.clock.Now()
	}
	v.Clock = p.clockView(now)
	v.Offers = p.offers()
	v.Takebacks = g.Takebacks
	v.Seated = map[string]bool{"S": false, "N": false}
	for _, st := range g.Seats {
		v.Seated[st.Side.String()] = true
	}
	for i, pl := range g.Players {
		if pl.Kind == KindAI {
			v.Seated[sideName(i)] = true
		}
	}
	return v
}

// firstToMove returns the side to move in the start position pos, written
// as RULES.md §5 has it ("rows S", "rows N opening"): South for "" (the
// ruleset's own start).
func firstToMove(pos string) string {
	if f := strings.Fields(pos); len(f) >= 2 && f[1] == mancala.North.String() {
		return mancala.North.String()
	}
	return mancala.South.String()
}

func sideName(i int) string { return mancala.Player(i).String() }
