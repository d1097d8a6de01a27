package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/app"
	"matombo/internal/lobby"
)

// TestSessionCannotMoveOthersSeats: Ada and Bob play a lobby game; Eve,
// logged in with a valid session and its CSRF token, cannot act, resign,
// get or claim a seat, cancel a challenge or act over the socket in it;
// nor can Bob for Ada's side. A session moves only the seats its account
// holds, and only by their tokens.
func TestSessionCannotMoveOthersSeats(t *testing.T) {
	e := newLobbyEnv(t, 0)
	ada, bob, eve := e.browser(), e.browser(), e.browser()
	ada.signUp("Ada")
	bob.signUp("Bob")
	eve.signUp("Eve")
	p := ada.post(lobby.PostRequest{Ruleset: "tsoro", Side: "S", Rated: true})
	status, data := eve.do("POST", "/api/lobby/challenges/"+p.Challenge.ID+"/cancel", "", nil)
	wantError(t, "eve cancels ada's challenge", status, data, http.StatusForbidden, app.EForbidden, "not yours")
	var acc lobby.Accepted
	bob.call("POST", "/api/lobby/challenges/"+p.Challenge.ID+"/accept", "", nil, http.StatusOK, &acc)
	id := acc.Game
	v := e.view(id, p.Key)
	act := map[string]any{"action": v.Legal[0], "ply": 0}
	for _, who := range []struct {
		name string
		b    *browser
	}{{"eve", eve}, {"bob", bob}} {
		status, data = who.b.do("POST", "/api/games/"+id+"/actions", "", act)
		wantError(t, who.name+" acts with her session only", status, data, http.StatusForbidden, app.EForbidden, "seat")
	}
	status, data = eve.do("POST", "/api/games/"+id+"/resign", "", nil)
	wantError(t, "eve resigns", status, data, http.StatusForbidden, app.EForbidden, "seat")
	status, data = eve.do("POST", "/api/account/games/"+id+"/seat", "", nil)
	wantError(t, "eve asks for a seat", status, data, http.StatusForbidden, app.EForbidden, "no seat")
	status, data = eve.do("POST", "/api/account/games/"+id+"/claim", "", nil)
	wantError(t, "eve claims a seat without a token", status, data, http.StatusForbidden, app.EForbidden, "seat token")
	status, data = eve.do("POST", "/api/account/games/"+id+"/claim", acc.Token, nil)
	wantError(t, "eve claims bob's seat of a rated game with his token", status, data, http.StatusConflict, app.EConflict, "rated")
	var ev app.GameView
	eve.call("GET", "/api/games/"+id, "", nil, http.StatusOK, &ev)
	if ev.You != "" {
		t.Errorf("eve's session sees the game as %q", ev.You)
	}

	// Over the socket, with Eve's cookies: a spectator, refused an action.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.http.URL, "http")+"/api/games/"+id+"/ws", &websocket.DialOptions{HTTPClient: eve.client})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	ws := &wsClient{t: t, conn: conn}
	if v := ws.hello("", 0); v.You != "" {
		t.Fatalf("eve's socket holds seat %q", v.You)
	}
	ws.send(map[string]any{"type": "action", "action": v.Legal[0], "ply": 0})
	if m := ws.expect("error"); m.Code != app.EForbidden {
		t.Errorf("eve's action over the socket: %+v", m)
	}
	if v := e.view(id, p.Key); v.Ply != 0 {
		t.Fatalf("the game moved: ply %d", v.Ply)
	}
	// Ada's own seat does move, by her key or by her account's token.
	e.call("POST", "/api/games/"+id+"/actions", p.Key, act, http.StatusOK, nil)
	if strings.Contains(bob.seen.String(), p.Key) || strings.Contains(eve.seen.String(), p.Key) {
		t.Error("a browser other than ada's saw her key (her seat token)")
	}
	if strings.Contains(ada.seen.String(), acc.Token) || strings.Contains(eve.seen.String(), acc.Token) {
		t.Error("another browser saw bob's seat token")
	}
}
