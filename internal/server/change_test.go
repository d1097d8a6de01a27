package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"matombo/internal/app"
)

// liveView is a client's view as JSON fields, built as static/js/live.js
// builds it: the full view of a state, changed by each update.
type liveView map[string]json.RawMessage

func (v liveView) ply(t *testing.T) int {
	t.Helper()
	var n int
	if err := json.Unmarshal(v["ply"], &n); err != nil {
		t.Fatalf("view without a ply: %v", err)
	}
	return n
}

// apply changes v by the update data (applyChange in live.js).
func (v liveView) apply(t *testing.T, data []byte) liveView {
	t.Helper()
	var u struct {
		Base      *int     `json:"base"`
		TurnsFrom int      `json:"turns_from"`
		Game      liveView `json:"game"`
	}
	if err := json.Unmarshal(data, &u); err != nil || u.Base == nil {
		t.Fatalf("not a change: %s (%v)", data, err)
	}
	if *u.Base != v.ply(t) {
		t.Fatalf("an update of ply %d for a view at ply %d", *u.Base, v.ply(t))
	}
	out := liveView{}
	for _, k := range keptFields {
		if f, ok := v[k]; ok {
			out[k] = f
		}
	}
	for k, f := range u.Game {
		out[k] = f
	}
	for _, k := range []string{"turns", "moves"} {
		var old, tail []json.RawMessage
		_ = json.Unmarshal(v[k], &old)
		if err := json.Unmarshal(u.Game[k], &tail); err != nil {
			t.Fatalf("update without %s: %v", k, err)
		}
		all, _ := json.Marshal(append(old[:u.TurnsFrom:u.TurnsFrom], tail...))
		out[k] = all
	}
	return out
}

// sameView fails unless the client's view is the server's full view, less
// what updates leave out.
func sameView(t *testing.T, what string, got liveView, full []byte) {
	t.Helper()
	var want liveView
	if err := json.Unmarshal(full, &want); err != nil {
		t.Fatal(err)
	}
	for _, f := range grownFields {
		delete(want, f)
	}
	// The time of the last change is the store's, to the microsecond.
	got = maps.Clone(got)
	delete(got, "updated")
	delete(want, "updated")
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Fatalf("%s: the client's view\n%s\nthe server's\n%s", what, g, w)
	}
}

// TestUpdatesCarryWhatChanged plays a long Nsolo game (4×36) between two
// seats, watched by a spectator and by South's socket: every update
// applied to the client's view gives the game's view (less its record),
// and the bytes of an update at ply 300 are within 1.2 times those at ply
// 10, where the full view's have grown many times. A hello on the way
// (a client after a gap) gets the full view, which the updates go on from.
func TestUpdatesCarryWhatChanged(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo size=36", Opponent: "friend", Side: "S"})
	var j app.Joined
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": c.Invite[strings.LastIndex(c.Invite, "/")+1:]}, 200, &j)
	tokens := map[string]string{"S": c.Token, "N": j.Token}
	clients := map[string]*wsClient{}
	views := map[string]liveView{}
	for who, tok := range map[string]string{"spectator": "", "S": c.Token} {
		cl, err := e.dial(c.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		cl.send(map[string]any{"type": "hello", "token": tok, "ply": 0})
		var m struct {
			Type string   `json:"type"`
			Game liveView `json:"game"`
		}
		if err := json.Unmarshal(cl.recvRaw(), &m); err != nil || m.Type != "state" {
			t.Fatalf("%s: answer to hello %+v (%v)", who, m, err)
		}
		clients[who], views[who] = cl, m.Game
	}
	type sizes struct{ update, events, full int }
	measured := map[int]sizes{}
	rng := rand.New(rand.NewPCG(15, 2))
	const last = 310
	for ply := 0; ply < last; ply++ {
		v := e.view(c.ID, "")
		if v.Status != "playing" {
			t.Fatalf("the game ended at ply %d; the test needs %d", ply, last)
		}
		a := v.Legal[rng.IntN(len(v.Legal))]
		e.call("POST", "/api/games/"+c.ID+"/actions", tokens[v.ToMove], map[string]any{"action": a, "ply": v.Ply}, http.StatusOK, nil)
		for who, cl := range clients {
			data := cl.recvRaw()
			views[who] = views[who].apply(t, data)
			if views[who].ply(t) != ply+1 {
				t.Fatalf("%s: update to ply %d after ply %d", who, views[who].ply(t), ply+1)
			}
			tok := map[string]string{"spectator": "", "S": c.Token}[who]
			_, full := e.do("GET", "/api/games/"+c.ID, tok, nil)
			sameView(t, fmt.Sprintf("%s at ply %d", who, ply+1), views[who], full)
			if who != "spectator" {
				continue
			}
			var u serverMsg
			_ = json.Unmarshal(data, &u)
			evs, _ := json.Marshal(u.Events)
			var fv app.GameView
			_ = json.Unmarshal(full, &fv)
			old, _ := json.Marshal(serverMsg{Type: "update", Game: &fv, Events: u.Events})
			measured[ply+1] = sizes{len(data), len(evs), len(old)}
		}
		if ply == 150 {
			// The spectator asks for the full view, as after a gap.
			cl := clients["spectator"]
			cl.send(map[string]any{"type": "hello", "token": "", "ply": ply + 1})
			var m struct {
				Type string   `json:"type"`
				Game liveView `json:"game"`
			}
			if err := json.Unmarshal(cl.recvRaw(), &m); err != nil || m.Type != "state" || m.Game.ply(t) != ply+1 {
				t.Fatalf("answer to a hello at ply %d: %s (%v)", ply+1, m.Type, err)
			}
			views["spectator"] = m.Game
		}
	}
	at10, at300 := measured[10], measured[300]
	t.Logf("bytes per update at ply 10: %d (events %d); at ply 300: %d (events %d); the full view's update: %d and %d",
		at10.update, at10.events, at300.update, at300.events, at10.full, at300.full)
	// The events are those of the action (the laps it sowed), whatever the
	// ply; the rest is the change of the view.
	if rest10, rest300 := at10.update-at10.events, at300.update-at300.events; float64(rest300) > 1.2*float64(rest10) {
		t.Errorf("an update's view part grows with the game: %d bytes at ply 10, %d at ply 300", rest10, rest300)
	}
	if at300.full < 2*at300.update {
		t.Errorf("a full view's update at ply 300 (%d bytes) is not much larger than a change (%d)", at300.full, at300.update)
	}
}

// TestKeptFieldsAreLiveJS: live.js keeps the fields the server leaves out
// of updates, and those are fields of the view.
func TestKeptFieldsAreLiveJS(t *testing.T) {
	src, err := os.ReadFile("../web/static/js/live.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)const KEPT = \[(.*?)\];`).FindSubmatch(src)
	if m == nil {
		t.Fatal("live.js has no KEPT list")
	}
	var kept []string
	for _, q := range regexp.MustCompile(`"([^"]+)"`).FindAllSubmatch(m[1], -1) {
		kept = append(kept, string(q[1]))
	}
	if !slices.Equal(kept, keptFields) {
		t.Errorf("live.js keeps %v; the server leaves out %v", kept, keptFields)
	}
	v, err := app.PositionView("choro", "")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(v)
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(data, &fields)
	for _, f := range append(slices.Clone(keptFields), grownFields...) {
		if _, ok := fields[f]; !ok {
			t.Errorf("%q is not a field of the view", f)
		}
	}
}

func TestTurnsFrom(t *testing.T) {
	turns := [][]string{{"a1"}, {"b2", "stop"}, {"c3"}}
	for base, want := range map[int]int{0: 0, 1: 0, 2: 1, 3: 1, 4: 2, 5: 3} {
		if got := turnsFrom(turns, base); got != want {
			t.Errorf("turnsFrom(%v, %d) = %d, want %d", turns, base, got, want)
		}
	}
	if got := turnsFrom(nil, 1); got != 0 {
		t.Errorf("turnsFrom(nil, 1) = %d", got)
	}
}
