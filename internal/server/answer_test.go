package server

import (
	"encoding/json"
	"strings"
	"testing"

	"matombo/internal/app"
)

// TestActionAnswersShareOneShape: creating a game, joining it, a new
// invite, an action, resigning and a rematch all answer an Answer: the game
// as the asker sees it (its id, the asker's side), the events (a list, never
// null), and the operation's own fields.
func TestActionAnswersShareOneShape(t *testing.T) {
	e := newEnv(t)
	check := func(what string, data []byte, id, you string, fields ...string) Answer {
		t.Helper()
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatalf("%s: %v in %s", what, err, data)
		}
		if ev := string(raw["events"]); !strings.HasPrefix(ev, "[") {
			t.Errorf("%s: events %s, want a list", what, ev)
		}
		for _, f := range fields {
			if _, ok := raw[f]; !ok {
				t.Errorf("%s: no %q in %s", what, f, data)
			}
		}
		var a Answer
		if err := json.Unmarshal(data, &a); err != nil {
			t.Fatal(err)
		}
		if a.Game == nil || (id != "" && a.Game.ID != id) || a.Game.You != you {
			t.Fatalf("%s: game %+v, want game %s seen by %q", what, a.Game, id, you)
		}
		return a
	}
	post := func(path, token string, body any, want int) []byte {
		t.Helper()
		status, data := e.do("POST", path, token, body)
		if status != want {
			t.Fatalf("POST %s: status %d, want %d: %s", path, status, want, data)
		}
		return data
	}

	data := post("/api/games", "", app.CreateRequest{Ruleset: "tsoro", Opponent: "friend", Side: "S"}, 201)
	c := check("create", data, "", "S", "id", "seat", "token", "invite", "team_invite", "url")
	id := c.ID
	if c.Game.ID != id || c.Seat != "S" || c.Token == "" {
		t.Fatalf("create: %+v", c)
	}
	code := c.Invite[strings.LastIndex(c.Invite, "/")+1:]
	j := check("join", post("/api/games/"+id+"/join", "", map[string]string{"invite": code}, 200), id, "N", "id", "seat", "token", "url")
	in := check("invite", post("/api/games/"+id+"/invite", c.Token, nil, 200), id, "S", "invite")
	if in.Invite == "" || in.Invite == c.Invite || in.Token != "" {
		t.Errorf("invite: a new link and no token, got %+v", in)
	}
	v := c.Game
	act := check("action", post("/api/games/"+id+"/actions", c.Token, map[string]any{"action": v.Legal[0], "ply": v.Ply}, 200), id, "S")
	if len(act.Events) == 0 || act.Game.Ply != v.Ply+1 {
		t.Errorf("action: ply %d, %d events", act.Game.Ply, len(act.Events))
	}
	res := check("resign", post("/api/games/"+id+"/resign", j.Token, nil, 200), id, "N")
	if res.Game.Reason != "resigned" || len(res.Events) != 0 {
		t.Errorf("resign: %+v, events %v", res.Game, res.Events)
	}
	rm := check("rematch", post("/api/games/"+id+"/rematch", c.Token, nil, 200), "", "N", "id", "seat", "token", "url")
	if rm.Game.ID != rm.ID || rm.ID == id || rm.Seat != "N" {
		t.Errorf("rematch: %+v", rm)
	}
}
