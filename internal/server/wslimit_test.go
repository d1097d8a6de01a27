package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/app"
)

// dialStatus opens a WebSocket to game id at base and returns it, or the
// status and error body of the refused handshake.
func dialStatus(t *testing.T, base, id string) (*websocket.Conn, int, errorBody) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(base, "http") + "/api/games/" + id + "/ws"
	conn, resp, err := websocket.Dial(ctx, u, nil)
	if err == nil {
		t.Cleanup(func() { conn.CloseNow() })
		return conn, http.StatusSwitchingProtocols, errorBody{}
	}
	if resp == nil {
		t.Fatalf("dial: %v", err)
	}
	var body errorBody
	data, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(data, &body); err != nil {
		t.Fatalf("refused handshake %d: body %q is not JSON", resp.StatusCode, data)
	}
	if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
		t.Errorf("503 without Retry-After")
	}
	return nil, resp.StatusCode, body
}

// waitSockets waits until the server counts n open WebSockets.
func waitSockets(t *testing.T, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.open.mu.Lock()
		got := s.open.total
		s.open.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sockets open, want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSocketLimitPerAddress: an address with its most sockets open gets 429
// before the upgrade, with a message; closing one makes room again.
func TestSocketLimitPerAddress(t *testing.T) {
	e := newEnvWith(t, Options{Limits: Limits{SocketsPerAddr: 3, Sockets: 100}})
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	var conns []*websocket.Conn
	for range 3 {
		conn, status, body := dialStatus(t, e.http.URL, c.ID)
		if conn == nil {
			t.Fatalf("socket refused under the limit: %d %+v", status, body)
		}
		conns = append(conns, conn)
	}
	_, status, body := dialStatus(t, e.http.URL, c.ID)
	if status != http.StatusTooManyRequests || body.Code != app.ERateLimited || !strings.Contains(body.Error, "3 live connections are open from your address") {
		t.Fatalf("the fourth socket: %d %+v", status, body)
	}
	conns[0].Close(websocket.StatusNormalClosure, "")
	waitSockets(t, e.srv, 2)
	if conn, status, body := dialStatus(t, e.http.URL, c.ID); conn == nil {
		t.Fatalf("no room after a close: %d %+v", status, body)
	}
}

// TestSocketLimitTotal: with the most sockets open in all, the next gets
// 503, while /healthz, pages and a new game still work.
func TestSocketLimitTotal(t *testing.T) {
	const most = 8
	e := newEnvWith(t, Options{Limits: Limits{SocketsPerAddr: 100, Sockets: most}})
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	for i := range most {
		cl, err := e.dial(c.ID, nil)
		if err != nil {
			t.Fatalf("socket %d: %v", i, err)
		}
		cl.hello("", 0)
	}
	_, status, body := dialStatus(t, e.http.URL, c.ID)
	if status != http.StatusServiceUnavailable || body.Code != app.EUnavailable || !strings.Contains(body.Error, "8 live connections open") {
		t.Fatalf("a socket over the total: %d %+v", status, body)
	}
	if status, data := e.do("GET", "/healthz", "", nil); status != http.StatusOK {
		t.Errorf("/healthz at the limit: %d %s", status, data)
	}
	if status, _ := e.do("GET", "/", "", nil); status != http.StatusOK {
		t.Errorf("the home page at the limit: %d", status)
	}
	e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
}

// TestDeadSocketClosed: a peer that stops answering pings (here: stops
// reading, so its pongs never go out) is closed, and its slot freed.
func TestDeadSocketClosed(t *testing.T) {
	e := newEnvWith(t, Options{Limits: Limits{SocketsPerAddr: 1}})
	e.srv.pingEvery, e.srv.pingTimeout = 50*time.Millisecond, 100*time.Millisecond
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	cl, err := e.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl.hello("", 0)
	waitSockets(t, e.srv, 1)
	// The client reads no more: the server's pings go unanswered.
	waitSockets(t, e.srv, 0)
	if _, sockets := e.srv.hub.counts(); sockets != 0 {
		t.Errorf("the hub still counts %d sockets", sockets)
	}
	// A live client that reads answers the pings and stays.
	live, err := e.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	live.hello("", 0)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, _, err := live.conn.Read(ctx); ctx.Err() == nil {
		t.Fatalf("a live socket was closed: %v", err)
	}
}
