// Package loadtest plays many concurrent games against a running matombo
// server over its HTTP API and WebSockets and measures how fast the server
// acknowledges actions: throughput and latency percentiles.
//
// Each game is a "local" game (both seats held by the load tester) with one
// WebSocket per seat, as two players on two devices would have. The player
// whose decision it is sends a random legal action from the last view; its
// latency runs from the send to the update that acknowledges it on the same
// socket. A finished game is followed by its rematch, so every game slot
// keeps playing for the whole measured time.
//
// It only talks to loopback addresses (127.0.0.0/8, ::1, localhost): it is a
// tool for measuring one's own server, not for loading other people's.
package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Bounds of a run.
const (
	MaxGames   = 10000
	MaxSeconds = 600
	// MaxRate bounds Config.Rate.
	MaxRate = 100000
	// DefaultRuleset is the ruleset of the games unless Config says another.
	DefaultRuleset = "tsoro"
	// gamesPerAddress is how many games one simulated client address
	// creates: the server limits new games per client address (60 a
	// minute) and live connections (64 open: two seats' sockets a game).
	gamesPerAddress = 32
	// DefaultAckTimeout bounds the wait for one acknowledgement unless
	// Config says another bound.
	DefaultAckTimeout = 30 * time.Second
	// setupTimeout bounds the creation of the games and their sockets.
	setupTimeout = 120 * time.Second
	// maxErrorSamples is how many error messages a report keeps.
	maxErrorSamples = 5
)

// Config configures a run.
type Config struct {
	URL string // the server's base URL, http://127.0.0.1:8080
	// More base URLs of instances of the same server (one database): game
	// i is created on instance i mod n and its seats' sockets open on
	// instances i and i+1 mod n, so the two players of a game act through
	// two instances.
	More     []string
	Games    int           // concurrent games, 1..MaxGames
	Duration time.Duration // measured time, up to MaxSeconds
	Ruleset  string        // "" : DefaultRuleset
	Seed     uint64        // seed of the random choices (0: random)
	// Rate paces the games so that together they send about Rate actions
	// per second: each game acts every Games/Rate seconds (from a random
	// phase), like players who think between moves. 0: every game acts as
	// soon as its previous action is acknowledged (a closed loop, where
	// latency grows with the number of games).
	Rate float64
	// AckTimeout bounds the wait for an acknowledgement (and for the
	// update that lets the next player act); 0: DefaultAckTimeout.
	AckTimeout time.Duration
	// Attack, if set, is one of Attacks, run beside the players for the
	// whole measured time (its set-up before it, not measured), against
	// the first URL.
	Attack string
	// AttackSize, if set, replaces the attack's number of games (AttackAI),
	// sockets (AttackSockets) or reviews (AttackReviews), for tests; 0:
	// AIGames, IdleSockets and ReviewsAtOnce.
	AttackSize int
}

// Report is the outcome of a run. Latencies are in milliseconds.
type Report struct {
	Games         int     `json:"games"`           // concurrent games
	Actions       int     `json:"actions"`         // actions acknowledged in the measured time
	ActionsPerSec float64 `json:"actions_per_sec"` // Actions / Seconds
	P50           float64 `json:"p50_ms"`
	P95           float64 `json:"p95_ms"`
	P99           float64 `json:"p99_ms"`
	Max           float64 `json:"max_ms"`
	// From sending an action until every WebSocket of its game (both
	// seats, on their instances) has shown it.
	ReachP50 float64 `json:"reach_p50_ms"`
	ReachP99 float64 `json:"reach_p99_ms"`
	Errors   int     `json:"errors"`         // refused actions, failed requests, dropped sockets
	Finished int     `json:"games_finished"` // games played to their end (then rematched)
	// Rematches the server's per-address limit refused (429); the game slot
	// waited the Retry-After it was given and asked again. Not errors: the
	// server did what it promises.
	RateLimited  int      `json:"rate_limited"`
	Seconds      float64  `json:"seconds"`       // the measured time
	SetupSeconds float64  `json:"setup_seconds"` // creating the games and sockets, not measured
	Ruleset      string   `json:"ruleset"`
	Rate         float64  `json:"target_rate,omitempty"`   // Config.Rate, if paced
	ErrorSamples []string `json:"error_samples,omitempty"` // the first few errors
	// Attack is what the attacker of Config.Attack did, if any; its
	// failures are not the players' Errors.
	Attack *AttackReport `json:"attack,omitempty"`
}

// CheckURL parses a base URL and refuses any whose host is not a loopback
// address (127.0.0.0/8, ::1 or localhost) or whose scheme is not http.
func CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("loadtest: url %q is not a base URL like http://127.0.0.1:8080", raw)
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("loadtest: url %q: the scheme must be http (a local server)", raw)
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("loadtest: url %q: give the server's base URL only, like http://127.0.0.1:8080", raw)
	}
	host := u.Hostname()
	if !isLoopback(host) {
		return nil, fmt.Errorf("loadtest: host %q is not a loopback address; loadtest only loads a local server (127.0.0.0/8, ::1 or localhost)", host)
	}
	u.Path = ""
	return u, nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// check validates cfg and returns the base URLs.
func (cfg *Config) check() ([]*url.URL, error) {
	var us []*url.URL
	for _, raw := range append([]string{cfg.URL}, cfg.More...) {
		u, err := CheckURL(raw)
		if err != nil {
			return nil, err
		}
		us = append(us, u)
	}
	if cfg.Games < 1 || cfg.Games > MaxGames {
		return nil, fmt.Errorf("loadtest: %d games is not allowed; games run from 1 to %d", cfg.Games, MaxGames)
	}
	if cfg.Rate < 0 || cfg.Rate > MaxRate {
		return nil, fmt.Errorf("loadtest: a rate of %g actions per second is not allowed; the rate runs from 0 (unpaced) to %d", cfg.Rate, MaxRate)
	}
	if cfg.Duration <= 0 || cfg.Duration > MaxSeconds*time.Second {
		return nil, fmt.Errorf("loadtest: a run of %v is not allowed; seconds run from 1 to %d", cfg.Duration, MaxSeconds)
	}
	if cfg.Attack != "" && !slices.Contains(Attacks, cfg.Attack) {
		return nil, fmt.Errorf("loadtest: unknown attack %q; attacks are %s", cfg.Attack, strings.Join(Attacks, ", "))
	}
	return us, nil
}

// Run plays cfg.Games concurrent games for cfg.Duration (after setting them
// up) and reports. It returns an error only when the run could not start:
// a bad config or no game could be created; failures during the run are
// counted in Report.Errors.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	bases, err := cfg.check()
	if err != nil {
		return nil, err
	}
	if cfg.Ruleset == "" {
		cfg.Ruleset = DefaultRuleset
	}
	seed := cfg.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	if cfg.AckTimeout <= 0 {
		cfg.AckTimeout = DefaultAckTimeout
	}
	r := &runner{bases: bases, ruleset: cfg.Ruleset, ackTimeout: cfg.AckTimeout, clients: newClients(bases[0], cfg.Games)}
	defer r.clients.close()

	// Set up every game; the clock starts when all are ready.
	setupStart := time.Now()
	sctx, cancel := context.WithTimeout(ctx, setupTimeout)
	games := make([]*game, cfg.Games)
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() {
			g := &game{r: r, slot: i, rng: rand.New(rand.NewPCG(seed, uint64(i)))}
			if err := g.start(sctx, ""); err != nil {
				r.fail(err)
				return
			}
			games[i] = g
		})
	}
	wg.Wait()
	cancel()
	setup := time.Since(setupStart)
	ready := 0
	for _, g := range games {
		if g != nil {
			ready++
		}
	}
	if ready == 0 {
		return nil, fmt.Errorf("loadtest: no game could be set up on %s: %s", bases[0], r.firstError())
	}

	// The attack, if any, sets itself up and runs until the deadline.
	var attackDone func() *AttackReport
	actx, acancel := context.WithCancel(ctx)
	defer acancel()
	if cfg.Attack != "" {
		if attackDone, err = startAttack(actx, bases[0], cfg.Attack, cfg.AttackSize, seed); err != nil {
			return nil, err
		}
	}

	// Play until the deadline; an action in flight at the deadline is
	// still awaited but not counted.
	start := time.Now()
	deadline := start.Add(cfg.Duration)
	var interval time.Duration // between two actions of one game
	if cfg.Rate > 0 {
		interval = time.Duration(float64(cfg.Games) / cfg.Rate * float64(time.Second))
	}
	pctx, pcancel := context.WithDeadline(ctx, deadline)
	defer pcancel()
	for _, g := range games {
		if g != nil {
			wg.Go(func() {
				g.play(pctx, deadline, interval)
				g.close()
			})
		}
	}
	wg.Wait()
	elapsed := min(time.Since(start), cfg.Duration)
	acancel()
	var attack *AttackReport
	if attackDone != nil {
		attack = attackDone()
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("loadtest: interrupted: %w", ctx.Err())
	}

	var lat, reach []time.Duration
	finished, limited := 0, 0
	for _, g := range games {
		if g != nil {
			lat = append(lat, g.latencies...)
			reach = append(reach, g.reach...)
			finished += g.finished
			limited += g.limited
		}
	}
	rep := &Report{
		Games: cfg.Games, Actions: len(lat), Errors: int(r.errors.Load()), Finished: finished, RateLimited: limited,
		Seconds: elapsed.Seconds(), SetupSeconds: setup.Seconds(), Ruleset: cfg.Ruleset, Rate: cfg.Rate,
		ErrorSamples: r.samples(), Attack: attack,
	}
	if elapsed > 0 {
		rep.ActionsPerSec = float64(len(lat)) / elapsed.Seconds()
	}
	slices.Sort(lat)
	rep.P50, rep.P95, rep.P99 = ms(percentile(lat, 50)), ms(percentile(lat, 95)), ms(percentile(lat, 99))
	if len(lat) > 0 {
		rep.Max = ms(lat[len(lat)-1])
	}
	slices.Sort(reach)
	rep.ReachP50, rep.ReachP99 = ms(percentile(reach, 50)), ms(percentile(reach, 99))
	return rep, nil
}

// percentile returns the p-th percentile of sorted (nearest rank).
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 * n)
	return sorted[max(rank, 1)-1]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// runner is what the games of a run share.
type runner struct {
	bases      []*url.URL // the instances of the server
	ackTimeout time.Duration
	ruleset    string
	clients    *clients
	errors     atomic.Int64
	mu         sync.Mutex
	errs       []string
}

// fail counts an error and keeps the first few messages.
func (r *runner) fail(err error) {
	r.errors.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.errs) < maxErrorSamples {
		r.errs = append(r.errs, err.Error())
	}
}

func (r *runner) samples() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.errs)
}

func (r *runner) firstError() string {
	if s := r.samples(); len(s) > 0 {
		return s[0]
	}
	return "no error recorded"
}

// instance returns the base URL of instance i mod the number of instances.
func (r *runner) instance(i int) *url.URL { return r.bases[i%len(r.bases)] }

// clients are the HTTP clients of a run: one per simulated client address.
// Against an IPv4 loopback server, the games are spread over the source
// addresses 127.0.0.2, 127.0.0.3, ... (gamesPerAddress games each), as
// players come from many addresses and the server limits new games per
// address; otherwise all use one client.
type clients struct {
	list []*http.Client
}

func newClients(base *url.URL, games int) *clients {
	ip := net.ParseIP(base.Hostname())
	n := 1
	if ip != nil && ip.To4() != nil {
		n = (games + gamesPerAddress - 1) / gamesPerAddress
	}
	c := &clients{}
	for i := range n {
		c.list = append(c.list, loopbackClient(n > 1, i+2, gamesPerAddress, DefaultAckTimeout))
	}
	return c
}

// loopbackClient returns an HTTP client whose connections come from the
// loopback source address 127.0.k>>8.k&255 when spread (else the system's
// choice), keeping maxIdle idle connections and giving up after timeout.
func loopbackClient(spread bool, k, maxIdle int, timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if spread {
		d.LocalAddr = &net.TCPAddr{IP: net.IPv4(127, 0, byte(k>>8), byte(k))}
	}
	tr := &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: maxIdle, IdleConnTimeout: 30 * time.Second}
	return &http.Client{Transport: tr, Timeout: timeout}
}

// forSlot returns the client of game slot i.
func (c *clients) forSlot(i int) *http.Client {
	return c.list[min(i/gamesPerAddress, len(c.list)-1)]
}

func (c *clients) close() {
	for _, hc := range c.list {
		hc.CloseIdleConnections()
	}
}

// view is the part of a GameView the load tester reads.
type view struct {
	ID     string   `json:"id"`
	Status string   `json:"status"`
	ToMove string   `json:"to_move"`
	Ply    int      `json:"ply"`
	Legal  []string `json:"legal"`
}

// message is a WebSocket message from the server.
type message struct {
	Type  string `json:"type"`
	Game  *view  `json:"game"`
	Error string `json:"error"`
	Code  string `json:"code"`
}

// created is the answer to creating a game or its rematch.
type created struct {
	ID     string            `json:"id"`
	Tokens map[string]string `json:"tokens"`
}

// sides are the seats of a local game, in the order of their sockets.
var sides = [2]string{"S", "N"}

// received is a message from the socket of seat side, undecoded, with the
// time it arrived, or the error that ended that socket.
type received struct {
	side int
	data []byte
	at   time.Time
	err  error
}

// sent is an action on its way to every socket of its game.
type sent struct {
	ply int // the ply the action makes (the game's ply after it)
	at  time.Time
}

// game is one game slot: its current game, the two seats' sockets and what
// it measured.
type game struct {
	r         *runner
	slot      int
	rng       *rand.Rand
	id        string
	tokens    [2]string
	conns     [2]*websocket.Conn
	in        chan received
	cancel    context.CancelFunc // stops the readers of the current sockets
	readers   sync.WaitGroup
	view      view         // the latest view of the game
	seen      [2]int       // the highest ply each socket has shown
	seenAt    [2]time.Time // when each socket showed it
	inFlight  []sent       // actions not yet shown by both sockets
	latencies []time.Duration
	reach     []time.Duration // from sending an action until both sockets show it
	finished  int
	limited   int // rematches refused by the rate limit, then retried
}

// rateLimited is a 429 answer: the server asks to retry after a while.
type rateLimited struct {
	path  string
	after time.Duration
}

func (e *rateLimited) Error() string {
	return fmt.Sprintf("loadtest: POST %s: rate limited; retry in %v", e.path, e.after)
}

// post sends a JSON body to path with the seat token (if any) and decodes
// the answer into out.
func (g *game) post(ctx context.Context, path, token string, body any, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.r.instance(g.slot).String()+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Seat "+token)
	}
	resp, err := g.r.clients.forSlot(g.slot).Do(req)
	if err != nil {
		return fmt.Errorf("loadtest: POST %s: %w", path, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("loadtest: POST %s: %w", path, err)
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		after := time.Second
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
			after = time.Duration(secs) * time.Second
		}
		return &rateLimited{path: path, after: after}
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("loadtest: POST %s: %s: %s", path, resp.Status, bytes.TrimSpace(answer))
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("loadtest: POST %s: bad answer: %w", path, err)
	}
	return nil
}

// start creates a game (or, with rematchOf, the rematch of the finished
// current game), opens a socket per seat and reads the first state.
func (g *game) start(ctx context.Context, rematchOf string) error {
	var c created
	var err error
	if rematchOf == "" {
		err = g.post(ctx, "/api/games", "", map[string]string{"ruleset": g.r.ruleset, "opponent": "local"}, &c)
	} else {
		err = g.post(ctx, "/api/games/"+rematchOf+"/rematch", g.tokens[0], struct{}{}, &c)
	}
	if err != nil {
		return err
	}
	for i, side := range sides {
		if c.Tokens[side] == "" {
			return fmt.Errorf("loadtest: game %s has no token for %s; is it a local game?", c.ID, side)
		}
		g.tokens[i] = c.Tokens[side]
	}
	g.id = c.ID
	rctx, cancel := context.WithCancel(context.Background())
	g.cancel = cancel
	g.in = make(chan received, 8)
	for i := range g.conns {
		wsURL := *g.r.instance(g.slot + i)
		wsURL.Scheme = "ws"
		wsURL.Path = "/api/games/" + g.id + "/ws"
		conn, _, err := websocket.Dial(ctx, wsURL.String(), &websocket.DialOptions{HTTPClient: g.r.clients.forSlot(g.slot)})
		if err != nil {
			g.close()
			return fmt.Errorf("loadtest: open the socket of game %s: %w", g.id, err)
		}
		conn.SetReadLimit(4 << 20)
		g.conns[i] = conn
		hello, _ := json.Marshal(map[string]any{"type": "hello", "token": g.tokens[i], "ply": 0})
		if err := conn.Write(ctx, websocket.MessageText, hello); err != nil {
			g.close()
			return fmt.Errorf("loadtest: hello on game %s: %w", g.id, err)
		}
		g.readers.Go(func() { g.read(rctx, i, conn) })
	}
	// The first state of each socket.
	g.seen, g.inFlight, g.view = [2]int{-1, -1}, g.inFlight[:0], view{Ply: -1}
	for g.seen[0] < 0 || g.seen[1] < 0 {
		if err := g.receive(ctx); err != nil {
			g.close()
			return err
		}
	}
	return nil
}

// read forwards the messages of one socket to g.in until the socket or ctx
// ends.
func (g *game) read(ctx context.Context, side int, conn *websocket.Conn) {
	for {
		_, data, err := conn.Read(ctx)
		select {
		case g.in <- received{side: side, data: data, at: time.Now(), err: err}:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// receive handles the next message of either socket: it notes the ply the
// socket has shown, keeps the latest view, and measures the actions now
// shown by both sockets. A socket's failure and an error message are
// errors.
func (g *game) receive(ctx context.Context) error {
	var r received
	select {
	case r = <-g.in:
	case <-ctx.Done():
		return fmt.Errorf("loadtest: game %s: no answer: %w", g.id, ctx.Err())
	}
	if r.err != nil {
		return fmt.Errorf("loadtest: socket of %s in game %s: %w", sides[r.side], g.id, r.err)
	}
	var m message
	if err := json.Unmarshal(r.data, &m); err != nil {
		return fmt.Errorf("loadtest: bad message on game %s: %w", g.id, err)
	}
	if m.Type == "error" {
		return fmt.Errorf("loadtest: game %s refused: %s (%s)", g.id, m.Error, m.Code)
	}
	if (m.Type != "state" && m.Type != "update") || m.Game == nil || m.Game.ID != g.id {
		return nil
	}
	if m.Game.Ply > g.seen[r.side] {
		g.seen[r.side], g.seenAt[r.side] = m.Game.Ply, r.at
	}
	if m.Game.Ply >= g.view.Ply {
		g.view = *m.Game
	}
	both := min(g.seen[0], g.seen[1])
	k := 0
	for ; k < len(g.inFlight) && g.inFlight[k].ply <= both; k++ {
		g.reach = append(g.reach, r.at.Sub(g.inFlight[k].at))
	}
	g.inFlight = g.inFlight[:copy(g.inFlight, g.inFlight[k:])]
	return nil
}

// close stops the readers and closes the sockets.
func (g *game) close() {
	if g.cancel != nil {
		g.cancel()
	}
	for i, c := range g.conns {
		if c != nil {
			c.CloseNow()
			g.conns[i] = nil
		}
	}
	g.readers.Wait()
}

// play plays random legal actions until the deadline, rematching finished
// games; an error ends the slot's play (it is counted).
func (g *game) play(ctx context.Context, deadline time.Time, interval time.Duration) {
	var next time.Time // when to act next, when paced
	if interval > 0 {
		next = time.Now().Add(time.Duration(g.rng.Int64N(int64(interval) + 1)))
	}
	for time.Now().Before(deadline) {
		if interval > 0 {
			if !sleepUntil(ctx, next) {
				return
			}
			// A game that fell behind (a slow answer) does not catch up
			// in a burst.
			next = next.Add(interval)
			if now := time.Now(); next.Before(now) {
				next = now
			}
		}
		if g.view.Status != "playing" || len(g.view.Legal) == 0 {
			g.finished++
			old := g.id
			g.close()
			started, err := g.restart(ctx, old, deadline)
			if err != nil && ctx.Err() == nil {
				g.r.fail(err)
			}
			if !started {
				return
			}
			continue
		}
		lat, err := g.act()
		if err != nil {
			g.r.fail(err)
			return
		}
		if time.Now().Before(deadline) {
			g.latencies = append(g.latencies, lat)
		}
	}
}

// restart starts the rematch of game old, waiting as the server asks while
// its rate limit refuses it (the waits are counted, not failed). It reports
// false if no game was started: an error, or a wait past the deadline (the
// slot then idles until the deadline).
func (g *game) restart(ctx context.Context, old string, deadline time.Time) (bool, error) {
	for {
		err := g.start(ctx, old)
		var rl *rateLimited
		if !errors.As(err, &rl) {
			return err == nil, err
		}
		g.limited++
		wake := time.Now().Add(rl.after)
		if !wake.Before(deadline) {
			sleepUntil(ctx, deadline) // the slot idles, as a refused player would
			return false, nil
		}
		if !sleepUntil(ctx, wake) {
			return false, nil
		}
	}
}

// sleepUntil waits until t; it reports false if ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// act waits until the socket of the seat to move shows the game's latest
// ply (a player acts on what their own screen shows: with several
// instances, that update came through the other instance), sends a random
// legal action on it, and waits for its acknowledgement on the same
// socket, returning the latency from send to acknowledgement.
func (g *game) act() (time.Duration, error) {
	side := slices.Index(sides[:], g.view.ToMove)
	if side < 0 {
		return 0, fmt.Errorf("loadtest: game %s: to_move is %q", g.id, g.view.ToMove)
	}
	ctx, cancel := context.WithTimeout(context.Background(), g.r.ackTimeout)
	defer cancel()
	for g.seen[side] < g.view.Ply {
		if err := g.receive(ctx); err != nil {
			return 0, fmt.Errorf("loadtest: game %s: the socket of %s has not shown ply %d, reached through the other seat's instance: %w", g.id, sides[side], g.view.Ply, err)
		}
	}
	action := g.view.Legal[g.rng.IntN(len(g.view.Legal))]
	msg, _ := json.Marshal(map[string]any{"type": "action", "action": action, "ply": g.view.Ply})
	want := g.view.Ply + 1
	start := time.Now()
	if err := g.conns[side].Write(ctx, websocket.MessageText, msg); err != nil {
		return 0, fmt.Errorf("loadtest: send %s in game %s: %w", action, g.id, err)
	}
	g.inFlight = append(g.inFlight, sent{ply: want, at: start})
	for g.seen[side] < want {
		if err := g.receive(ctx); err != nil {
			return 0, err
		}
	}
	lat := g.seenAt[side].Sub(start)
	if g.view.Ply != want {
		return 0, fmt.Errorf("loadtest: game %s: after %s at ply %d the game is at ply %d; another client played", g.id, action, want-1, g.view.Ply)
	}
	return lat, nil
}
