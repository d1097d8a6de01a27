package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/app"
	"matombo/internal/lobby"
)

// The live lobby: GET /api/lobby/ws. The client says hello with the keys
// of the challenges it posted ({"type":"hello","keys":["…"]}; a logged-in
// player's challenges are known by the session cookie), and may say it
// again with new keys after posting; it gets the list ("lobby"), then each
// change ("challenge", "gone") and, when one of its challenges is
// accepted, "matched" with the game. While the socket is open its
// challenges stay in the lobby.

// lobbyClientMsg is a message from a lobby socket.
type lobbyClientMsg struct {
	Type string   `json:"type"` // "hello" or "ping"
	Keys []string `json:"keys"` // hello: the keys of the client's challenges
}

// decodeLobbyMsg reads one lobby client message.
func decodeLobbyMsg(data []byte) (lobbyClientMsg, error) {
	var m lobbyClientMsg
	if err := decodeStrict(data, &m); err != nil {
		return m, err
	}
	if m.Type != "hello" && m.Type != "ping" {
		return m, app.Errorf(app.EInvalid, "unknown lobby message type %q; types are hello and ping", printable(m.Type))
	}
	return m, nil
}

// sortViews orders challenges oldest first.
func sortViews(vs []lobby.View) {
	slices.SortFunc(vs, func(a, b lobby.View) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// mine returns the challenges of keys (their fate, for a hello).
func (s *Server) mine(ctx context.Context, keys []string) []*lobby.Challenge {
	var out []*lobby.Challenge
	for _, k := range keys {
		if c, err := s.lobby.svc.ByKey(ctx, k); err == nil {
			out = append(out, c)
		}
	}
	return out
}

func (s *Server) handleLobbyWS(w http.ResponseWriter, r *http.Request) {
	s.sockets.Add(1)
	defer s.sockets.Done()
	if err := s.checkOrigin(r); err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := s.viewer(r) // the session's account; a GET needs no CSRF token
	if err != nil {
		s.fail(w, r, err)
		return
	}
	release, err := s.open.acquire(clientAddr(r))
	if err != nil {
		w.Header().Set("Retry-After", "10")
		s.fail(w, r, err)
		return
	}
	defer release()
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true}) // the origin is checked above
	if err != nil {
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(maxWSMessage)
	ctx, cancel := context.WithCancel(s.hub.ctx)
	defer cancel()

	hctx, hcancel := context.WithTimeout(ctx, 15*time.Second)
	_, data, err := conn.Read(hctx)
	hcancel()
	if err != nil {
		return
	}
	hello, err := decodeLobbyMsg(data)
	if err == nil && hello.Type != "hello" {
		err = app.Errorf(app.EInvalid, `the first lobby message must be hello: {"type":"hello","keys":[]}`)
	}
	var keys map[string]bool
	if err == nil {
		keys, err = keySet(hello.Keys)
	}
	if err == nil {
		err = s.lobby.hub.load(ctx)
	}
	if err != nil {
		writeLobby(ctx, conn, lobbyError(err))
		conn.Close(websocket.StatusPolicyViolation, "bad hello")
		return
	}
	v.Keys = keys
	cl := &lobbyClient{viewer: v, told: map[string]bool{}, send: make(chan lobbyMsg, sendBuffer), gone: make(chan struct{})}
	s.lobby.hub.add(cl, s.mine(ctx, hello.Keys))
	defer s.lobby.hub.remove(cl)
	// A creator who comes back touches its challenges at once.
	if err := s.lobby.svc.Touch(ctx, s.lobby.hub.owned()); err != nil {
		s.log.Warn("lobby: touch challenges", "err", err)
	}

	s.sockets.Add(1)
	go func() {
		defer s.sockets.Done()
		defer cancel()
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				return
			}
			m, err := decodeLobbyMsg(data)
			var keys map[string]bool
			if err == nil && m.Type == "hello" {
				keys, err = keySet(m.Keys)
			}
			switch {
			case err != nil:
				s.lobby.hub.sendTo(cl, lobbyError(err))
			case m.Type == "ping":
				s.lobby.hub.sendTo(cl, lobbyMsg{Type: "pong"})
			case m.Type == "hello":
				s.lobby.hub.rekey(cl, keys, s.mine(ctx, m.Keys))
				if err := s.lobby.svc.Touch(ctx, s.lobby.hub.owned()); err != nil {
					s.log.Warn("lobby: touch challenges", "err", err)
				}
			}
		}
	}()

	writeLoop(ctx, s, conn, cl.send, cl.gone, writeLobby)
}

func lobbyError(err error) lobbyMsg {
	return lobbyMsg{Type: "error", Error: app.ErrorMessage(err), Code: app.ErrorCode(err)}
}

// writeLobby sends m as JSON, within 10 s.
func writeLobby(ctx context.Context, conn *websocket.Conn, m lobbyMsg) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return conn.Write(wctx, websocket.MessageText, data)
}
