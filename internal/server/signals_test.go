package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/internal/lobby"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// signalBus is app.Signals between the servers of one test process: each end
// hears the others' signals, in order.
type signalBus struct {
	mu   sync.Mutex
	ends []*signalEnd
}

type signalEnd struct {
	b      *signalBus
	origin string
	in     chan app.Signal
}

func (b *signalBus) end() *signalEnd {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := &signalEnd{b: b, origin: "instance" + strconv.Itoa(len(b.ends)), in: make(chan app.Signal, 256)}
	b.ends = append(b.ends, e)
	return e
}

func (e *signalEnd) Signal(ctx context.Context, s app.Signal) error {
	e.b.mu.Lock()
	defer e.b.mu.Unlock()
	s.Origin = e.origin
	for _, o := range e.b.ends {
		if o != e {
			o.in <- s
		}
	}
	return nil
}

func (e *signalEnd) ListenSignals(ctx context.Context, got func(app.Signal), resync func()) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case s := <-e.in:
			got(s)
		}
	}
}

// twoInstances is two servers on one SQLite store, linked by a signalBus.
func twoInstances(t *testing.T) (a, b *accountEnv) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var signals signalBus
	mk := func() *accountEnv {
		svc := app.NewService(app.Config{Store: store, AI: search.NewGreedyLevels(7), Workers: 1})
		acc := accounts.New(accounts.Config{Store: store, Games: store, Params: testParams})
		srv := New(svc, Options{Accounts: acc, Lobby: store, Signals: signals.end()})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		srv.listenSignals(ctx, &wg)
		hs := httptest.NewServer(srv)
		t.Cleanup(func() {
			cancel()
			wg.Wait()
			srv.Shutdown()
			hs.Close()
			svc.Close()
		})
		return &accountEnv{testEnv: &testEnv{t: t, srv: srv, http: hs, store: store}, sq: store}
	}
	return mk(), mk()
}

// TestSignalsLinkInstances: a challenge posted on one instance reaches the
// lobby sockets of the other; accepting it there tells the creator's
// socket here; the players' presence and quick messages cross too.
func TestSignalsLinkInstances(t *testing.T) {
	a, b := twoInstances(t)
	ada, bo := a.browser(), b.browser()
	bs, _ := bo.lobbySocket()
	p := ada.post(lobby.PostRequest{Ruleset: "nsolo", Side: "N"})
	as, _ := ada.lobbySocket(p.Key)
	if m := bs.next("challenge"); m.Challenge.ID != p.Challenge.ID {
		t.Fatalf("instance B's socket heard %+v", m)
	}
	var acc lobby.Accepted
	bo.call("POST", "/api/lobby/challenges/"+p.Challenge.ID+"/accept", "", nil, http.StatusOK, &acc)
	if m := as.next("matched"); m.Game != acc.Game {
		t.Fatalf("the creator on instance A heard %+v", m)
	}

	north, _ := a.dial(acc.Game, nil)
	wantSeats(t, "north on A", north.presenceHello(p.Key), false, true)
	south, _ := b.dial(acc.Game, nil)
	// B asks A as south joins: its first word may come before A's answer.
	if got := south.presenceHello(acc.Token); !got["N"] {
		wantSeats(t, "south on B, after A's answer", south.expect("presence").Presence, true, true)
	}
	wantSeats(t, "north, south in on B", north.expect("presence").Presence, true, true)
	south.send(map[string]any{"type": "say", "say": "good_luck"})
	if m := north.expect("say"); m.By != "S" || m.Say != "good_luck" {
		t.Errorf("north on A heard %+v", m)
	}
	south.conn.CloseNow()
	wantSeats(t, "north, south gone from B", north.expect("presence").Presence, false, true)
}
