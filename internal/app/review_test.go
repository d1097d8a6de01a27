package app

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"matombo/search"
)

// TestBackgroundYieldsToAITurns: a background search waits while AI
// turns are queued for the thinkers, takes a thinker once none is, and
// background searches together hold at most half the thinkers.
func TestBackgroundYieldsToAITurns(t *testing.T) {
	sc, f, _ := newTestScheduler(t, 2, 16)
	sc.kickAs(t, "A", "a1")
	sc.kickAs(t, "B", "b1")
	f.waitStarted(t, 2) // both thinkers busy
	got := make(chan int, 3)
	for range 3 {
		go func() {
			slot, release, err := sc.acquire(context.Background(), false)
			if err != nil {
				t.Error(err)
				got <- -1
				return
			}
			got <- slot
			time.Sleep(10 * time.Millisecond)
			release()
		}()
	}
	time.Sleep(50 * time.Millisecond)
	sc.kickAs(t, "C", "c1") // queued after the background searches
	if len(got) != 0 {
		t.Fatal("a background search took a thinker while both were busy")
	}
	f.ch("a1") <- false // a1 ends: c1 takes its thinker, before the background searches
	if started := f.waitStarted(t, 3); started[2] != "c1" {
		t.Fatalf("started %v, want c1 third", started)
	}
	f.ch("b1") <- false // b1 ends: no turn is queued, a background search starts
	for range 3 {
		select {
		case slot := <-got:
			if slot != 0 { // one slot of two thinkers' half
				t.Fatalf("slot %d, want 0", slot)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the background searches did not get a thinker")
		}
	}
	if st := sc.snapshot(); st.Thinking != 1 {
		t.Errorf("thinking %d, want 1 (c1; background searches aside)", st.Thinking)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sc.kickAs(t, "A", "a2") // both thinkers busy again
	f.waitStarted(t, 4)
	done := make(chan error, 1)
	go func() { _, _, err := sc.acquire(ctx, false); done <- err }()
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a cancelled wait for a thinker got one")
	}
}

// importFinished imports the finished Tsoro record of the cli's tests.
func importFinished(t *testing.T, svc *Service) string {
	t.Helper()
	text, err := os.ReadFile("../cli/testdata/replay-tsoro-finished.txt")
	if err != nil {
		t.Fatal(err)
	}
	id, err := svc.Import(context.Background(), string(text))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func waitReview(t *testing.T, svc *Service, id string) *ReviewView {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		v, err := svc.Review(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != "running" {
			return v
		}
	}
	t.Fatal("the review did not end in 2 minutes")
	return nil
}

// TestReviewCachedByPosition: a finished game's review judges its turns
// as search.AnalyseGame does, and a review of the same positions again
// searches nothing.
func TestReviewCachedByPosition(t *testing.T) {
	ctx := context.Background()
	svc := NewService(Config{Store: newMemStore(), AI: search.NewGreedyLevels(1), Workers: 2})
	defer svc.Close()
	id := importFinished(t, svc)
	v, err := svc.StartReview(ctx, id)
	if err != nil || v.Status != "running" || v.Total < 2 {
		t.Fatalf("start: %+v %v", v, err)
	}
	v = waitReview(t, svc, id)
	if v.Status != "done" || v.Done != v.Total || len(v.Turns) != v.Total-1 {
		t.Fatalf("review: status %s, %d of %d, %d turns: %s", v.Status, v.Done, v.Total, len(v.Turns), v.Error)
	}
	searched := svc.analysts.searches.Load()
	judged := 0
	for _, tr := range v.Turns {
		if tr.Position == "" || tr.Best == "" || tr.Before.Text == "" {
			t.Fatalf("turn %+v incomplete", tr)
		}
		if tr.Judgement != "" {
			judged++
		}
	}
	if judged == 0 {
		t.Error("no turn of the game was judged")
	}
	// Forget the finished review: it is made again from the positions kept.
	svc.reviews.mu.Lock()
	delete(svc.reviews.jobs, id)
	svc.reviews.mu.Unlock()
	if _, err := svc.StartReview(ctx, id); err != nil {
		t.Fatal(err)
	}
	again := waitReview(t, svc, id)
	if n := svc.analysts.searches.Load(); n != searched {
		t.Errorf("the second review searched %d positions, want none", n-searched)
	}
	for i := range v.Turns {
		a, b := v.Turns[i], again.Turns[i]
		if a.Before.Text != b.Before.Text || a.After.Text != b.After.Text || a.Best != b.Best || a.PV != b.PV || a.Judgement != b.Judgement {
			t.Fatalf("turn %d differs: %+v and %+v", i+1, v.Turns[i], again.Turns[i])
		}
	}
}

// TestReviewRefusals: a game in play is not reviewed, nor a game that
// does not exist; a review not started is not found.
func TestReviewRefusals(t *testing.T) {
	ctx := context.Background()
	svc := NewService(Config{Store: newMemStore(), AI: search.NewGreedyLevels(1)})
	defer svc.Close()
	c, err := svc.Create(ctx, CreateRequest{Ruleset: "tsoro size=8", Opponent: ModeLocal})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.StartReview(ctx, c.ID); ErrorCode(err) != EConflict {
		t.Errorf("review of a game in play: %v, want conflict", err)
	}
	if _, err := svc.StartReview(ctx, "nope"); ErrorCode(err) != ENotFound {
		t.Errorf("review of no game: %v, want not found", err)
	}
	if _, err := svc.Review(ctx, c.ID); ErrorCode(err) != ENotFound {
		t.Errorf("review not started: %v, want not found", err)
	}
}

// TestBoard: the analysis board plays actions from a position, refuses
// an illegal one by name with the legal ones, and evaluates a state with
// its best actions, best first for the mover.
func TestBoard(t *testing.T) {
	ctx := context.Background()
	// A long bound: the searches are slow under the race detector, and the
	// test is about what the board answers, not how soon.
	svc := NewService(Config{Store: newMemStore(), AI: search.NewGreedyLevels(1), Workers: 2, BoardTime: 5 * time.Minute})
	defer svc.Close()
	v, err := svc.Board(ctx, BoardRequest{Ruleset: "tsoro size=8", Actions: []string{"a3"}})
	if err != nil {
		t.Fatal(err)
	}
	if v.View.Decision == "" || len(v.Events) == 0 || v.Eval != nil {
		t.Fatalf("after a3: decision %q, %d events, eval %v", v.View.Decision, len(v.Events), v.Eval)
	}
	_, err = svc.Board(ctx, BoardRequest{Ruleset: "tsoro size=8", Actions: []string{"d1"}})
	if ErrorCode(err) != EInvalid || !strings.Contains(err.Error(), "action 1 (\"d1\")") || !strings.Contains(err.Error(), "legal:") {
		t.Fatalf("illegal action: %v", err)
	}
	v, err = svc.Board(ctx, BoardRequest{Ruleset: "tsoro size=8", Evaluate: true})
	if err != nil {
		t.Fatal(err)
	}
	e := v.Eval
	if e == nil || len(e.Top) != boardTop || e.Best == "" || e.Line == "" {
		t.Fatalf("eval %+v", e)
	}
	for i := 1; i < len(e.Top); i++ {
		if e.Top[i].Chance.South > e.Top[i-1].Chance.South { // South to move: best first
			t.Fatalf("top actions not sorted: %+v", e.Top)
		}
	}
	n := svc.analysts.searches.Load()
	if _, err := svc.Board(ctx, BoardRequest{Ruleset: "tsoro size=8", Evaluate: true}); err != nil {
		t.Fatal(err)
	}
	if m := svc.analysts.searches.Load(); m != n {
		t.Errorf("the second evaluation of a state searched %d positions, want none", m-n)
	}
}

// TestUrgentBackgroundFirst: a search someone waits for (the analysis
// board's) goes before the reviews' searches queued earlier.
func TestUrgentBackgroundFirst(t *testing.T) {
	sc, _, _ := newTestScheduler(t, 2, 16) // one background slot
	_, release, err := sc.acquire(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	order := make(chan string, 2)
	wait := func(name string, urgent bool) {
		_, rel, err := sc.acquire(context.Background(), urgent)
		if err != nil {
			t.Error(err)
			order <- "error"
			return
		}
		order <- name
		rel()
	}
	go wait("review", false)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		sc.mu.Lock()
		n := len(sc.bg.waiting)
		sc.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the review's search did not queue")
		}
	}
	go wait("board", true)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		sc.mu.Lock()
		n := len(sc.bg.waiting)
		sc.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the board's search did not queue")
		}
	}
	release()
	if first, second := <-order, <-order; first != "board" || second != "review" {
		t.Fatalf("searches got the thinker in the order %s, %s; want board, review", first, second)
	}
}

// reviewMem is a memStore that keeps reviews too.
type reviewMem struct {
	*memStore
	mu      sync.Mutex
	reviews map[string][]byte
}

func (m *reviewMem) StoredReview(_ context.Context, game, limits string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reviews[game+"|"+limits], nil
}

func (m *reviewMem) PutReview(_ context.Context, game, limits string, body []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reviews[game+"|"+limits] = body
	return nil
}

// TestReviewStored: a finished review is stored, and another service on
// the same store (a restart, another instance) answers it done at once,
// searching nothing.
func TestReviewStored(t *testing.T) {
	ctx := context.Background()
	store := &reviewMem{memStore: newMemStore(), reviews: map[string][]byte{}}
	a := NewService(Config{Store: store, AI: search.NewGreedyLevels(1), Workers: 2})
	id := importFinished(t, a)
	if _, err := a.StartReview(ctx, id); err != nil {
		t.Fatal(err)
	}
	v := waitReview(t, a, id)
	a.Close() // the store's write is done when the review is
	if len(store.reviews) != 1 {
		t.Fatalf("%d reviews stored, want 1", len(store.reviews))
	}
	b := NewService(Config{Store: store, AI: search.NewGreedyLevels(1), Workers: 2})
	defer b.Close()
	w, err := b.StartReview(ctx, id)
	if err != nil || w.Status != "done" || len(w.Turns) != len(v.Turns) || w.Done != w.Total {
		t.Fatalf("stored review: %+v, %v", w, err)
	}
	for i := range v.Turns {
		if v.Turns[i].PV != w.Turns[i].PV || v.Turns[i].Judgement != w.Turns[i].Judgement || v.Turns[i].After.Text != w.Turns[i].After.Text {
			t.Fatalf("turn %d: %+v, stored %+v", i+1, v.Turns[i], w.Turns[i])
		}
	}
	if n := b.analysts.searches.Load(); n != 0 {
		t.Errorf("the stored review searched %d positions", n)
	}
}
