package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/app"
)

// wsClient is a test WebSocket client of a game.
type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
}

func (e *testEnv) dial(id string, header http.Header) (*wsClient, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(e.http.URL, "http") + "/api/games/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		return nil, err
	}
	c := &wsClient{t: e.t, conn: conn}
	e.t.Cleanup(func() { conn.CloseNow() })
	return c, nil
}

func (c *wsClient) send(v any) {
	c.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, data); err != nil {
		c.t.Fatal(err)
	}
}

func (c *wsClient) sendRaw(s string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, []byte(s)); err != nil {
		c.t.Fatal(err)
	}
}

func (c *wsClient) recv() serverMsg {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, data, err := c.conn.Read(ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var m serverMsg
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatalf("bad message %s: %v", data, err)
	}
	return m
}

func (c *wsClient) hello(token string, ply int) app.GameView {
	c.t.Helper()
	c.send(map[string]any{"type": "hello", "token": token, "ply": ply})
	m := c.recv()
	if m.Type != "state" || m.Game == nil {
		c.t.Fatalf("answer to hello: %+v", m)
	}
	return *m.Game
}

// TestWebSocketPlayersAndSpectator: two players and a spectator watch a
// friend game; actions over the socket and over POST reach everyone, each
// with its own seat.
func TestWebSocketPlayersAndSpectator(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "tsoro size=8", Opponent: "friend", Side: "S"})
	var j app.Joined
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": c.Invite[strings.LastIndex(c.Invite, "/")+1:]}, 200, &j)

	south, err := e.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	north, _ := e.dial(c.ID, nil)
	spec, _ := e.dial(c.ID, nil)
	if v := south.hello(c.Token, 0); v.You != "S" || v.Ply != 0 {
		t.Fatalf("south state %+v", v)
	}
	if v := north.hello(j.Token, 0); v.You != "N" {
		t.Fatalf("north state you %q", v.You)
	}
	if v := spec.hello("", 0); v.You != "" || v.Status != "playing" {
		t.Fatalf("spectator state you %q", v.You)
	}
	// A token that holds no seat watches too, and is told so after the state.
	stranger, _ := e.dial(c.ID, nil)
	if v := stranger.hello("not-a-seat-token", 0); v.You != "" {
		t.Fatalf("a bad token got seat %q", v.You)
	}
	if m := stranger.recv(); m.Type != "error" || m.Code != app.EForbidden || !strings.Contains(m.Error, "spectator") {
		t.Fatalf("a bad token: %+v", m)
	}
	stranger.conn.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(5 * time.Second)
	for e.srv.hub.clients(c.ID) != 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}

	m := newMirror(t, "tsoro size=8")
	ply := 0
	// South acts over the socket; every client gets the update.
	a := m.next(t)
	south.send(map[string]any{"type": "action", "action": a, "ply": ply})
	m.apply(t, a)
	ply++
	for name, cl := range map[string]*wsClient{"south": south, "north": north, "spectator": spec} {
		u := cl.recv()
		if u.Type != "update" || u.Game.Ply != ply || u.Game.Position != m.s.Position() || len(u.Events) == 0 || u.Events[0].By != "S" {
			t.Fatalf("%s: update %+v", name, u)
		}
		want := map[string]string{"south": "S", "north": "N", "spectator": ""}[name]
		if u.Game.You != want {
			t.Errorf("%s: you %q, want %q", name, u.Game.You, want)
		}
	}
	// The spectator and North cannot act for South.
	spec.send(map[string]any{"type": "action", "action": "a1", "ply": ply})
	if r := spec.recv(); r.Type != "error" || r.Code != app.EForbidden {
		t.Fatalf("spectator action: %+v", r)
	}
	idle := map[bool]*wsClient{true: north, false: south}[m.s.ToMove().String() == "S"]
	idle.send(map[string]any{"type": "action", "action": "a1", "ply": ply})
	if r := idle.recv(); r.Type != "error" || r.Code != app.EForbidden || !strings.Contains(r.Error, "decision") {
		t.Fatalf("acting on the other side's decision: %+v", r)
	}
	// Bad messages get errors and the connection stays.
	spec.sendRaw(`{"type":"dance"}`)
	if r := spec.recv(); r.Type != "error" || !strings.Contains(r.Error, "dance") {
		t.Fatalf("unknown type: %+v", r)
	}
	spec.sendRaw(`not json`)
	if r := spec.recv(); r.Type != "error" || r.Code != app.EInvalid {
		t.Fatalf("bad JSON: %+v", r)
	}
	spec.send(map[string]string{"type": "ping"})
	if r := spec.recv(); r.Type != "pong" {
		t.Fatalf("ping: %+v", r)
	}
	// An action over POST reaches the sockets too.
	v := e.view(c.ID, "")
	a = v.Legal[0]
	e.call("POST", "/api/games/"+c.ID+"/actions", tokenFor(v.ToMove, c.Token, j.Token), map[string]any{"action": a, "ply": v.Ply}, 200, nil)
	for _, cl := range []*wsClient{south, north, spec} {
		if u := cl.recv(); u.Type != "update" || u.Game.Ply != v.Ply+1 {
			t.Fatalf("update after POST: %+v", u)
		}
	}
	// A reconnecting client gets the full state at once.
	south.conn.Close(websocket.StatusNormalClosure, "tab closed")
	again, _ := e.dial(c.ID, nil)
	if s := again.hello(c.Token, 1); s.Ply != v.Ply+1 || s.You != "S" {
		t.Fatalf("reconnect state ply %d you %q", s.Ply, s.You)
	}
}

func tokenFor(side, south, north string) string {
	if side == "S" {
		return south
	}
	return north
}

func TestWebSocketRefusals(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	// Another site's page may not open the socket.
	if _, err := e.dial(c.ID, http.Header{"Origin": {"https://evil.example"}}); err == nil {
		t.Error("a cross-origin WebSocket was accepted")
	}
	// The first message must be hello.
	cl, err := e.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl.send(map[string]any{"type": "ping"})
	if r := cl.recv(); r.Type != "error" || !strings.Contains(r.Error, "hello") {
		t.Fatalf("no hello: %+v", r)
	}
	// An unknown game.
	cl, _ = e.dial("nosuchgame", nil)
	cl.send(map[string]any{"type": "hello"})
	if r := cl.recv(); r.Type != "error" || r.Code != app.ENotFound {
		t.Fatalf("unknown game: %+v", r)
	}
	// Too large a message closes the connection.
	cl, _ = e.dial(c.ID, nil)
	cl.hello("", 0)
	cl.sendRaw(`{"type":"ping","action":"` + strings.Repeat("x", maxWSMessage) + `"}`)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, _, err := cl.conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("oversized message: read error %v, want close status 1009", err)
	}
}

// TestWebSocketAIUpdates: the AI's decisions reach the socket one by one.
func TestWebSocketAIUpdates(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "choro opening=sequential cw=any leave=no", Opponent: "ai", Level: 1, Side: "S"})
	cl, _ := e.dial(c.ID, nil)
	v := cl.hello(c.Token, 0)
	cl.send(map[string]any{"type": "action", "action": v.Legal[0], "ply": 0})
	u := cl.recv()
	if u.Type != "update" || u.Events[0].By != "S" {
		t.Fatalf("own update %+v", u)
	}
	for u.Game.ToMove != "S" && u.Game.Status == "playing" || u.Game.Thinking {
		u = cl.recv()
		if u.Type != "update" || u.Events[0].By != "N" {
			t.Fatalf("AI update %+v", u)
		}
	}
}

// TestWebSocketOutlivesTimeouts: the HTTP server's read and write
// timeouts, meant for requests, do not cut a live socket (handleWS clears
// the connection's deadlines before the upgrade).
func TestWebSocketOutlivesTimeouts(t *testing.T) {
	e := newEnv(t)
	const short = 200 * time.Millisecond
	hs := httptest.NewUnstartedServer(e.srv)
	hs.Config = newHTTPServer(e.srv, Timeouts{ReadHeader: short, Read: short, Write: short, Idle: short}, e.srv.log)
	hs.Start()
	defer hs.Close()
	e.http = hs
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	cl, err := e.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl.hello("", 0)
	time.Sleep(3 * short)
	cl.send(map[string]string{"type": "ping"})
	if r := cl.recv(); r.Type != "pong" {
		t.Fatalf("after the read and write timeouts: %+v", r)
	}
	// An update pushed by the server, long after the upgrade.
	time.Sleep(3 * short)
	v := e.view(c.ID, "")
	e.call("POST", "/api/games/"+c.ID+"/actions", c.Tokens[v.ToMove], map[string]any{"action": v.Legal[0], "ply": 0}, 200, nil)
	if r := cl.recv(); r.Type != "update" || r.Game.Ply != 1 {
		t.Fatalf("an update after the timeouts: %+v", r)
	}
}

// TestHTTPServerTimeouts: Run's HTTP server has a timeout for each phase
// of a connection (a slow client holds no descriptor forever) and bounded
// headers.
func TestHTTPServerTimeouts(t *testing.T) {
	hs := newHTTPServer(http.NotFoundHandler(), Timeouts{}, slog.New(slog.DiscardHandler))
	if hs.ReadHeaderTimeout != 10*time.Second || hs.ReadTimeout != 30*time.Second || hs.WriteTimeout != 60*time.Second || hs.IdleTimeout != 120*time.Second {
		t.Errorf("default timeouts: header %v read %v write %v idle %v", hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout)
	}
	if hs.MaxHeaderBytes != 32<<10 {
		t.Errorf("MaxHeaderBytes %d", hs.MaxHeaderBytes)
	}
}

// TestWebSocketCatchUp: a hello with the last ply the client saw gets, with
// the state, the events of the actions it missed (those of the replay), so
// that it can show them; a client not behind, too far behind or without a
// ply gets the state alone.
func TestWebSocketCatchUp(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "tsoro size=6 heads=none", Opponent: app.ModeLocal})
	for range 3 {
		v := e.view(c.ID, "")
		e.call("POST", "/api/games/"+c.ID+"/actions", c.Tokens[v.ToMove], map[string]any{"action": v.Legal[0], "ply": v.Ply}, 200, nil)
	}
	var rp app.ReplayView
	e.call("GET", "/api/games/"+c.ID+"/replay", "", nil, 200, &rp)
	n := len(rp.Actions)
	var want []app.EventView
	for _, st := range rp.Actions[1:] {
		want = append(want, st.Events...)
	}
	cl, err := e.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl.send(map[string]any{"type": "hello", "token": c.Token, "ply": 1})
	m := cl.recv()
	if m.Type != "state" || m.Game.Ply != n || m.Since == nil || *m.Since != 1 || !slices.Equal(m.Events, want) {
		t.Fatalf("hello at ply 1 of %d: %+v, since %v, events %+v; want the events %+v", n, m.Type, m.Since, m.Events, want)
	}
	for _, hello := range []map[string]any{
		{"type": "hello", "ply": n},
		{"type": "hello", "ply": n + 5},
		{"type": "hello"},
	} {
		cl.send(hello)
		if m := cl.recv(); m.Type != "state" || m.Since != nil || m.Events != nil || m.Game.Ply != n {
			t.Errorf("%v: %+v", hello, m)
		}
	}
}
