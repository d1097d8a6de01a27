package app

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// searchLog passes decisions to the real search levels and remembers
// every action a search returned, by position: an action played that no
// search returned was not searched (a fallback).
type searchLog struct {
	m  search.Levels
	mu sync.Mutex
	ok map[string]bool // position + " " + action
}

func newSearchLog() *searchLog { return &searchLog{m: search.NewLevels(1), ok: map[string]bool{}} }

// levels returns the levels that play through the log.
func (l *searchLog) levels() search.Levels {
	var out search.Levels
	for k := MinLevel; k <= MaxLevel; k++ {
		out[k] = playerFunc(func(ctx context.Context, s *mancala.State, lim search.Limits) (mancala.Action, error) {
			a, err := l.m[k].Choose(ctx, s, lim)
			if err == nil {
				l.mu.Lock()
				l.ok[s.Position()+" "+a.String()] = true
				l.mu.Unlock()
			}
			return a, err
		})
	}
	return out
}

// checkSearched fails t unless every AI action of game id was returned by
// a search.
func (l *searchLog) checkSearched(t *testing.T, svc *Service, id string) {
	t.Helper()
	g, err := svc.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := startState(g.Ruleset, g.Start)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range g.Actions {
		if g.Players[st.ToMove()].Kind == KindAI && !l.ok[st.Position()+" "+m.Action] {
			t.Errorf("game %s (%s) ply %d: the AI played %s, which no search returned", id, g.Ruleset, m.Ply, m.Action)
		}
		a, _ := mancala.ParseAction(m.Action)
		if err := st.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
}

// waitHandOver waits until the AI of game id hands over (or the game
// ends), up to limit after start, and returns when it did.
func waitHandOver(t *testing.T, svc *Service, id string, start time.Time, limit time.Duration) time.Duration {
	t.Helper()
	for {
		v, err := svc.View(context.Background(), id, "")
		if err != nil {
			t.Error(err)
			return 0
		}
		took := time.Since(start)
		if !v.Thinking && v.Ply > 0 {
			return took
		}
		if took > limit {
			t.Errorf("game %s (%s): no answer after %v", id, v.Ruleset, took.Round(time.Millisecond))
			return took
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestLevel8GamesOnTwoCores: eight level-8 games of eight players start at
// once on two cores and two thinkers: every first reply comes within 5 s and
// every AI action was searched (none is the first legal action played for
// want of a search).
func TestLevel8GamesOnTwoCores(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real level-8 searches for some seconds")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	log := newSearchLog()
	svc := NewService(Config{Store: newMemStore(), AI: log.levels(), Workers: 2})
	defer svc.Close()
	presets := mancala.Presets()
	start := time.Now()
	ids := make([]string, 8)
	for i := range ids {
		c, err := svc.Create(context.Background(), CreateRequest{Ruleset: presets[i%len(presets)].String(), Opponent: ModeAI,
			Level: 8, Side: "N", Client: fmt.Sprintf("10.0.0.%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = c.ID
	}
	var worst time.Duration
	for _, id := range ids {
		worst = max(worst, waitHandOver(t, svc, id, start, 5*time.Second))
	}
	for _, id := range ids {
		log.checkSearched(t, svc, id)
	}
	st := svc.AIStats()
	t.Logf("8 level-8 games: last first reply after %v; %d turns at level 8, %d at a cheaper level, %d failed searches",
		worst.Round(time.Millisecond), st.Turns, st.Downgraded, st.Failures)
	if st.Failures != 0 {
		t.Errorf("%d searches failed", st.Failures)
	}
}

// TestOneClientCannotHogTheAI: one client creates 60 level-8 games, all
// with the AI to move; another client's level-1 game still answers within
// 2 s, and the 60 games all answer too, with searched actions.
func TestOneClientCannotHogTheAI(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real level-8 searches for some seconds")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	log := newSearchLog()
	svc := NewService(Config{Store: newMemStore(), AI: log.levels(), Workers: 2, Queue: 256})
	defer svc.Close()
	ctx := context.Background()
	var hog []string
	hogStart := time.Now()
	for i := range 60 {
		c, err := svc.Create(ctx, CreateRequest{Ruleset: mancala.Presets()[i%5].String(), Opponent: ModeAI, Level: 8, Side: "N", Client: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		hog = append(hog, c.ID)
	}
	start := time.Now()
	c, err := svc.Create(ctx, CreateRequest{Ruleset: "nsolo", Opponent: ModeAI, Level: 1, Side: "N", Client: "198.51.100.7"})
	if err != nil {
		t.Fatal(err)
	}
	took := waitHandOver(t, svc, c.ID, start, 2*time.Second)
	var worst time.Duration
	for _, id := range hog {
		worst = max(worst, waitHandOver(t, svc, id, hogStart, StartBound(DefaultAIWait, 256)+TurnTime(MaxLevel)))
	}
	for _, id := range append(hog, c.ID) {
		log.checkSearched(t, svc, id)
	}
	st := svc.AIStats()
	t.Logf("the other client's level-1 game answered in %v; the 60 games' last first reply after %v; %d turns at their level, %d at a cheaper level; waits %v (buckets %v), mean %v",
		took.Round(time.Millisecond), worst.Round(time.Millisecond), st.Turns, st.Downgraded, st.Waits, AIWaitBounds,
		(st.WaitSum / time.Duration(max(st.Turns+st.Downgraded, 1))).Round(time.Millisecond))
}

// TestLevel8TurnTime: level 8 answers every turn, all its decisions
// together, within 2.5 s on every preset (the five games play at once, each
// on its own thinker: the budget is wall-clock time).
func TestLevel8TurnTime(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real level-8 searches for some seconds")
	}
	const turns = 5
	presets := mancala.Presets()
	svc := NewService(Config{Store: newMemStore(), AI: newSearchLog().levels(), Workers: 2 * len(presets)})
	defer svc.Close()
	var wg sync.WaitGroup
	for i, rs := range presets {
		wg.Go(func() {
			worst, most := playTimedTurns(t, svc, rs, fmt.Sprintf("10.1.0.%d", i), turns)
			t.Logf("%-13s level 8: longest of %d turns %v, most decisions in a turn %d", rs, turns, worst.Round(time.Millisecond), most)
			if worst > 2500*time.Millisecond {
				t.Errorf("%s: a level-8 turn took %v", rs, worst)
			}
		})
	}
	wg.Wait()
	if st := svc.AIStats(); st.Downgraded != 0 || st.Failures != 0 {
		t.Errorf("%d turns downgraded, %d searches failed", st.Downgraded, st.Failures)
	}
}

// playTimedTurns plays a game of rs against level 8 (the human side plays
// level-1 moves at once) for up to turns AI turns, and returns the longest
// AI turn and its most decisions in a turn.
func playTimedTurns(t *testing.T, svc *Service, rs mancala.Ruleset, client string, turns int) (time.Duration, int) {
	ctx := context.Background()
	c, err := svc.Create(ctx, CreateRequest{Ruleset: rs.String(), Opponent: ModeAI, Level: 8, Side: "N", Client: client})
	if err != nil {
		t.Error(err)
		return 0, 0
	}
	human := search.NewGreedyLevels(3)[1]
	var worst time.Duration
	most := 0
	start, ply := time.Now(), 0
	for n := 0; n < turns; {
		worst = max(worst, waitHandOver(t, svc, c.ID, start, 5*time.Second))
		v, err := svc.View(ctx, c.ID, c.Token)
		if err != nil || v.Status == "over" {
			break
		}
		most, n = max(most, v.Ply-ply), n+1
		st, err := startState(v.Ruleset, "")
		if err != nil {
			t.Error(err)
			break
		}
		for _, turn := range v.Turns {
			for _, a := range turn {
				a, _ := mancala.ParseAction(a)
				st.Apply(a)
			}
		}
		ply = v.Ply
		for st.ToMove() == mancala.North && !st.IsOver() { // the human's whole turn
			a, _ := human.Choose(ctx, st, search.Limits{})
			if _, err := svc.Act(ctx, c.ID, c.Token, a.String(), ply); err != nil {
				t.Error(err)
				return worst, most
			}
			st.Apply(a)
			ply++
		}
		start = time.Now()
	}
	return worst, most
}
