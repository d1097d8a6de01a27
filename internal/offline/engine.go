// Package offline is the engine of the offline page: one game against the
// computer, played by the rules core (package mancala) and the playing
// levels (package search), recorded with mancala.Recorder. It is compiled to
// WebAssembly (cmd/matombo-wasm) and run in a Web Worker, so the browser
// plays with the same rules and the same search as the server; the page only
// draws what Engine answers and sends what the player picks.
//
// Engine speaks JSON (Handle): one request object in, one answer out, so the
// WebAssembly glue is a single function. The requests are
//
//	{"op":"presets"}                                           the preset rulesets
//	{"op":"new","ruleset":"tsoro size=6","level":3,"human":"S","seed":7,"date":"2026.12.01"}
//	{"op":"play","action":"a3"}                                the player's action
//	{"op":"ai"}                                                the computer's next decision
//	{"op":"resign"}                                            the player resigns
//	{"op":"view"}                                              the game as it stands
//
// and every answer is an Answer: the view of the game after the request,
// the events of an action played, or an error naming what was wrong.
package offline

import (
	"context"
	"encoding/json"
	"fmt"
	"matombo/internal/rulefacts"
	"strings"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// Request is one request to the engine.
type Request struct {
	Op      string `json:"op"`
	Ruleset string `json:"ruleset,omitempty"`
	Level   int    `json:"level,omitempty"`
	Human   string `json:"human,omitempty"` // "S" or "N": the player's side
	Seed    uint64 `json:"seed,omitempty"`
	Date    string `json:"date,omitempty"` // the record's Date header, "YYYY.MM.DD"
	Action  string `json:"action,omitempty"`
}

// Answer is the engine's answer to a request.
type Answer struct {
	OK      bool     `json:"ok"`
	Error   string   `json:"error,omitempty"`
	View    *View    `json:"view,omitempty"`
	Events  []Event  `json:"events,omitempty"`  // what the action played did on the board
	Action  string   `json:"action,omitempty"`  // the action played (play, ai)
	By      string   `json:"by,omitempty"`      // the side that played it
	Ms      float64  `json:"ms,omitempty"`      // ai: the time the decision took
	Presets []Preset `json:"presets,omitempty"` // presets
}

// Preset is a preset ruleset for the new-game form.
type Preset struct {
	Ruleset string   `json:"ruleset"`
	Game    string   `json:"game"`
	Title   string   `json:"title"`
	Options []string `json:"options"` // "key: allowed values (default d)"
}

// View is the game as the page draws it (the fields it shares with the
// server's game view have the same names and meaning, see docs/API.md).
type View struct {
	Ruleset     string           `json:"ruleset"`
	Title       string           `json:"ruleset_title"`
	Game        string           `json:"game"`
	Size        int              `json:"size"`
	Level       int              `json:"level"`
	Human       string           `json:"human"`
	Status      string           `json:"status"` // "playing" or "over"
	Position    string           `json:"position"`
	ToMove      string           `json:"to_move"`
	Board       Board            `json:"board"`
	Stones      map[string]int   `json:"stones"`
	Legal       []string         `json:"legal"`
	Pending     string           `json:"pending"`
	Decision    string           `json:"decision"`
	Turns       [][]string       `json:"turns"`
	Moves       []rulefacts.Turn `json:"moves"` // the turns as the record writes them (a6|d3)
	FirstToMove string           `json:"first_to_move"`
	Record      string           `json:"record"`
	Result      string           `json:"result"`
	Reason      string           `json:"reason"`
	Thinking    bool             `json:"thinking"` // the computer has the decision
	// Facts are the rule facts the board draws with, as in the server's
	// views: special_holes, sides, simultaneous_opening.
	rulefacts.Facts
}

// Board is each row's counts from column 1, and the heads, as in the
// server's views.
type Board = rulefacts.Board

// Event is one step of an action, for the board's animation.
type Event struct {
	Kind      string `json:"kind"` // "sow", "take", "move" or "lap-limit"
	From      string `json:"from"`
	To        string `json:"to"`
	Stones    int    `json:"stones"`
	Clockwise bool   `json:"clockwise"`
	Step      int    `json:"step,omitempty"`
	Action    string `json:"action"`
	By        string `json:"by"`
}

// Engine holds one game against the computer. It is not safe for
// concurrent use (the worker runs one request at a time).
type Engine struct {
	rec    *mancala.Recorder
	level  int
	human  mancala.Player
	ai     *search.LevelPlayer
	events []mancala.Event // reused between actions
}

// titles names the games for people.
var titles = map[mancala.Game]string{
	mancala.Tsoro:       "Tsoro",
	mancala.MisoroTsoro: "Misoro Tsoro",
	mancala.MusoroTsoro: "Musoro Tsoro",
	mancala.Nsolo:       "Nsolo",
	mancala.Choro:       "Choro",
}

// Handle answers one JSON request with one JSON answer. It never fails:
// a bad request gets an answer with OK false and an Error.
func (e *Engine) Handle(request []byte) []byte {
	var req Request
	var ans Answer
	dec := json.NewDecoder(strings.NewReader(string(request)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		ans.Error = "offline engine: bad request: " + err.Error()
	} else {
		ans = e.Do(req)
	}
	out, err := json.Marshal(ans)
	if err != nil {
		// An Answer holds only strings, numbers and lists of them.
		out = []byte(`{"ok":false,"error":"offline engine: the answer could not be encoded"}`)
	}
	return out
}

// Do answers one request.
func (e *Engine) Do(req Request) Answer {
	var ans Answer
	var err error
	switch req.Op {
	case "presets":
		ans.Presets = presets()
	case "new":
		err = e.newGame(req)
	case "play":
		ans, err = e.play(req.Action)
	case "ai":
		ans, err = e.move()
	case "resign":
		err = e.resign()
	case "view":
		if e.rec == nil {
			err = fmt.Errorf("no game yet: start one with op new")
		}
	case "":
		err = fmt.Errorf("the request has no op; ops are presets, new, play, ai, resign, view")
	default:
		err = fmt.Errorf("op %q does not exist; ops are presets, new, play, ai, resign, view", req.Op)
	}
	if err != nil {
		return Answer{Error: mancala.Message(err)}
	}
	ans.OK = true
	if e.rec != nil && req.Op != "presets" {
		ans.View = e.view()
	}
	return ans
}

func presets() []Preset {
	var out []Preset
	for _, rs := range mancala.Presets() {
		out = append(out, Preset{Ruleset: rs.String(), Game: rs.Game.String(), Title: titles[rs.Game],
			Options: mancala.OptionHelp(rs.Game)})
	}
	return out
}

// newGame starts a game of req.Ruleset against level req.Level.
func (e *Engine) newGame(req Request) error {
	rs, err := mancala.ParseRuleset(req.Ruleset)
	if err != nil {
		return err
	}
	var human mancala.Player
	switch req.Human {
	case "S", "":
		human = mancala.South
	case "N":
		human = mancala.North
	default:
		return fmt.Errorf("human %q is not a side; use S or N", req.Human)
	}
	if req.Level < search.MinLevel || req.Level > OfflineMaxLevel {
		return fmt.Errorf("level %d cannot be played offline; levels are %d to %d", req.Level, search.MinLevel, OfflineMaxLevel)
	}
	ai, err := search.NewLevel(req.Level, req.Seed)
	if err != nil {
		return err
	}
	s, err := mancala.NewGame(rs)
	if err != nil {
		return err
	}
	rec, err := mancala.NewRecorder(s)
	if err != nil {
		return err
	}
	computer := fmt.Sprintf("Computer (level %d)", req.Level)
	names := map[mancala.Player]string{human: "You", human.Other(): computer}
	tags := [][2]string{{"Event", "Offline game"}, {"Site", "matombo offline"},
		{"South", names[mancala.South]}, {"North", names[mancala.North]}}
	if req.Date != "" {
		tags = append(tags, [2]string{"Date", req.Date})
	}
	for _, t := range tags {
		if err := rec.SetTag(t[0], t[1]); err != nil {
			return err
		}
	}
	*e = Engine{rec: rec, level: req.Level, human: human, ai: ai}
	return nil
}

// OfflineMaxLevel is the strongest level the offline page offers: levels 1
// to 6 are limited by nodes and play in a single browser thread; 7 and 8
// rely on a server's cores.
const OfflineMaxLevel = 6

// play applies the player's action.
func (e *Engine) play(text string) (Answer, error) {
	if e.rec == nil {
		return Answer{}, fmt.Errorf("no game yet: start one with op new")
	}
	s := e.rec.State()
	if s.IsOver() || e.resigned() {
		return Answer{}, fmt.Errorf("the game is over; start a new one")
	}
	if s.ToMove() != e.human {
		return Answer{}, fmt.Errorf("it is the computer's decision, not yours; ask it with op ai")
	}
	a, err := mancala.ParseAction(text)
	if err != nil {
		return Answer{}, err
	}
	return e.apply(a)
}

// move lets the computer take its next decision.
func (e *Engine) move() (Answer, error) {
	if e.rec == nil {
		return Answer{}, fmt.Errorf("no game yet: start one with op new")
	}
	s := e.rec.State()
	if s.IsOver() || e.resigned() {
		return Answer{}, fmt.Errorf("the game is over; start a new one")
	}
	if s.ToMove() == e.human {
		return Answer{}, fmt.Errorf("it is your decision, not the computer's")
	}
	start := time.Now()
	var a mancala.Action
	var err error
	if s.OpeningChoiceHidden() {
		a = openingReply(s.BeforeOpeningChoice(), s.Legal(nil))
	} else {
		a, err = e.ai.Choose(context.Background(), s.Clone(), search.Limits{})
	}
	if err != nil {
		return Answer{}, err
	}
	ms := float64(time.Since(start).Microseconds()) / 1000
	ans, err := e.apply(a)
	ans.Ms = ms
	return ans, err
}

// apply plays a through the recorder and traces its events. South's hidden
// choice of the simultaneous Choro opening has no events of its own: North's
// choice sows both openings, and the events of South's opening are South's.
func (e *Engine) apply(a mancala.Action) (Answer, error) {
	s := e.rec.State()
	by := s.ToMove()
	south := a
	if s.OpeningChoiceHidden() {
		if turns := e.rec.Record().Turns; len(turns) > 0 && len(turns[len(turns)-1]) > 0 {
			south = turns[len(turns)-1][0]
		}
	}
	before := s.Clone()
	traced, err := before.ApplyTraced(a, e.events[:0])
	if err != nil {
		return Answer{}, err
	}
	e.events = traced
	if err := e.rec.Apply(a); err != nil {
		return Answer{}, err
	}
	out := make([]Event, 0, len(traced))
	for _, ev := range traced {
		act, side := a, by
		if ev.Step > 0 && eventSide(ev) == mancala.South {
			act, side = south, mancala.South
		}
		out = append(out, Event{Kind: ev.Kind.String(), From: ev.From.String(), To: ev.To.String(),
			Stones: ev.Stones, Clockwise: ev.Clockwise, Step: ev.Step, Action: act.String(), By: side.String()})
	}
	ans := Answer{Action: a.String(), By: by.String(), Events: out}
	if s.OpeningChoiceHidden() && by != e.human {
		ans.Action = "" // the computer's choice stays unseen until the player has chosen
	}
	return ans, nil
}

// eventSide returns the side whose action made ev: the sower of a lap, the
// capturer of a capture (into its lap's origin, or off the opponent's side).
func eventSide(ev mancala.Event) mancala.Player {
	switch ev.Kind {
	case mancala.EventMove, mancala.EventLapLimit:
		return ev.To.Row().Owner()
	case mancala.EventTake:
		return ev.From.Row().Owner().Other()
	}
	return ev.From.Row().Owner()
}

// resigned reports whether the player has resigned.
func (e *Engine) resigned() bool {
	return !e.rec.State().IsOver() && e.rec.Record().Result != mancala.NoResult
}

// resign ends the game as a win for the computer.
func (e *Engine) resign() error {
	if e.rec == nil {
		return fmt.Errorf("no game yet: start one with op new")
	}
	if e.rec.State().IsOver() || e.resigned() {
		return fmt.Errorf("the game is over already")
	}
	res := mancala.SouthWins
	if e.human == mancala.South {
		res = mancala.NorthWins
	}
	return e.rec.SetResult(res)
}
