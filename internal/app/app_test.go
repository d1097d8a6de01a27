package app

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// memStore is a minimal in-memory Store for the service's tests (the real
// ones are tested by storetest).
type memStore struct {
	mu    sync.Mutex
	games map[string]*Game
}

func newMemStore() *memStore { return &memStore{games: map[string]*Game{}} }

func clone(g *Game) *Game {
	c := *g
	c.Seats = append([]Seat(nil), g.Seats...)
	c.Actions = append([]Move(nil), g.Actions...)
	return &c
}

func (m *memStore) CreateGame(_ context.Context, g *Game) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.games[g.ID] = clone(g)
	return nil
}

func (m *memStore) get(id string) (*Game, error) {
	g, ok := m.games[id]
	if !ok {
		return nil, Errorf(ENotFound, "no game %q", id)
	}
	return g, nil
}

func (m *memStore) Game(_ context.Context, id string) (*Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil {
		return nil, err
	}
	return clone(g), nil
}

func (m *memStore) AddSeat(_ context.Context, id string, s Seat) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil {
		return err
	}
	for _, had := range g.Seats {
		if string(had.Hash) == string(s.Hash) {
			return nil
		}
	}
	g.Seats = append(g.Seats, s)
	return nil
}

func (m *memStore) AppendAction(_ context.Context, id string, mv Move, turns int, result, reason string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil {
		return err
	}
	if g.Over() || mv.Ply != len(g.Actions) {
		return Errorf(EConflict, "stale")
	}
	g.Actions = append(g.Actions, mv)
	g.Turns, g.Result, g.Reason = turns, result, reason
	g.ClockFrom, g.Deadline, g.Offer, g.Updated = mv.At, mv.Deadline, "", mv.At
	return nil
}

func (m *memStore) Finish(_ context.Context, id string, plies int, result, reason string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil {
		return err
	}
	if g.Over() || plies != len(g.Actions) {
		return Errorf(EConflict, "stale")
	}
	g.Result, g.Reason = result, reason
	return nil
}

func (m *memStore) RenamePlayer(_ context.Context, id string, side mancala.Player, from, name string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil {
		return "", err
	}
	if g.Players[side].Name == from {
		g.Players[side].Name = name
	}
	return g.Players[side].Name, nil
}

func (m *memStore) TakeInvite(_ context.Context, id string, invite []byte, s Seat) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil {
		return err
	}
	if string(g.Invites[s.Side]) != string(invite) {
		return Errorf(EForbidden, "replaced")
	}
	if g.InviteOnce[s.Side] && g.InviteTaken[s.Side] {
		return Errorf(EConflict, "taken")
	}
	g.InviteTaken[s.Side] = g.InviteOnce[s.Side]
	g.Seats = append(g.Seats, s)
	return nil
}

func (m *memStore) NewInvite(_ context.Context, id string, side mancala.Player, invite []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil {
		return err
	}
	g.Invites[side], g.InviteOnce[side], g.InviteTaken[side] = invite, true, false
	return nil
}

func (m *memStore) CreateRematch(_ context.Context, id string, r *Game) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil {
		return "", err
	}
	if g.Rematch == "" {
		m.games[r.ID] = clone(r)
		g.Rematch = r.ID
	}
	return g.Rematch, nil
}

func (m *memStore) ListGames(context.Context, ListFilter) ([]*Game, error) { return nil, nil }
func (m *memStore) CheckWrite(context.Context) error                       { return nil }
func (m *memStore) Close() error                                           { return nil }

// slowMover thinks until released or until its deadline, then plays the
// first legal action.
type slowMover struct {
	calls   atomic.Int32
	release chan struct{}
}

func (s *slowMover) Choose(ctx context.Context, st *mancala.State, _ search.Limits) (mancala.Action, error) {
	s.calls.Add(1)
	select {
	case <-ctx.Done():
	case <-s.release:
	}
	return st.Legal(nil)[0], nil
}

// TestSlowAIBlocksNoOneElse: while the only AI worker is busy with a slow
// decision, other games are created and played.
func TestSlowAIBlocksNoOneElse(t *testing.T) {
	ctx := context.Background()
	mover := &slowMover{release: make(chan struct{})}
	svc := NewService(Config{Store: newMemStore(), AI: search.SameLevels(mover), Workers: 1, Queue: 1})
	defer svc.Close()
	ai, err := svc.Create(ctx, CreateRequest{Ruleset: "nsolo", Opponent: ModeAI, Level: 8, Side: "N"})
	if err != nil {
		t.Fatal(err)
	}
	for mover.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	local, err := svc.Create(ctx, CreateRequest{Ruleset: "nsolo", Opponent: ModeLocal})
	if err != nil {
		t.Fatal(err)
	}
	for ply := range 4 {
		v, err := svc.View(ctx, local.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Act(ctx, local.ID, local.Tokens[v.ToMove], v.Legal[0], ply); err != nil {
			t.Fatalf("local game while the AI thinks: %v", err)
		}
	}
	if v, _ := svc.View(ctx, ai.ID, ai.Token); v.Ply != 0 || !v.Thinking {
		t.Fatalf("the AI game moved before its decision was released: ply %d thinking %v", v.Ply, v.Thinking)
	}
	close(mover.release)
	waitPly(t, svc, ai.ID, 1)
}

// TestThinkTimeBoundsTheAI: a mover that never finishes on its own is
// stopped by its level's time budget.
func TestThinkTimeBoundsTheAI(t *testing.T) {
	ctx := context.Background()
	mover := &slowMover{release: make(chan struct{})}
	svc := NewService(Config{Store: newMemStore(), AI: search.SameLevels(mover), Workers: 1})
	defer svc.Close()
	ai, err := svc.Create(ctx, CreateRequest{Ruleset: "choro", Opponent: ModeAI, Level: 1, Side: "N"})
	if err != nil {
		t.Fatal(err)
	}
	waitPly(t, svc, ai.ID, 1)
}

func waitPly(t *testing.T, svc *Service, id string, ply int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		v, err := svc.View(context.Background(), id, "")
		if err != nil {
			t.Fatal(err)
		}
		if v.Ply >= ply {
			return
		}
	}
	t.Fatalf("game %s did not reach ply %d", id, ply)
}

// TestAIPlaysWholeTurns: the AI takes every decision of its turn (heads,
// picks) in a row, and hands over only at a human's decision or the end.
func TestAIPlaysWholeTurns(t *testing.T) {
	ctx := context.Background()
	svc := NewService(Config{Store: newMemStore(), AI: search.NewGreedyLevels(5), Workers: 2})
	defer svc.Close()
	var updates atomic.Int32
	svc.SetNotifier(notifierFunc(func(string, Update) { updates.Add(1) }))
	c, err := svc.Create(ctx, CreateRequest{Ruleset: "tsoro size=6", Opponent: ModeAI, Level: 8, Side: "S"})
	if err != nil {
		t.Fatal(err)
	}
	mirror := search.NewGreedyLevels(9)[8]
	for range 200 {
		v := waitHuman(t, svc, c.ID, c.Token)
		if v.Status == "over" {
			if updates.Load() < int32(v.Ply) {
				t.Errorf("%d updates for %d actions", updates.Load(), v.Ply)
			}
			return
		}
		if v.ToMove != "S" || v.Thinking {
			t.Fatalf("human's turn expected: %+v", v)
		}
		st, _ := mancala.NewGame(mancala.MustParseRuleset(v.Ruleset))
		for _, turn := range v.Turns {
			for _, a := range turn {
				a, _ := mancala.ParseAction(a)
				st.Apply(a)
			}
		}
		a, _ := mirror.Choose(ctx, st, search.Limits{})
		if _, err := svc.Act(ctx, c.ID, c.Token, a.String(), v.Ply); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("game did not end in 200 human actions")
}

func waitHuman(t *testing.T, svc *Service, id, token string) *GameView {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		v, err := svc.View(context.Background(), id, token)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Thinking {
			return v
		}
	}
	t.Fatal("the AI did not hand over")
	return nil
}

type notifierFunc func(string, Update)

func (f notifierFunc) Publish(id string, u Update) { f(id, u) }

func TestPoolBoundsAndClose(t *testing.T) {
	p := NewPool(1, 1)
	release := make(chan struct{})
	started := make(chan struct{})
	if !p.Submit(func(context.Context) { close(started); <-release }) {
		t.Fatal("first job refused")
	}
	<-started
	if !p.Submit(func(context.Context) {}) {
		t.Fatal("queued job refused")
	}
	if p.Submit(func(context.Context) {}) {
		t.Fatal("a job beyond the queue bound was accepted")
	}
	var cancelled atomic.Bool
	close(release)
	for !p.Submit(func(ctx context.Context) { <-ctx.Done(); cancelled.Store(true) }) {
		time.Sleep(time.Millisecond)
	}
	p.Close()
	if !cancelled.Load() {
		t.Error("Close returned before the job saw its cancelled context")
	}
	if p.Submit(func(context.Context) {}) {
		t.Error("a closed pool accepted a job")
	}
}

func TestTokens(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		tok := NewToken()
		if len(tok) != 32 || seen[tok] {
			t.Fatalf("token %q (len %d) repeated or short", tok, len(tok))
		}
		seen[tok] = true
	}
	g := &Game{Seats: []Seat{{Side: mancala.North, Hash: HashToken("n")}, {Side: mancala.South, Hash: HashToken("s")}}}
	for tok, want := range map[string]string{"n": "N", "s": "S", " s ": "S", "x": "", "": ""} {
		if got := you(g, tok); got != want {
			t.Errorf("you(%q) = %q, want %q", tok, got, want)
		}
	}
	if matchHash(nil, "") || !matchHash(HashToken("a"), "a") || matchHash(HashToken("a"), "b") {
		t.Error("matchHash")
	}
}

// TestResignMidTurnKeepsTheRecord: a resignation in the middle of a turn
// is stored and the record shows the unfinished turn with the result.
func TestResignMidTurnKeepsTheRecord(t *testing.T) {
	ctx := context.Background()
	svc := NewService(Config{Store: newMemStore(), AI: search.NewGreedyLevels(1)})
	defer svc.Close()
	c, _ := svc.Create(ctx, CreateRequest{Ruleset: "tsoro size=8", Opponent: ModeLocal})
	res, err := svc.Act(ctx, c.ID, c.Tokens["S"], "a3", 0)
	if err != nil || res.Game.Decision != "head" {
		t.Fatalf("a3: %v, decision %v", err, res.Game.Decision)
	}
	v, err := svc.Resign(ctx, c.ID, c.Tokens["S"])
	if err != nil {
		t.Fatal(err)
	}
	if v.Result != "N" || v.Reason != "resigned" {
		t.Fatalf("after resigning: %s %s", v.Result, v.Reason)
	}
	rec, err := mancala.ParseRecord(v.Record)
	if err != nil {
		t.Fatalf("record %q: %v", v.Record, err)
	}
	if _, err := rec.Replay(); err != nil || rec.Result != mancala.NorthWins || len(rec.Turns) != 1 {
		t.Fatalf("record %q replays: %v", v.Record, err)
	}
}

// TestStaleCacheReloads: two services (instances) on one store; each acts
// on a game the other has cached, and a seat added on one is honoured by the
// other.
func TestStaleCacheReloads(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	a := NewService(Config{Store: store, AI: search.NewGreedyLevels(1)})
	b := NewService(Config{Store: store, AI: search.NewGreedyLevels(2)})
	defer a.Close()
	defer b.Close()
	c, err := a.Create(ctx, CreateRequest{Ruleset: "nsolo", Opponent: ModeFriend})
	if err != nil {
		t.Fatal(err)
	}
	m := search.NewGreedyLevels(3)[MaxLevel]
	st, _ := mancala.NewGame(mancala.MustParseRuleset("nsolo"))
	code := c.Invite[len("/join/"+c.ID+"/"):]
	j, err := b.Join(ctx, c.ID, code, "")
	if err != nil {
		t.Fatal(err)
	}
	for ply := 0; ply < 12 && !st.IsOver(); ply++ {
		svc := []*Service{a, b}[ply%2] // alternate instances
		token := c.Token
		if st.ToMove() == mancala.North {
			token = j.Token
		}
		act, _ := m.Choose(ctx, st, search.Limits{})
		res, err := svc.Act(ctx, c.ID, token, act.String(), ply)
		if err != nil {
			t.Fatalf("ply %d on instance %d: %v", ply, ply%2, err)
		}
		st.Apply(act)
		if res.Game.Position != st.Position() {
			t.Fatalf("ply %d: position %s, want %s", ply, res.Game.Position, st.Position())
		}
	}
	// A stale ply is still refused after the reload.
	if _, err := a.Act(ctx, c.ID, c.Token, "a1", 0); ErrorCode(err) != EConflict && ErrorCode(err) != EForbidden {
		t.Fatalf("stale action: %v", err)
	}
}

// stuckMover thinks until its context ends, and then fails.
type stuckMover struct{ calls atomic.Int32 }

func (m *stuckMover) Choose(ctx context.Context, _ *mancala.State, _ search.Limits) (mancala.Action, error) {
	m.calls.Add(1)
	<-ctx.Done()
	return 0, ctx.Err()
}

// TestAIThinksOnOneInstance: two instances share a store. The one that
// made the last change thinks for the AI; the other, asked for the game
// (a view, a notification), does not think too, until the game has waited
// for the stall time with the AI to move (the first instance stopped):
// then it takes over, and the game goes on.
func TestAIThinksOnOneInstance(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	const stall = 300 * time.Millisecond
	moverA := &stuckMover{}
	a := NewService(Config{Store: store, AI: search.SameLevels(moverA), AIStall: stall})
	moverB := search.NewGreedyLevels(1)
	var thoughtB atomic.Int32
	b := NewService(Config{Store: store, AI: search.SameLevels(playerFunc(func(ctx context.Context, st *mancala.State, lim search.Limits) (mancala.Action, error) {
		thoughtB.Add(1)
		return moverB[8].Choose(ctx, st, lim)
	})), AIStall: stall})
	defer b.Close()

	c, err := a.Create(ctx, CreateRequest{Ruleset: "nsolo", Opponent: ModeAI, Level: 8, Side: "N"})
	if err != nil {
		t.Fatal(err)
	}
	for moverA.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	for range 5 { // views and notifications on B while A thinks
		if _, err := b.View(ctx, c.ID, ""); err != nil {
			t.Fatal(err)
		}
		if err := b.Refresh(ctx, c.ID, 0); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(stall / 3)
	if n := thoughtB.Load(); n != 0 {
		t.Fatalf("the second instance thought %d times while the first was thinking", n)
	}
	a.Close() // the first instance stops mid-thought; its decision is lost
	if g, _ := store.Game(ctx, c.ID); len(g.Actions) != 0 {
		t.Fatalf("the stopped instance stored %d actions", len(g.Actions))
	}
	// Nobody asks B for the game any more: its own check takes over.
	deadline := time.Now().Add(10 * time.Second)
	for g, _ := store.Game(ctx, c.ID); len(g.Actions) == 0; g, _ = store.Game(ctx, c.ID) {
		if time.Now().After(deadline) {
			t.Fatal("the game waits for ever after the instance thinking for it stopped")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if thoughtB.Load() == 0 {
		t.Fatal("the game moved on without the second instance thinking")
	}
}

// playerFunc makes a function a search.Player.
type playerFunc func(ctx context.Context, st *mancala.State, lim search.Limits) (mancala.Action, error)

func (f playerFunc) Choose(ctx context.Context, st *mancala.State, lim search.Limits) (mancala.Action, error) {
	return f(ctx, st, lim)
}
