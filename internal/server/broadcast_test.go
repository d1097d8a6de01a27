package server

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"

	"matombo/internal/app"
	"matombo/search"
)

// bus is an in-memory app.Broadcast between instances of one process, as
// postgres.Notifier is between processes: each endpoint hears the others.
type bus struct {
	mu        sync.Mutex
	listeners map[int]func(string, int)
}

type endpoint struct {
	b  *bus
	id int
}

func (e endpoint) Notify(_ context.Context, id string, ply int) error {
	e.b.mu.Lock()
	defer e.b.mu.Unlock()
	for k, f := range e.b.listeners {
		if k != e.id {
			go f(id, ply)
		}
	}
	return nil
}

func (e endpoint) Listen(ctx context.Context, changed func(string, int), resync func()) error {
	e.b.mu.Lock()
	e.b.listeners[e.id] = changed
	e.b.mu.Unlock()
	resync()
	<-ctx.Done()
	return ctx.Err()
}

// instance starts a server instance on env's store, linked to the others by bus.
func instance(t *testing.T, env *testEnv, b *bus, id int) *testEnv {
	ep := endpoint{b, id}
	svc := app.NewService(app.Config{Store: env.store, AI: search.NewGreedyLevels(uint64(id)), Broadcast: ep})
	srv := New(svc, Options{})
	hs := httptest.NewServer(srv)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	srv.listen(ctx, ep, &wg)
	t.Cleanup(func() { cancel(); wg.Wait(); srv.Shutdown(); hs.Close(); svc.Close() })
	return &testEnv{t: t, srv: srv, http: hs, store: env.store}
}

// TestTwoInstances: an action played through one instance reaches the
// WebSocket of a spectator of the other, with its events; a race of two
// actions through both instances has one winner.
func TestTwoInstances(t *testing.T) {
	b := &bus{listeners: map[int]func(string, int){}}
	base := newEnv(t)
	a, bb := instance(t, base, b, 1), instance(t, base, b, 2)
	c := a.create(app.CreateRequest{Ruleset: "tsoro size=8", Opponent: "local"})
	spec, err := bb.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	spec.hello("", 0)
	var res app.ActResult
	a.call("POST", "/api/games/"+c.ID+"/actions", c.Tokens["S"], map[string]any{"action": "a1", "ply": 0}, 200, &res)
	u := spec.recv()
	if u.Type != "update" || u.Game.Ply != 1 || u.Game.Position != res.Game.Position || len(u.Events) != len(res.Events) || u.Events[0] != res.Events[0] {
		t.Fatalf("instance B's spectator got %+v, want the update of %+v", u, res)
	}
	// Both instances get the same ply at once: exactly one applies it.
	v := a.view(c.ID, "")
	token := c.Tokens[v.ToMove]
	var wg sync.WaitGroup
	codes := make([]int, 2)
	for i, env := range []*testEnv{a, bb} {
		wg.Go(func() {
			codes[i], _ = env.do("POST", "/api/games/"+c.ID+"/actions", token, map[string]any{"action": v.Legal[i%len(v.Legal)], "ply": v.Ply})
		})
	}
	wg.Wait()
	if !(codes[0] == 200 && codes[1] == 409 || codes[0] == 409 && codes[1] == 200) {
		t.Fatalf("racing actions: statuses %v, want one 200 and one 409", codes)
	}
}
