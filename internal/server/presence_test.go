package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"matombo/internal/app"
)

// friendGame creates a friend game on e with both seats taken.
func friendGame(e *testEnv) (id, south, north string) {
	e.t.Helper()
	c := e.create(app.CreateRequest{Ruleset: "tsoro size=8", Opponent: "friend", Side: "S"})
	var j app.Joined
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": c.Invite[strings.LastIndex(c.Invite, "/")+1:]}, http.StatusOK, &j)
	return c.ID, c.Token, j.Token
}

// presenceHello says hello asking for presence, and returns the presence
// message that follows the state.
func (c *wsClient) presenceHello(token string) map[string]bool {
	c.t.Helper()
	c.send(map[string]any{"type": "hello", "token": token, "ply": 0, "presence": true})
	if m := c.recv(); m.Type != "state" {
		c.t.Fatalf("answer to hello: %+v", m)
	}
	return c.expect("presence").Presence
}

// expect reads the next message and checks its type.
func (c *wsClient) expect(typ string) serverMsg {
	c.t.Helper()
	m := c.recv()
	if m.Type != typ {
		c.t.Fatalf("got %+v, want a %s message", m, typ)
	}
	return m
}

func wantSeats(t *testing.T, who string, got map[string]bool, s, n bool) {
	t.Helper()
	if got["S"] != s || got["N"] != n {
		t.Fatalf("%s: presence %v, want S %v N %v", who, got, s, n)
	}
}

// TestPresenceAndQuickMessages: each socket that asks hears which sides
// have a player connected as they come and go; the players' quick
// messages reach both players, not the spectators; only the fixed ids
// pass, from players only, a few a minute.
func TestPresenceAndQuickMessages(t *testing.T) {
	e := newEnv(t)
	id, sTok, nTok := friendGame(e)
	south, _ := e.dial(id, nil)
	wantSeats(t, "south alone", south.presenceHello(sTok), true, false)
	spec, _ := e.dial(id, nil)
	wantSeats(t, "the spectator", spec.presenceHello(""), true, false)
	north, _ := e.dial(id, nil)
	wantSeats(t, "north", north.presenceHello(nTok), true, true)
	wantSeats(t, "south, north in", south.expect("presence").Presence, true, true)
	wantSeats(t, "the spectator, north in", spec.expect("presence").Presence, true, true)

	north.send(map[string]any{"type": "say", "say": "good_luck"})
	for name, c := range map[string]*wsClient{"south": south, "north": north} {
		if m := c.expect("say"); m.By != "N" || m.Say != "good_luck" {
			t.Errorf("%s heard %+v", name, m)
		}
	}
	south.send(map[string]any{"type": "say", "say": "you are bad"})
	if m := south.expect("error"); m.Code != app.EInvalid || !strings.Contains(m.Error, "good_game") {
		t.Errorf("free text: %+v", m)
	}
	spec.send(map[string]any{"type": "say", "say": "well_played"})
	if m := spec.expect("error"); m.Code != app.EForbidden {
		t.Errorf("a spectator's message: %+v", m)
	}
	for range saysPerSide {
		south.send(map[string]any{"type": "say", "say": "thank_you"})
		south.expect("say")
		north.expect("say")
	}
	south.send(map[string]any{"type": "say", "say": "thank_you"})
	if m := south.expect("error"); m.Code != app.ERateLimited {
		t.Errorf("message %d in a minute: %+v", saysPerSide+1, m)
	}

	north.conn.Close(websocket.StatusNormalClosure, "")
	wantSeats(t, "south, north gone", south.expect("presence").Presence, true, false)
	// The spectator heard presence only: no quick message.
	wantSeats(t, "the spectator, north gone", spec.expect("presence").Presence, true, false)

	// A client that does not ask hears neither.
	plain, _ := e.dial(id, nil)
	plain.hello(nTok, 0)
	wantSeats(t, "south, north back without presence", south.expect("presence").Presence, true, true)
	north2, _ := e.dial(id, nil)
	north2.presenceHello(nTok)
	north2.send(map[string]any{"type": "say", "say": "good_game"})
	north2.expect("say")
	if m := south.expect("say"); m.By != "N" || m.Say != "good_game" {
		t.Errorf("south heard %+v", m)
	}
	plain.send(map[string]any{"type": "ping"})
	if m := plain.recv(); m.Type != "pong" {
		t.Errorf("a client without presence got %+v", m)
	}
}
