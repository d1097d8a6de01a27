// Package server is the matombo web app's HTTP side: the JSON API, the
// WebSocket of live games and the front-end's pages (package web), on
// net/http with method patterns, log/slog and a graceful shutdown.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/internal/lobby"
	"matombo/internal/web"
	"matombo/search"
)

// Body limits of requests.
const (
	maxJSONBody   = 16 << 10           // API JSON bodies
	maxRecordBody = app.MaxRecordBytes // an imported record
	maxWSMessage  = 4 << 10            // a WebSocket message from a client
)

// Config configures Run.
type Config struct {
	Addr   string        // host:port to listen on; port 0 picks a free port
	Store  app.Store     // where games are kept; Run does not close it
	AI     search.Levels // the AI's player per level (app.Config.AI); zero: the service's default
	Logger *slog.Logger
	// Ready, if set, is called with the base URL (http://host:port) once the
	// server listens.
	Ready func(url string)
	// Hosts are the names the server answers for besides localhost, the
	// loopback addresses, the host of Addr and any IP address (see
	// hostPolicy); "*.example.com" admits the names under example.com, "*"
	// every name. The pages of these hosts may also change state.
	Hosts []string
	// OriginPatterns are extra origins (path.Match patterns of host[:port])
	// whose pages may change state and open WebSockets; the server's own
	// origin and Hosts are always allowed.
	OriginPatterns []string
	// Limits bounds what clients may take (zero fields: the defaults).
	Limits Limits
	// Timeouts of the HTTP server (zero fields: the defaults).
	Timeouts Timeouts
	// Broadcast links this instance with the others sharing the store
	// (postgres.Notifier): their changes reach the local WebSockets. Nil
	// for a single instance.
	Broadcast app.Broadcast
	// LobbyGrace is how long a challenge outlives its creator's lobby
	// socket (<= 0: DefaultLobbyGrace).
	LobbyGrace time.Duration
	// ShutdownTimeout bounds the wait for requests in flight on shutdown
	// (0: 15 s).
	ShutdownTimeout time.Duration
	// MetricsToken, if set, is the bearer token /metrics asks for
	// (Authorization: Bearer <token>); "" leaves /metrics open.
	MetricsToken string
	// Clock is the games' clocks' time (app.Config.Clock); nil: the real
	// time. Tests give a fake one.
	Clock app.Clock
}

// Options configures New.
type Options struct {
	Logger *slog.Logger // nil: discard
	// Listen is the address the server listens on; its host is answered.
	Listen string
	// Hosts and OriginPatterns are those of Config.
	Hosts, OriginPatterns []string
	// Limits bounds what clients may take (zero fields: the defaults).
	Limits Limits
	// Accounts, if set, keeps player accounts (accounts.go); nil: none.
	Accounts *accounts.Service
	// Puzzles, if set, keeps the puzzles' live ratings (puzzleratings.go);
	// nil: the shipped ratings, never updated.
	Puzzles accounts.PuzzleStore
	// SecureCookies marks the session cookies Secure on every answer (they
	// are over TLS and for pages served over https anyway).
	SecureCookies bool
	// Lobby, if set, keeps the lobby's challenges (lobby.go); nil: no lobby.
	Lobby lobby.Store
	// LobbyGrace is how long a challenge outlives its creator's lobby
	// socket (<= 0: DefaultLobbyGrace).
	LobbyGrace time.Duration
	// Signals links this instance's lobby, presence and quick messages
	// with the other instances sharing the store (postgres.Notifier); nil
	// for a single instance.
	Signals app.Signals
}

// Server is the HTTP handler of the app with its live-game hub.
type Server struct {
	svc     *app.Service
	hub     *hub
	log     *slog.Logger
	hosts   *hostPolicy
	limits  Limits
	creates *limiter // games created, rematches, imports: accepted ones
	joins   *limiter
	hints   *limiter
	lab     *limiter
	open    *sockets // the WebSockets open, per address and in all
	mux     *http.ServeMux
	sockets sync.WaitGroup // the WebSocket handlers running
	metrics metrics        // what /metrics reports
	accts   *accountRoutes // the accounts' service and limits (accounts.go)
	puzzles *puzzleRoutes  // the shipped puzzles and their provers (puzzles.go)
	lobby   *lobbyRoutes   // the lobby (lobby.go)
	// presence counts the players connected to each game (presence.go);
	// says limits the quick messages (say.go); signals carries both, and
	// the lobby's changes, to the other instances (signals.go).
	presence *presence
	says     *limiter
	signals  signaller
	// metricsToken, if set, is the bearer token /metrics asks for.
	metricsToken string
	// pingEvery and pingTimeout pace the pings that find dead sockets.
	pingEvery, pingTimeout time.Duration
}

// New returns the handler of the app on svc and registers its hub as svc's
// notifier. Close the hub with Shutdown.
func New(svc *app.Service, o Options) *Server {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	l := o.Limits.withDefaults()
	s := &Server{
		svc: svc, hub: newHub(log), log: log, mux: http.NewServeMux(),
		hosts:     newHostPolicy(o.Hosts, o.Listen, o.OriginPatterns),
		limits:    l,
		creates:   newLimiter(l.Creates, time.Minute, "creating games, rematches and importing records count together, refused requests not"),
		joins:     newLimiter(l.Joins, time.Minute, "joining games, with a wrong invite code too"),
		hints:     newLimiter(l.Hints, time.Minute, "hints"),
		lab:       newLimiter(l.Lab, time.Minute, "lab experiments"),
		open:      newSockets(l.SocketsPerAddr, l.Sockets),
		pingEvery: 30 * time.Second, pingTimeout: 10 * time.Second,
	}
	s.metrics.start = time.Now()
	s.accts = newAccountRoutes(svc, o)
	s.puzzles = &puzzleRoutes{moves: newLimiter(puzzleMoves, time.Minute, "puzzle moves"),
		results: newLimiter(puzzleResults, time.Minute, "puzzle results"), ratings: o.Puzzles}
	s.signals = signaller{to: o.Signals, queue: make(chan app.Signal, signalQueue)}
	s.presence = newPresence(s)
	s.says = newLimiter(saysPerSide, sayWindow, "quick messages of one side of a game")
	s.lobby = newLobbyRoutes(s, svc, o)
	svc.SetNotifier(s.hub)
	s.routes()
	return s
}

// SetMetricsToken makes /metrics ask for the bearer token ("" : open to
// all). Call it before serving.
func (s *Server) SetMetricsToken(token string) { s.metricsToken = token }

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /healthz", s.handleHealth)
	m.HandleFunc("GET /metrics", s.handleMetrics)
	m.HandleFunc("GET /api/rulesets", s.handleRulesets)
	m.HandleFunc("POST /api/games", s.jsonOnly(s.limited(s.creates, "games created", true, s.handleCreate)))
	m.HandleFunc("GET /api/games", s.handleList)
	m.HandleFunc("GET /api/games/{id}", s.handleGame)
	m.HandleFunc("POST /api/games/{id}/join", s.jsonOnly(s.limited(s.joins, "joins", false, s.handleJoin)))
	m.HandleFunc("POST /api/games/{id}/invite", s.handleInvite)
	m.HandleFunc("POST /api/games/{id}/actions", s.jsonOnly(s.handleAction))
	m.HandleFunc("POST /api/games/{id}/resign", s.handleResign)
	m.HandleFunc("POST /api/games/{id}/rematch", s.limited(s.creates, "rematches asked", true, s.handleRematch))
	m.HandleFunc("GET /api/games/{id}/hint", s.limited(s.hints, "hints asked", false, s.handleHint))
	m.HandleFunc("GET /api/games/{id}/record", s.handleRecord)
	m.HandleFunc("GET /api/games/{id}/replay", s.handleReplay)
	m.HandleFunc("GET /api/games/{id}/ws", s.handleWS)
	m.HandleFunc("POST /api/records", s.limited(s.creates, "records imported", true, s.handleImport))
	m.HandleFunc("GET /api/position", s.handlePosition)
	s.registerReview(m)                                            // review.go: game reviews and the analysis board
	m.HandleFunc("GET /api/position/check", s.handlePositionCheck) // poscheck.go: the board editor's
	s.registerAccounts(m)
	s.registerLobby(m)
	s.registerClocks(m) // clocks.go: abort, draws, takebacks
	s.registerPuzzles(m)
	// The research lab's experiments (lab.go): the limits, and the
	// experiments, JSON only and limited per address. Other methods reach
	// the lab's handler, which answers 405. An experiment plays one game at
	// a time and each level player's search on one worker, so it takes one
	// core and leaves the others to the players.
	labH := newLabHandler(LabOptions{Workers: 1}, s.log)
	m.Handle("/api/lab", labH)
	m.HandleFunc("POST /api/lab", s.jsonOnly(s.limited(s.lab, "lab experiments", false, labH.ServeHTTP)))
	// Every other API request: 405 or 404 (handleNoRoute).
	m.HandleFunc("/api/", s.handleNoRoute)
	// The front-end: every page route and /static/ (package web).
	m.Handle("/", web.Handler())
}

// probeMethods are the methods tried on the path of a request no API route
// takes, to find the methods its path accepts. HEAD finds the GET routes, as
// net/http serves HEAD with them.
var probeMethods = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
	http.MethodPatch, http.MethodDelete, http.MethodOptions,
}

// handleNoRoute answers a request under /api/ that no route took: 405
// Method Not Allowed, with Allow, if routes match its path under other
// methods, else 404. The catch-all hides the mux's own 405 (the catch-all
// matches every method), so the allowed methods are asked of the mux.
func (s *Server) handleNoRoute(w http.ResponseWriter, r *http.Request) {
	if allowed := s.allowedMethods(r); len(allowed) > 0 {
		list := strings.Join(allowed, ", ")
		w.Header().Set("Allow", list)
		writeError(w, s.log, r, app.Errorf(app.EMethodNotAllowed, "method %s is not allowed on %s; allowed: %s", r.Method, r.URL.Path, list))
		return
	}
	writeError(w, s.log, r, app.Errorf(app.ENotFound, "no API route %s %s; see docs/API.md", r.Method, r.URL.Path))
}

// allowedMethods returns the methods of probeMethods for which the mux
// routes r's path to another pattern than the one that took r (the
// catch-all's).
func (s *Server) allowedMethods(r *http.Request) []string {
	var allowed []string
	probe := *r // the mux only reads the method, host and URL
	for _, m := range probeMethods {
		if m == r.Method {
			continue
		}
		probe.Method = m
		if _, pattern := s.mux.Handler(&probe); pattern != "" && pattern != r.Pattern {
			allowed = append(allowed, m)
		}
	}
	return allowed
}

// ServeHTTP implements http.Handler: security headers, request logging and
// panic recovery around the routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	h := w.Header()
	h.Set("Content-Security-Policy", csp(r.Host))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic", "method", r.Method, "path", redact(r.URL.Path), "panic", v)
			if !rec.wrote {
				writeError(rec, s.log, r, app.Errorf(app.EInternal, "panic: %v", v))
			}
		}
		s.log.Info("request", "method", r.Method, "path", redact(r.URL.Path), "status", rec.status, "duration", time.Since(start))
	}()
	if !s.guard(rec, r) {
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// csp is the Content-Security-Policy: only this origin, the WebSocket of
// this host included (older browsers do not count ws: as 'self').
func csp(host string) string {
	policy := web.CSP
	if validHost(host) {
		policy = strings.Replace(policy, "connect-src 'self'", "connect-src 'self' ws://"+host+" wss://"+host, 1)
	}
	return policy
}

// validHost reports whether host is a plain host[:port] safe to put in a header.
func validHost(host string) bool {
	if host == "" || len(host) > 255 {
		return false
	}
	for _, c := range host {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return false
		}
	}
	return true
}

// redact hides the invite code of /join/{id}/{code} paths from logs.
func redact(path string) string {
	if rest, ok := strings.CutPrefix(path, "/join/"); ok {
		id, _, _ := strings.Cut(rest, "/")
		return "/join/" + id + "/…"
	}
	return path
}

// statusRecorder remembers the status written, for the log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController (and the WebSocket upgrade) reach
// the underlying writer.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// listen starts carrying the changes of other instances to the local
// clients, until ctx ends; wg tracks the goroutines.
func (s *Server) listen(ctx context.Context, b app.Broadcast, wg *sync.WaitGroup) {
	r := newRefresher(s)
	wg.Go(func() { r.run(ctx, refreshWorkers) })
	wg.Go(func() {
		if err := b.Listen(ctx, r.changed, r.resync); err != nil && ctx.Err() == nil {
			s.log.Error("broadcast: listen stopped; other instances' changes no longer reach this one", "err", err)
		}
	})
}

// Shutdown closes the live connections (clients reconnect to the next server).
func (s *Server) Shutdown() { s.hub.close() }

// Timeouts are the HTTP server's. Zero fields take the defaults shown. A
// WebSocket is exempt from them once upgraded (handleWS): its pings find
// dead peers.
type Timeouts struct {
	ReadHeader time.Duration // to send a request's headers (10 s)
	Read       time.Duration // to send a whole request, body included (30 s)
	// Write bounds the answer, from the end of the request's headers
	// (60 s): above the lab's 10 s experiments and the 2 s hints.
	Write time.Duration
	Idle  time.Duration // a keep-alive connection between requests (120 s)
}

// newHTTPServer returns the HTTP server of h with the timeouts t.
func newHTTPServer(h http.Handler, t Timeouts, log *slog.Logger) *http.Server {
	def := func(d, v time.Duration) time.Duration {
		if d <= 0 {
			return v
		}
		return d
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: def(t.ReadHeader, 10*time.Second),
		ReadTimeout:       def(t.Read, 30*time.Second),
		WriteTimeout:      def(t.Write, 60*time.Second),
		IdleTimeout:       def(t.Idle, 120*time.Second),
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// Run serves the app on cfg.Addr until ctx is done, then shuts down
// gracefully: it stops accepting, lets requests in flight (and their
// writes) finish, closes the WebSockets and stops the AI workers.
func Run(ctx context.Context, cfg Config) error {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Store == nil {
		return errors.New("server: no store configured")
	}
	if err := CheckHosts(cfg.Hosts); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("server: listen on %s: %w", cfg.Addr, err)
	}
	svc := app.NewService(app.Config{Store: cfg.Store, AI: cfg.AI, Workers: runtime.NumCPU(), Queue: 256, Logger: log, Broadcast: cfg.Broadcast, Clock: cfg.Clock})
	srv := New(svc, Options{Logger: log, Listen: cfg.Addr, Hosts: cfg.Hosts, OriginPatterns: cfg.OriginPatterns, Limits: cfg.Limits, Accounts: accountsOf(cfg.Store, log),
		Puzzles: puzzleStoreOf(cfg.Store), Lobby: lobbyOf(cfg.Store), LobbyGrace: cfg.LobbyGrace, Signals: signalsOf(cfg.Broadcast)})
	srv.SetMetricsToken(cfg.MetricsToken)
	lctx, stopListen := context.WithCancel(ctx)
	var listeners sync.WaitGroup
	// Stop in order: the listeners of other instances, then the AI workers.
	stop := func() {
		stopListen()
		listeners.Wait()
		svc.Close()
	}
	if cfg.Broadcast != nil {
		srv.listen(lctx, cfg.Broadcast, &listeners)
		srv.listenSignals(lctx, &listeners) // signals.go: the lobby, presence and quick messages
	}
	srv.ratePending(lctx, &listeners) // accounts.go: the ratings a stopped instance missed
	svc.StartSweeping()               // the flags, correspondence turns and abandoned games (app/sweep.go); svc.Close stops it
	hs := newHTTPServer(srv, cfg.Timeouts, log)
	hs.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	hs.RegisterOnShutdown(srv.Shutdown)
	url := "http://" + ln.Addr().String()
	log.Info("serving", "url", url)
	if cfg.Ready != nil {
		cfg.Ready(url)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		stop()
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	}
	timeout := cfg.ShutdownTimeout
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err = hs.Shutdown(sctx)
	// Shutdown does not wait for hijacked connections: wait for the
	// sockets' handlers (an action they are storing) before stopping.
	sockets := make(chan struct{})
	go func() { srv.sockets.Wait(); close(sockets) }()
	select {
	case <-sockets:
	case <-sctx.Done():
		log.Warn("shutdown: websocket handlers still running")
	}
	stop()
	<-errc
	if err != nil {
		return fmt.Errorf("server: shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// healthTimeout bounds the database check of /healthz.
const healthTimeout = 2 * time.Second

// handleHealth answers 200 "ok" while the process serves and its database
// answers, and 503 with the reason otherwise, so that a load balancer stops
// sending players to an instance that cannot store their moves.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := s.svc.Check(ctx); err != nil {
		s.log.Warn("health check failed", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "unhealthy: %v\n", err)
		return
	}
	fmt.Fprintln(w, "ok")
}
