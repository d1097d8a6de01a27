package server

import (
	"net/http"
	"sync"
	"time"

	"matombo/internal/app"
	"matombo/internal/lobby"
)

// The lobby's HTTP side (package lobby): the open challenges, posting,
// accepting and cancelling one, quick pairing, and the live lobby's socket
// (lobbyws.go). Logged-in players act for their account (with the CSRF
// token, as everywhere); anonymous players post and accept casual
// challenges, and prove a challenge is theirs with its key (the
// "Authorization: Seat <key>" header or their lobby socket's hello).

// DefaultLobbyGrace is how long a challenge outlives its creator's last
// lobby socket: a reload or a short loss of connection keeps it.
const DefaultLobbyGrace = 10 * time.Second

// lobbyPostsPerAddr bounds the challenges posted and quick seeks asked
// from one address a minute.
const lobbyPostsPerAddr = 20

// lobbyRoutes holds the lobby's service, its live side and its limits;
// svc is nil when the store keeps no challenges.
type lobbyRoutes struct {
	svc   *lobby.Service
	hub   *lobbyHub
	posts *limiter
	grace time.Duration
	start sync.Once // starts the hub's loops, at the lobby's first use
}

func newLobbyRoutes(s *Server, svc *app.Service, o Options) *lobbyRoutes {
	l := &lobbyRoutes{grace: o.LobbyGrace, posts: newLimiter(lobbyPostsPerAddr, time.Minute, "challenges posted and quick seeks count together, refused ones not")}
	if l.grace <= 0 {
		l.grace = DefaultLobbyGrace
	}
	if o.Lobby == nil {
		return l
	}
	l.hub = newLobbyHub(s)
	l.svc = lobby.New(lobby.Config{Store: o.Lobby, Games: svc, Accounts: o.Accounts, Logger: s.log, Changed: s.challengeChanged})
	return l
}

// registerLobby registers the lobby's routes.
func (s *Server) registerLobby(m *http.ServeMux) {
	m.HandleFunc("GET /api/lobby", s.withLobby(s.handleLobby))
	m.HandleFunc("GET /api/lobby/ws", s.withLobby(s.handleLobbyWS))
	m.HandleFunc("POST /api/lobby/challenges", s.jsonOnly(s.withLobby(s.limited(s.lobby.posts, "challenges posted", true, s.handlePost))))
	m.HandleFunc("POST /api/lobby/challenges/{id}/accept", s.withLobby(s.limited(s.joins, "joins", false, s.handleAccept)))
	m.HandleFunc("POST /api/lobby/challenges/{id}/cancel", s.withLobby(s.handleCancel))
	m.HandleFunc("POST /api/lobby/quick", s.jsonOnly(s.withLobby(s.limited(s.lobby.posts, "quick seeks", true, s.handleQuick))))
}

// withLobby answers 404 when the server keeps no lobby, and starts the
// lobby's loops at its first use.
func (s *Server) withLobby(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.lobby.svc == nil {
			s.fail(w, r, app.Errorf(app.ENotFound, "this server keeps no lobby (its store does not); games are played by link"))
			return
		}
		s.lobby.start.Do(func() { s.lobby.hub.run(s.hub.ctx) })
		h(w, r)
	}
}

// challengeChanged is told by the lobby of every change of a challenge:
// the local lobby sockets hear of it, and so do the other instances.
func (s *Server) challengeChanged(id string) {
	s.lobby.hub.changed(id)
	s.signal(app.Signal{Kind: app.SignalChallenge, ID: id})
}

// viewer returns who r is in the lobby: its account, and the key of its
// Authorization header.
func (s *Server) viewer(r *http.Request) (lobby.Viewer, error) {
	v := lobby.Viewer{Keys: map[string]bool{}}
	a, err := s.optionalAccount(r)
	if err != nil {
		return v, err
	}
	if a != nil {
		v.Account = a.ID
	}
	if key := seatToken(r); key != "" {
		v.Keys[lobby.KeyOf(key)] = true
	}
	return v, nil
}

func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	v, err := s.viewer(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	open, err := s.lobby.svc.Open(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"challenges": visible(v, open), "grace_seconds": int(s.lobby.grace / time.Second)})
}

// visible returns the views of the challenges of open that v sees.
func visible(v lobby.Viewer, open []*lobby.Challenge) []lobby.View {
	out := []lobby.View{}
	for _, c := range open {
		if v.Sees(c) {
			out = append(out, v.ViewFor(c))
		}
	}
	return out
}

func (s *Server) handlePost(w http.ResponseWriter, r *http.Request) {
	var req lobby.PostRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	a, err := s.optionalAccount(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p, err := s.lobby.svc.Post(r.Context(), a, req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, p)
}

func (s *Server) handleAccept(w http.ResponseWriter, r *http.Request) {
	a, err := s.optionalAccount(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := s.lobby.svc.Accept(r.Context(), a, r.PathValue("id"), clientAddr(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleCancel(w http.ResponseWriter, r *http.Request) {
	a, err := s.optionalAccount(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.lobby.svc.Cancel(r.Context(), a, r.PathValue("id"), seatToken(r)); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"cancelled": r.PathValue("id")})
}

// quickBody is the body of POST /api/lobby/quick: the pairing asked for,
// and the keys of the asker's own seeks, which it must not be paired with.
type quickBody struct {
	lobby.QuickRequest
	Keys []string `json:"keys"`
}

func (s *Server) handleQuick(w http.ResponseWriter, r *http.Request) {
	var req quickBody
	if err := decodeJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	a, err := s.optionalAccount(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	skip, err := keySet(req.Keys)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q, err := s.lobby.svc.Quick(r.Context(), a, req.QuickRequest, skip, clientAddr(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	status := http.StatusOK
	if q.Posted != nil {
		status = http.StatusCreated
	}
	writeJSON(w, status, q)
}

// maxKeys bounds the challenge keys one lobby client names.
const maxKeys = 16

// keySet returns the Viewer.Keys of keys.
func keySet(keys []string) (map[string]bool, error) {
	if len(keys) > maxKeys {
		return nil, app.Errorf(app.EInvalid, "%d challenge keys: at most %d are taken (a player has at most a few challenges open)", len(keys), maxKeys)
	}
	out := map[string]bool{}
	for _, k := range keys {
		if k != "" {
			out[lobby.KeyOf(k)] = true
		}
	}
	return out, nil
}

// lobbyOf returns the lobby's store of store, if it keeps challenges.
func lobbyOf(store app.Store) lobby.Store {
	ls, _ := store.(lobby.Store)
	return ls
}

// signalsOf returns the signals of the broadcast b, if it carries them.
func signalsOf(b app.Broadcast) app.Signals {
	sg, _ := b.(app.Signals)
	return sg
}
