package server

import (
	"context"
	"sync"
	"time"

	"matombo/internal/app"
	"matombo/internal/lobby"
)

// lobbyHub keeps this instance's lobby sockets and its copy of the open
// challenges, and sends each socket the changes it sees. A change (here,
// or another instance's signal) queues the challenge's id; one worker
// reloads each from the store, in order, so a socket never hears an older
// state after a newer one. Every lobbyBeat it touches the challenges whose
// creator has a socket here and expires those whose creator has been gone
// longer than the grace, on whatever instance they were posted.
type lobbyHub struct {
	s       *Server
	mu      sync.Mutex
	open    map[string]*lobby.Challenge // nil until loaded
	clients map[*lobbyClient]struct{}
	queue   chan string // challenge ids to reload; "" reloads them all
}

// lobbyClient is one lobby socket.
type lobbyClient struct {
	viewer lobby.Viewer    // guarded by the hub's mu
	told   map[string]bool // the challenges it was told are accepted (hub's mu)
	send   chan lobbyMsg
	gone   chan struct{} // closed when the client must disconnect
	once   sync.Once
}

func (c *lobbyClient) drop() { c.once.Do(func() { close(c.gone) }) }

// lobbyMsg is a message to a lobby socket.
type lobbyMsg struct {
	// Type is "lobby" (the whole list), "challenge" (one is new or
	// changed), "gone" (one left the lobby: Why says accepted, cancelled
	// or expired), "matched" (the client's challenge was accepted: Game is
	// its game, where the challenge's key is the client's seat), "error"
	// or "pong".
	Type       string       `json:"type"`
	Challenges []lobby.View `json:"challenges,omitempty"`
	Challenge  *lobby.View  `json:"challenge,omitempty"`
	ID         string       `json:"id,omitempty"`
	Why        string       `json:"why,omitempty"`
	Game       string       `json:"game,omitempty"`
	Error      string       `json:"error,omitempty"`
	Code       app.Code     `json:"code,omitempty"`
}

// lobbyQueue bounds the reloads waiting; past it, the hub reloads all.
const lobbyQueue = 256

func newLobbyHub(s *Server) *lobbyHub {
	return &lobbyHub{s: s, clients: map[*lobbyClient]struct{}{}, queue: make(chan string, lobbyQueue)}
}

// lobbyBeat is how often the hub touches and expires challenges: a third
// of the grace, so that a creator's socket touches its challenges at
// least twice within it.
func (h *lobbyHub) beat() time.Duration { return max(h.s.lobby.grace/3, 100*time.Millisecond) }

// changed queues challenge id's reload.
func (h *lobbyHub) changed(id string) {
	select {
	case h.queue <- id:
	default:
		select { // full: one reload of everything covers every id dropped
		case h.queue <- "":
		default:
		}
	}
}

// resync reloads every challenge (signals may have been lost).
func (h *lobbyHub) resync() { h.changed("") }

// run starts the hub's worker and beat until ctx ends.
func (h *lobbyHub) run(ctx context.Context) {
	svc := h.s.lobby.svc
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case id := <-h.queue:
				if err := h.reload(ctx, id); err != nil && ctx.Err() == nil {
					h.s.log.Warn("lobby: reload", "challenge", id, "err", err)
				}
			}
		}
	}()
	go func() {
		t := time.NewTicker(h.beat())
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if err := svc.Touch(ctx, h.owned()); err != nil && ctx.Err() == nil {
				h.s.log.Warn("lobby: touch challenges", "err", err)
			}
			if _, err := svc.Expire(ctx, h.s.lobby.grace); err != nil && ctx.Err() == nil {
				h.s.log.Warn("lobby: expire challenges", "err", err)
			}
		}
	}()
}

// owned returns the open challenges whose creator has a socket here.
func (h *lobbyHub) owned() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ids []string
	for id, c := range h.open {
		for cl := range h.clients {
			if cl.viewer.Owns(c) {
				ids = append(ids, id)
				break
			}
		}
	}
	return ids
}

// load reads the open challenges if the hub has not yet.
func (h *lobbyHub) load(ctx context.Context) error {
	h.mu.Lock()
	loaded := h.open != nil
	h.mu.Unlock()
	if loaded {
		return nil
	}
	return h.reload(ctx, "")
}

// reload reads challenge id (every open one for "") and tells the sockets.
func (h *lobbyHub) reload(ctx context.Context, id string) error {
	svc := h.s.lobby.svc
	if id == "" {
		open, err := svc.Open(ctx)
		if err != nil {
			return err
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		h.open = map[string]*lobby.Challenge{}
		for _, c := range open {
			h.open[c.ID] = c
		}
		for cl := range h.clients {
			h.sendList(cl)
		}
		return nil
	}
	c, err := svc.Challenge(ctx, id)
	if app.ErrorCode(err) == app.ENotFound {
		c, err = &lobby.Challenge{ID: id, Status: lobby.StatusExpired}, nil
	}
	if err != nil {
		return err
	}
	h.apply(c)
	return nil
}

// apply records c's new state and tells each socket what it sees of it.
func (h *lobbyHub) apply(c *lobby.Challenge) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.open != nil {
		if c.Status == lobby.StatusOpen {
			h.open[c.ID] = c
		} else {
			delete(h.open, c.ID)
		}
	}
	for cl := range h.clients {
		switch {
		case cl.viewer.Sees(c):
			v := cl.viewer.ViewFor(c)
			h.sendTo(cl, lobbyMsg{Type: "challenge", Challenge: &v})
		case c.Kind != lobby.KindDirect || cl.viewer.Owns(c) || cl.viewer.Account != "" && c.To == cl.viewer.Account:
			h.sendTo(cl, lobbyMsg{Type: "gone", ID: c.ID, Why: c.Status})
		}
		h.tellMatched(cl, c)
	}
}

// tellMatched tells cl, once, that its challenge c was accepted.
func (h *lobbyHub) tellMatched(cl *lobbyClient, c *lobby.Challenge) {
	if c.Status == lobby.StatusAccepted && c.Game != "" && cl.viewer.Owns(c) && !cl.told[c.ID] {
		cl.told[c.ID] = true
		h.sendTo(cl, lobbyMsg{Type: "matched", ID: c.ID, Game: c.Game})
	}
}

// sendList sends cl the challenges it sees (the hub's mu held).
func (h *lobbyHub) sendList(cl *lobbyClient) {
	views := []lobby.View{}
	for _, c := range h.open {
		if cl.viewer.Sees(c) {
			views = append(views, cl.viewer.ViewFor(c))
		}
	}
	sortViews(views)
	h.sendTo(cl, lobbyMsg{Type: "lobby", Challenges: views})
}

// sendTo queues m for cl, dropping a client that lags (it reconnects and
// gets the whole list).
func (h *lobbyHub) sendTo(cl *lobbyClient, m lobbyMsg) {
	select {
	case cl.send <- m:
	default:
		cl.drop()
	}
}

// add registers cl and sends it the list; its keys' challenges that were
// accepted or left while it was away are told too.
func (h *lobbyHub) add(cl *lobbyClient, mine []*lobby.Challenge) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clients[cl] = struct{}{}
	h.greet(cl, mine)
}

// rekey replaces cl's keys (a new hello) and sends the list again.
func (h *lobbyHub) rekey(cl *lobbyClient, keys map[string]bool, mine []*lobby.Challenge) {
	h.mu.Lock()
	defer h.mu.Unlock()
	cl.viewer.Keys = keys
	h.greet(cl, mine)
}

// greet sends cl the list, and the fate of its challenges mine that are
// no longer open (the hub's mu held).
func (h *lobbyHub) greet(cl *lobbyClient, mine []*lobby.Challenge) {
	h.sendList(cl)
	for _, c := range mine {
		if c.Status != lobby.StatusOpen && c.Status != lobby.StatusTaken {
			h.sendTo(cl, lobbyMsg{Type: "gone", ID: c.ID, Why: c.Status})
		}
		h.tellMatched(cl, c)
	}
}

func (h *lobbyHub) remove(cl *lobbyClient) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.clients, cl)
}
