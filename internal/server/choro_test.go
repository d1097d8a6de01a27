package server

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"matombo/internal/app"
	"matombo/mancala"
)

// TestChoroOpeningNotation plays Choro's simultaneous opening a6|d3 and a
// few turns on one device, and checks the notation everywhere the server
// writes turns: the action answer's events (both openings, with their
// steps and sides), the view's turns, moves and record, the replay, the
// archive, and an export imported again.
func TestChoroOpeningNotation(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "choro", Opponent: "local"})
	tok := func(side string) string { return c.Tokens[side] }
	var res app.ActResult
	e.call("POST", "/api/games/"+c.ID+"/actions", tok("S"), map[string]any{"action": "a6", "ply": 0}, 200, &res)
	if len(res.Events) != 0 || !res.Game.OpeningHidden || res.Game.Decision != "opening" {
		t.Fatalf("South's choice: events %v, view %+v", res.Events, res.Game)
	}
	e.call("POST", "/api/games/"+c.ID+"/actions", tok("N"), map[string]any{"action": "d3", "ply": 1}, 200, &res)
	steps := map[string]int{}
	for _, ev := range res.Events {
		if ev.Step == 0 {
			t.Errorf("an opening event without its step: %+v", ev)
		}
		if want := map[string]string{"S": "a6", "N": "d3"}[ev.By]; ev.Action != want {
			t.Errorf("event %+v: action %s, want %s for %s", ev, ev.Action, want, ev.By)
		}
		steps[ev.By]++
	}
	if steps["S"] == 0 || steps["N"] == 0 {
		t.Fatalf("the opening's events are not both sides': %+v", res.Events)
	}
	if res.Events[0] != (app.EventView{Kind: "sow", From: "a6", To: "a8", Stones: 2, Action: "a6", By: "S", Step: 1}) {
		t.Errorf("first event %+v", res.Events[0])
	}
	v := res.Game
	if v.OpeningHidden || v.Decision == "opening" || !slices.Equal(v.Turns[0], []string{"a6", "d3"}) ||
		v.Moves[0] != (app.TurnView{Number: 1, Side: "both", Text: "a6|d3"}) || !strings.Contains(v.Record, "\n1. a6|d3") {
		t.Fatalf("after the opening: turns %v moves %v record %q", v.Turns, v.Moves, v.Record)
	}
	// A few turns more.
	m := newMirror(t, "choro")
	m.apply(t, "a6")
	m.apply(t, "d3")
	for v.Status == "playing" && len(v.Turns) < 6 {
		a := m.next(t)
		e.call("POST", "/api/games/"+c.ID+"/actions", tok(v.ToMove), map[string]any{"action": a, "ply": v.Ply}, 200, &res)
		m.apply(t, a)
		v = res.Game
	}
	if v.Moves[1].Number != 2 || v.Moves[1].Side != firstAfter(t, "a6", "d3") {
		t.Errorf("move 2 %+v", v.Moves[1])
	}
	for i, mv := range v.Moves {
		if mv.Text != strings.Join(v.Turns[i], map[bool]string{true: "|", false: ","}[i == 0]) {
			t.Errorf("move %d %+v, turn %v", i, mv, v.Turns[i])
		}
	}
	var rp app.ReplayView
	e.call("GET", "/api/games/"+c.ID+"/replay", "", nil, 200, &rp)
	if !slices.Equal(rp.Moves, v.Moves) || rp.Hidden {
		t.Errorf("replay moves %v, view moves %v", rp.Moves, v.Moves)
	}
	if a := rp.Actions[0]; a.Action != "a6" || len(a.Events) != 0 || !strings.HasSuffix(a.Position, " N opening") || a.TurnEnd || a.Turn != 0 {
		t.Errorf("replay of South's choice %+v", a)
	}
	if a := rp.Actions[1]; a.Action != "d3" || len(a.Events) != steps["S"]+steps["N"] || !a.TurnEnd || a.Turn != 0 {
		t.Errorf("replay of North's choice %+v", a)
	}
	if last := rp.Actions[len(rp.Actions)-1]; last.Turn != len(v.Moves)-1 {
		t.Errorf("the last step is of turn %d; %d moves", last.Turn, len(v.Moves))
	}
	var list struct{ Games []app.Summary }
	e.call("GET", "/api/games", "", nil, 200, &list)
	if len(list.Games) != 1 || list.Games[0].Turns < len(v.Moves)-1 {
		t.Errorf("archive %+v", list.Games)
	}
	// Export, import, and the same turns again.
	status, record := e.do("GET", "/api/games/"+c.ID+"/record", "", nil)
	if status != 200 || !strings.Contains(string(record), "\n1. a6|d3 2") {
		t.Fatalf("record %d %s", status, record)
	}
	var imp struct{ ID string }
	e.call("POST", "/api/records", "", string(record), 201, &imp)
	var rp2 app.ReplayView
	e.call("GET", "/api/games/"+imp.ID+"/replay", "", nil, 200, &rp2)
	if !slices.Equal(rp2.Moves, v.Moves) || len(rp2.Actions) != len(rp.Actions) {
		t.Errorf("imported moves %v, want %v", rp2.Moves, v.Moves)
	}
	if iv := e.view(imp.ID, ""); !strings.Contains(iv.Record, "\n1. a6|d3 2") {
		t.Errorf("imported record %q", iv.Record)
	}
}

// firstAfter returns the side ("S" or "N") that plays the first turn of the
// main phase after the simultaneous opening south|north.
func firstAfter(t *testing.T, south, north string) string {
	t.Helper()
	st, _ := mancala.NewGame(mancala.Default(mancala.Choro))
	if st.Apply(mustAction(t, south)) != nil || st.Apply(mustAction(t, north)) != nil {
		t.Fatalf("opening %s|%s refused", south, north)
	}
	return st.ToMove().String()
}

func mustAction(t *testing.T, s string) mancala.Action {
	t.Helper()
	a, err := mancala.ParseAction(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestImportOldChoroRecord: an old Choro record under a plain choro header
// is refused with suggest_ruleset, and imports with ?ruleset= set to it.
func TestImportOldChoroRecord(t *testing.T) {
	e := newEnv(t)
	dlp := "choro opening=sequential cw=any leave=no"
	m := newMirror(t, dlp)
	rec, _ := mancala.NewRecorder(m.s)
	n := 0
	for ; n < 12 && !m.s.IsOver(); n++ {
		a := mustAction(t, m.next(t))
		m.s.Apply(a)
		rec.Apply(a)
	}
	text := strings.Replace(rec.Record().String(), `[Ruleset "`+dlp+`"]`, `[Ruleset "choro"]`, 1)
	status, data := e.do("POST", "/api/records", "", text)
	wantError(t, "an old record", status, data, 400, app.EInvalid, "DLP reading")
	var body map[string]any
	json.Unmarshal(data, &body)
	if body["suggest_ruleset"] != dlp {
		t.Fatalf("error body %s: suggest_ruleset is not %q", data, dlp)
	}
	var imp struct{ ID string }
	e.call("POST", "/api/records?ruleset="+url.QueryEscape(dlp), "", text, 201, &imp)
	if v := e.view(imp.ID, ""); v.Ruleset != dlp || v.Ply != n || !strings.Contains(v.Record, `[Ruleset "`+dlp+`"]`) {
		t.Errorf("imported game ruleset %q ply %d record %q", v.Ruleset, v.Ply, v.Record)
	}
	status, data = e.do("POST", "/api/records?ruleset=choros", "", text)
	wantError(t, "a bad ruleset parameter", status, data, 400, app.EInvalid, "ruleset parameter")
	// Errors that suggest nothing have no such field.
	status, data = e.do("GET", "/api/games/nosuchgame", "", nil)
	if status != 404 || strings.Contains(string(data), "suggest_ruleset") {
		t.Errorf("404 body %s", data)
	}
}
