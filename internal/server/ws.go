package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/app"
)

// clientMsg is a message from a WebSocket client.
type clientMsg struct {
	Type   string `json:"type"`   // "hello", "action" or "ping"
	Token  string `json:"token"`  // hello: the seat token, "" for a spectator
	Ply    *int   `json:"ply"`    // hello: the last ply seen; action: the ply the client saw
	Action string `json:"action"` // action: the action
	Say    string `json:"say"`    // say: a quick message's id (say.go)
	// Presence (hello): the client takes the "presence" and "say"
	// messages (presence.go, say.go); clients that do not ask get neither.
	Presence bool `json:"presence"`
}

// serverMsg is a message to a WebSocket client. An update that changes the
// view the client has (change.go) is sent as raw, its encoding; a client
// decoding one finds its Base and TurnsFrom set and a Game holding only
// the fields that change.
type serverMsg struct {
	Type      string          `json:"type"` // "state", "update", "error" or "pong"
	Game      *app.GameView   `json:"game,omitempty"`
	Events    []app.EventView `json:"events,omitempty"`
	Since     *int            `json:"since,omitempty"`      // state: the ply the events start from
	Base      *int            `json:"base,omitempty"`       // a change: the ply of the view it changes
	TurnsFrom *int            `json:"turns_from,omitempty"` // a change: the turn its turns start at
	Error     string          `json:"error,omitempty"`
	Code      app.Code        `json:"code,omitempty"`
	// Presence says which sides have a player connected ("presence",
	// presence.go); By and Say are a quick message ("say", say.go).
	Presence map[string]bool `json:"presence,omitempty"`
	By       string          `json:"by,omitempty"`
	Say      string          `json:"say,omitempty"`
	raw      []byte          // the message's encoding, when made already
}

// decodeClientMsg reads one client message, checking its type and fields.
func decodeClientMsg(data []byte) (clientMsg, error) {
	var m clientMsg
	if err := decodeStrict(data, &m); err != nil {
		return m, err
	}
	switch m.Type {
	case "hello", "ping", "say":
	case "action":
		if m.Ply == nil {
			return m, app.Errorf(app.EInvalid, "an action message needs the ply the client saw: {\"type\":\"action\",\"action\":\"a3\",\"ply\":N}")
		}
	default:
		return m, app.Errorf(app.EInvalid, "unknown message type %q; types are hello, action, say and ping", m.Type)
	}
	return m, nil
}

// hub keeps the live clients of each game and sends them the updates.
type hub struct {
	log    *slog.Logger
	mu     sync.Mutex
	games  map[string]map[*client]struct{}
	ctx    context.Context // cancelled when the hub closes
	cancel context.CancelFunc
}

// client is one WebSocket connection watching a game.
type client struct {
	send chan serverMsg // closed when the client is dropped
	you  string         // the side of the client's seat, "" for a spectator
	ply  int            // the ply of the last view queued for the client; -1 before its state
	// presence: the client takes the presence and quick messages
	presence bool
	gone     chan struct{} // closed when the client must disconnect
	once     sync.Once
}

func (c *client) drop() { c.once.Do(func() { close(c.gone) }) }

// dropped reports whether the client was dropped.
func (c *client) dropped() bool {
	select {
	case <-c.gone:
		return true
	default:
		return false
	}
}

// sendBuffer is how many messages a client may lag behind before it is
// dropped (it reconnects and gets the full state).
const sendBuffer = 32

// maxQueuedActions is how many actions of one connection may wait to be
// stored; a client sending more gets an error for each extra one.
const maxQueuedActions = 4

func newHub(log *slog.Logger) *hub {
	h := &hub{log: log, games: map[string]map[*client]struct{}{}}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	return h
}

func (h *hub) add(id string, c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.games[id] == nil {
		h.games[id] = map[*client]struct{}{}
	}
	h.games[id][c] = struct{}{}
}

func (h *hub) remove(id string, c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.games[id], c)
	if len(h.games[id]) == 0 {
		delete(h.games, id)
	}
}

// Publish implements app.Notifier: every client of game id gets the update,
// with its own seat in the view: what changed since the view it was sent
// last (change.go), or the full view when it has none yet. The changes are
// encoded without the hub held (its lock serves every game): a client
// whose last view moved on meanwhile gets the full view.
func (h *hub) Publish(id string, u app.Update) {
	type seatBase struct {
		you  string
		base int
	}
	h.mu.Lock()
	bases := map[seatBase]bool{}
	for c := range h.games[id] {
		bases[seatBase{c.you, c.ply}] = true
	}
	h.mu.Unlock()
	views := map[string]*app.GameView{}
	changes := map[seatBase][]byte{}
	for sb := range bases {
		v := views[sb.you]
		if v == nil {
			v = u.ViewFor(sb.you)
			views[sb.you] = v
		}
		if raw, ok := encodeChange(v, u.Events, sb.base); ok {
			changes[sb] = raw
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.games[id] {
		v := views[c.you]
		if v == nil { // a client that came or took its seat meanwhile
			v = u.ViewFor(c.you)
			views[c.you] = v
		}
		m := serverMsg{Type: "update", Game: v, Events: u.Events}
		if raw := changes[seatBase{c.you, c.ply}]; raw != nil {
			m = serverMsg{Type: "update", raw: raw}
		}
		select {
		case c.send <- m:
			c.ply = max(c.ply, v.Ply)
		default:
			c.drop()
		}
	}
}

// sendGame queues m for the clients of game id that take presence and
// quick messages (with seated, the players' only), dropping a client that
// lags.
func (h *hub) sendGame(id string, m serverMsg, seated bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.games[id] {
		if !c.presence || seated && c.you == "" {
			continue
		}
		select {
		case c.send <- m:
		default:
			c.drop()
		}
	}
}

// close disconnects every client.
func (h *hub) close() {
	h.cancel()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, cs := range h.games {
		for c := range cs {
			c.drop()
		}
	}
}

// watched returns the ids of the games with clients.
func (h *hub) watched() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.games))
	for id := range h.games {
		ids = append(ids, id)
	}
	return ids
}

// clients returns how many clients watch game id.
// counts returns the games with a live connection and the connections.
func (h *hub) counts() (games, sockets int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, cs := range h.games {
		sockets += len(cs)
	}
	return len(h.games), sockets
}

func (h *hub) clients(id string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.games[id])
}

// state is the answer to a hello: the game's view for token's seat, with
// the events of the actions after the client's ply (when it is a few
// behind) so that it can show what it missed.
func (s *Server) state(ctx context.Context, id, token string, ply *int) (*serverMsg, error) {
	since := -1
	if ply != nil {
		since = *ply
	}
	v, evs, err := s.svc.CatchUp(ctx, id, token, since)
	if err != nil {
		return nil, err
	}
	m := &serverMsg{Type: "state", Game: v, Events: evs}
	if evs != nil {
		m.Since = &since
	}
	return m, nil
}

// handleWS serves the live connection of a game: hello, then state and
// updates; actions and pings from the client.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	s.sockets.Add(1)
	defer s.sockets.Done()
	id := r.PathValue("id")
	// Refuse before the upgrade, with a JSON answer: another site's page
	// (the same origin check as the state-changing requests), and a client
	// over the limits of sockets, so that the file descriptors left keep
	// serving /healthz and new players.
	if err := s.checkOrigin(r); err != nil {
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
	// The server's read and write timeouts must not cut a long-lived socket:
	// make sure the hijacked connection keeps no deadline.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	// The origin is checked above, by the server's own host policy.
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		s.log.Info("websocket refused", "game", id, "err", err)
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
	hello, err := decodeClientMsg(data)
	if err == nil && hello.Type != "hello" {
		err = app.Errorf(app.EInvalid, "the first message must be hello: {\"type\":\"hello\",\"token\":\"...\",\"ply\":N}")
	}
	if err != nil {
		writeWS(ctx, conn, errorMsg(err))
		conn.Close(websocket.StatusPolicyViolation, "expected hello")
		return
	}
	c := &client{send: make(chan serverMsg, sendBuffer), gone: make(chan struct{}), ply: -1}
	// Register before reading the state, so no update falls in between.
	s.hub.add(id, c)
	defer s.hub.remove(id, c)
	state, err := s.state(ctx, id, hello.Token, hello.Ply)
	if err != nil {
		writeWS(ctx, conn, errorMsg(err))
		conn.Close(websocket.StatusPolicyViolation, "no such game")
		return
	}
	v := state.Game
	s.hub.mu.Lock()
	c.you = v.You
	// The state goes out before the updates queued meanwhile (full views,
	// or changes of a view at least as new): the client ends at the newer.
	c.ply = max(c.ply, v.Ply)
	s.hub.mu.Unlock()
	token := hello.Token

	// reply queues a message for this client, dropping a client that lags.
	reply := func(m *serverMsg) bool {
		select {
		case c.send <- *m:
			return true
		default:
			c.drop()
			return false
		}
	}
	// presence.go: in a game between two players, this socket counts for
	// its side, and hears who else is here if it asks.
	friend := v.Mode == app.ModeFriend
	if friend {
		s.presence.join(id, v.You)
		defer s.presence.leave(id, v.You)
	}
	if hello.Presence {
		s.hub.mu.Lock()
		c.presence = true
		s.hub.mu.Unlock()
		if friend {
			reply(s.presence.now(id))
		}
	}
	// Actions are stored by a goroutine of their own, one at a time and in
	// order, so that the reader goes on reading (and answering the
	// protocol's pings) while a slow store or a busy machine holds an action.
	actions := make(chan clientMsg, maxQueuedActions)
	s.sockets.Add(1) // the actor may be storing an action at shutdown
	go func() {
		defer s.sockets.Done()
		for m := range actions {
			// Success reaches every client, this one included, as an update.
			if _, err := s.act(ctx, viaWS, id, token, m.Action, *m.Ply); err != nil {
				if !reply(errorMsg(err)) {
					return
				}
			}
		}
	}()
	s.sockets.Add(1)
	go func() {
		defer s.sockets.Done()
		defer cancel()
		defer close(actions)
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				return
			}
			m, err := decodeClientMsg(data)
			var msg *serverMsg
			switch {
			case err != nil:
				msg = errorMsg(err)
			case m.Type == "ping":
				msg = &serverMsg{Type: "pong"}
			case m.Type == "hello":
				// A client that missed an update asks for the full view.
				st, err := s.state(ctx, id, token, m.Ply)
				if err != nil {
					msg = errorMsg(err)
					break
				}
				// Queued with the hub held, so that the updates after it
				// change the view it carries.
				s.hub.mu.Lock()
				select {
				case c.send <- *st:
					c.ply = st.Game.Ply
				default:
					c.drop()
				}
				s.hub.mu.Unlock()
				if c.dropped() {
					return
				}
			case m.Type == "say":
				if err := s.say(id, v.You, m.Say); err != nil {
					msg = errorMsg(err)
				}
			case m.Type == "action":
				select {
				case actions <- m:
				default:
					msg = errorMsg(app.Errorf(app.ERateLimited, "%d actions are waiting to be stored; wait for their updates before sending more", maxQueuedActions))
				}
			}
			if msg != nil && !reply(msg) {
				return
			}
		}
	}()

	if err := writeWS(ctx, conn, state); err != nil {
		return
	}
	if token != "" && v.You == "" { // say so, rather than silently seat a player as a spectator
		err := app.Errorf(app.EForbidden, "this seat token holds no seat in game %s; you are watching as a spectator", id)
		if writeWS(ctx, conn, errorMsg(err)) != nil {
			return
		}
	}
	// A peer that does not answer a ping in time is gone: close its socket.
	writeLoop(ctx, s, conn, c.send, c.gone, func(ctx context.Context, conn *websocket.Conn, m serverMsg) error {
		return writeWS(ctx, conn, &m)
	})
}

// writeLoop writes each message of send to conn with write until the
// connection fails or ends, pinging it every pingEvery (a peer that does
// not answer in time is gone); gone closing asks the client to reconnect,
// and the server's shutdown closes the socket saying so. The game's and
// the lobby's sockets share it.
func writeLoop[M any](ctx context.Context, s *Server, conn *websocket.Conn, send <-chan M, gone <-chan struct{}, write func(context.Context, *websocket.Conn, M) error) {
	ping := time.NewTicker(s.pingEvery)
	defer ping.Stop()
	for {
		select {
		case m := <-send:
			if err := write(ctx, conn, m); err != nil {
				return
			}
		case <-ping.C:
			pctx, pcancel := context.WithTimeout(ctx, s.pingTimeout)
			err := conn.Ping(pctx)
			pcancel()
			if err != nil {
				return
			}
		case <-gone:
			conn.Close(websocket.StatusGoingAway, "reconnect")
			return
		case <-ctx.Done():
			if s.hub.ctx.Err() != nil {
				conn.Close(websocket.StatusGoingAway, "server shutting down")
			}
			return
		}
	}
}

func errorMsg(err error) *serverMsg {
	return &serverMsg{Type: "error", Error: app.ErrorMessage(err), Code: app.ErrorCode(err)}
}

// writeWS sends m as JSON, within 10 s.
func writeWS(ctx context.Context, conn *websocket.Conn, m *serverMsg) error {
	data := m.raw
	if data == nil {
		var err error
		if data, err = json.Marshal(m); err != nil {
			return errors.New("server: cannot encode a websocket message")
		}
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return conn.Write(wctx, websocket.MessageText, data)
}
