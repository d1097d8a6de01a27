package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// The attacks a run may add beside the players (Config.Attack): each is
// one client, or a few, trying to take the server from everyone else,
// as docs/API.md's limits are meant to stop.
const (
	// AttackHeaders imports records with the most headers an import may
	// hold (58 of 1,000 bytes, besides Ruleset and Result), from several
	// addresses as fast as the import limit lets each, and reads each back
	// once (view, replay and export).
	AttackHeaders = "headers"
	// AttackAI plays AIGames level-8 games against the computer from one
	// address, answering every reply as soon as its WebSocket shows it.
	AttackAI = "ai"
	// AttackSockets opens IdleSockets WebSockets to a game and leaves them
	// idle, from as many addresses as the per-address limit needs.
	AttackSockets = "sockets"
	// AttackLab asks the lab for its largest level experiment over and
	// over, from several addresses.
	AttackLab = "lab"
)

// Attacks lists the attacks, for help texts and checks.
var Attacks = []string{AttackHeaders, AttackAI, AttackSockets, AttackLab, AttackReviews}

// The sizes of the attacks.
const (
	AIGames     = 60
	IdleSockets = 5000
	// attackBase is the first source address of the attacker (127.0.3.1
	// on), apart from the players' 127.0.0.2 on.
	attackBase = 3 << 8
	// socketsPerAddress is the server's default per-address WebSocket
	// limit (64).
	socketsPerAddress = 64
)

// AttackReport tells what the attacker did during the measured time.
type AttackReport struct {
	Name     string `json:"name"`
	Requests int64  `json:"requests"`       // requests answered 2xx, or sockets opened and held
	Refused  int64  `json:"refused"`        // answered 429 or 503: the server's limits at work
	Failed   int64  `json:"failed"`         // other failures (errors, other statuses)
	Done     int64  `json:"done,omitempty"` // units of work completed: reviews done (AttackReviews)
	Sample   string `json:"sample,omitempty"`
}

// attacker is a running attack.
type attacker struct {
	base                      *url.URL
	name                      string
	requests, refused, failed atomic.Int64
	done                      atomic.Int64 // see AttackReport.Done
	sample                    atomic.Value // string: the first failure
	clients                   []*http.Client
}

// newAttacker prepares the attack name against base, with n source addresses.
func newAttacker(base *url.URL, name string, n int) *attacker {
	a := &attacker{base: base, name: name}
	ip := net.ParseIP(base.Hostname())
	for i := range n {
		a.clients = append(a.clients, loopbackClient(ip != nil && ip.To4() != nil, attackBase+1+i, socketsPerAddress, 60*time.Second))
	}
	return a
}

func (a *attacker) close() {
	for _, c := range a.clients {
		c.CloseIdleConnections()
	}
}

func (a *attacker) report() *AttackReport {
	r := &AttackReport{Name: a.name, Requests: a.requests.Load(), Refused: a.refused.Load(), Failed: a.failed.Load(), Done: a.done.Load()}
	if s, ok := a.sample.Load().(string); ok {
		r.Sample = s
	}
	return r
}

func (a *attacker) fail(err error) {
	a.failed.Add(1)
	a.sample.CompareAndSwap(nil, err.Error())
}

// do sends one request from client c and decodes a 2xx JSON answer into
// out (if not nil); it counts the outcome and reports whether it was 2xx.
func (a *attacker) do(ctx context.Context, c int, method, path, ctype string, body []byte, token string, out any) bool {
	req, err := http.NewRequestWithContext(ctx, method, a.base.String()+path, bytes.NewReader(body))
	if err != nil {
		a.fail(err)
		return false
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Seat "+token)
	}
	resp, err := a.clients[c%len(a.clients)].Do(req)
	if err != nil {
		if ctx.Err() == nil {
			a.fail(err)
		}
		return false
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	switch {
	case err != nil:
		if ctx.Err() == nil {
			a.fail(err)
		}
		return false
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable:
		a.refused.Add(1)
		return false
	case resp.StatusCode/100 != 2:
		a.fail(fmt.Errorf("%s %s: %s: %.200s", method, path, resp.Status, data))
		return false
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			a.fail(fmt.Errorf("%s %s: bad answer: %w", method, path, err))
			return false
		}
	}
	a.requests.Add(1)
	return true
}

// startAttack runs the attack until ctx ends and returns a function that
// waits for it to stop and reports. Its set-up (games, sockets) happens
// before it returns, so that the players' measured time sees it whole.
func startAttack(ctx context.Context, base *url.URL, name string, size int, seed uint64) (func() *AttackReport, error) {
	var a *attacker
	var run func(ctx context.Context, wg *sync.WaitGroup)
	var err error
	switch name {
	case AttackHeaders:
		a = newAttacker(base, name, 8)
		run, err = a.headers(ctx)
	case AttackAI:
		a = newAttacker(base, name, 1)
		run, err = a.ai(ctx, orDefault(size, AIGames), seed)
	case AttackSockets:
		n := orDefault(size, IdleSockets)
		a = newAttacker(base, name, (n+socketsPerAddress-1)/socketsPerAddress+1)
		run, err = a.sockets(ctx, n)
	case AttackLab:
		a = newAttacker(base, name, 8)
		run, err = a.lab(), nil
	case AttackReviews:
		a = newAttacker(base, name, 8)
		run, err = a.reviews(ctx, orDefault(size, ReviewsAtOnce), seed)
	default:
		return nil, fmt.Errorf("loadtest: unknown attack %q; attacks are %s", name, strings.Join(Attacks, ", "))
	}
	if err != nil {
		a.close()
		return nil, err
	}
	a.requests.Store(0) // what the set-up did is not the measured attack
	var wg sync.WaitGroup
	run(ctx, &wg)
	return func() *AttackReport {
		wg.Wait()
		a.close()
		return a.report()
	}, nil
}

// headerRecord is a record with as many headers as an import may have,
// each value of the most bytes allowed.
func headerRecord(n int) string {
	var b strings.Builder
	b.WriteString("[Ruleset \"tsoro size=8\"]\n[Result \"*\"]\n")
	for i := 0; i < 58; i++ {
		fmt.Fprintf(&b, "[K%d_%d \"%s\"]\n", n, i, strings.Repeat(string(rune('a'+i%26)), 1000))
	}
	b.WriteString("\n1. a3,stop d6,stop 2. a6 *\n")
	return b.String()
}

// headers imports records of the most headers, from several addresses as
// fast as the import limit lets each, and reads each game back once (view,
// replay and export).
func (a *attacker) headers(ctx context.Context) (func(context.Context, *sync.WaitGroup), error) {
	var first struct{ ID string }
	if !a.do(ctx, 0, http.MethodPost, "/api/records", "text/plain", []byte(headerRecord(0)), "", &first) {
		return nil, fmt.Errorf("loadtest: attack %s: the first import failed: %v", a.name, a.report().Sample)
	}
	return func(ctx context.Context, wg *sync.WaitGroup) {
		var n atomic.Int64
		for w := range len(a.clients) {
			wg.Go(func() {
				for ctx.Err() == nil {
					var c struct{ ID string }
					if !a.do(ctx, w, http.MethodPost, "/api/records", "text/plain", []byte(headerRecord(int(n.Add(1)))), "", &c) {
						sleep(ctx, time.Second) // refused: the address's imports are used up for now
						continue
					}
					for _, path := range []string{"/api/games/" + c.ID, "/api/games/" + c.ID + "/replay", "/api/games/" + c.ID + "/record"} {
						a.do(ctx, w, http.MethodGet, path, "", nil, "", nil)
					}
				}
			})
		}
	}, nil
}

// aiView is what the AI attack reads of a game.
type aiView struct {
	Status string   `json:"status"`
	ToMove string   `json:"to_move"`
	Ply    int      `json:"ply"`
	Legal  []string `json:"legal"`
}

// ai creates games level-8 games against the computer from one address
// and answers each of the computer's replies at once.
func (a *attacker) ai(ctx context.Context, games int, seed uint64) (func(context.Context, *sync.WaitGroup), error) {
	type seat struct{ id, token string }
	var seats []seat
	for len(seats) < games {
		var c struct {
			ID    string `json:"id"`
			Token string `json:"token"`
		}
		body, _ := json.Marshal(map[string]any{"ruleset": "nsolo", "opponent": "ai", "level": 8, "side": "S"})
		if !a.do(ctx, 0, http.MethodPost, "/api/games", "application/json", body, "", &c) {
			if ctx.Err() != nil || a.failed.Load() > 0 {
				return nil, fmt.Errorf("loadtest: attack %s: creating its games: %v", a.name, a.report().Sample)
			}
			time.Sleep(time.Second) // the creation limit: wait for the next minute
			continue
		}
		seats = append(seats, seat{c.ID, c.Token})
	}
	return func(ctx context.Context, wg *sync.WaitGroup) {
		for i, st := range seats {
			wg.Go(func() { a.playAI(ctx, st.id, st.token, rand.New(rand.NewPCG(seed, uint64(i)))) })
		}
	}, nil
}

// playAI plays South in game id against the computer, answering each of its
// replies as soon as the game's WebSocket shows it.
func (a *attacker) playAI(ctx context.Context, id, token string, rng *rand.Rand) {
	wsURL := *a.base
	wsURL.Scheme = "ws"
	wsURL.Path = "/api/games/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, wsURL.String(), &websocket.DialOptions{HTTPClient: a.clients[0]})
	if err != nil {
		if ctx.Err() == nil {
			a.fail(err)
		}
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(4 << 20)
	hello, _ := json.Marshal(map[string]any{"type": "hello", "token": token, "ply": 0})
	if err := conn.Write(ctx, websocket.MessageText, hello); err != nil {
		return
	}
	played := -1
	for ctx.Err() == nil {
		_, data, err := conn.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				a.fail(err)
			}
			return
		}
		var m struct {
			Game *aiView `json:"game"`
		}
		if json.Unmarshal(data, &m) != nil || m.Game == nil {
			continue
		}
		v := m.Game
		if v.Status != "playing" {
			return
		}
		if v.ToMove != "S" || len(v.Legal) == 0 || v.Ply == played {
			continue // the computer is thinking, or this decision is answered
		}
		played = v.Ply
		body, _ := json.Marshal(map[string]any{"action": v.Legal[rng.IntN(len(v.Legal))], "ply": v.Ply})
		a.do(ctx, 0, http.MethodPost, "/api/games/"+id+"/actions", "application/json", body, token, nil)
	}
}

// sockets opens n WebSockets to one game and holds them.
func (a *attacker) sockets(ctx context.Context, n int) (func(context.Context, *sync.WaitGroup), error) {
	var c struct {
		ID string `json:"id"`
	}
	body, _ := json.Marshal(map[string]string{"ruleset": "tsoro size=8", "opponent": "local"})
	if !a.do(ctx, 0, http.MethodPost, "/api/games", "application/json", body, "", &c) {
		return nil, fmt.Errorf("loadtest: attack %s: creating its game: %v", a.name, a.report().Sample)
	}
	a.requests.Store(0) // the sockets are what the attack holds
	wsURL := *a.base
	wsURL.Scheme = "ws"
	wsURL.Path = "/api/games/" + c.ID + "/ws"
	conns := make(chan *websocket.Conn, n)
	var open sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range n {
		open.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			conn, resp, err := websocket.Dial(dctx, wsURL.String(), &websocket.DialOptions{HTTPClient: a.clients[i/socketsPerAddress]})
			switch {
			case err == nil:
				a.requests.Add(1)
				conns <- conn
			case resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable):
				a.refused.Add(1)
			default:
				a.fail(err)
			}
		})
	}
	open.Wait()
	close(conns)
	held := a.requests.Load()
	return func(ctx context.Context, wg *sync.WaitGroup) {
		a.requests.Store(held)
		wg.Go(func() {
			<-ctx.Done()
			for conn := range conns {
				conn.CloseNow()
			}
		})
	}, nil
}

// lab asks for the largest level experiment the lab takes, over and over,
// turning through its addresses.
func (a *attacker) lab() func(context.Context, *sync.WaitGroup) {
	return func(ctx context.Context, wg *sync.WaitGroup) {
		for w := range 2 {
			wg.Go(func() {
				body, _ := json.Marshal(map[string]any{"rulesets": []string{"tsoro"}, "games": 200, "player": "level:8", "seed": 1})
				for k := w; ctx.Err() == nil; k += 2 {
					if !a.do(ctx, k, http.MethodPost, "/api/lab", "application/json", body, "", nil) {
						sleep(ctx, 100*time.Millisecond)
					}
				}
			})
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}
