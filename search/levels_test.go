package search

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"matombo/mancala"
)

// winningCapture is a tsoro position where South's a5 ends in the empty b3
// and captures North's last stones: the only action that wins at once.
const winningCapture = "0,0,0,0,0,0/0,0,3,0,0,0/0,0,0,0,0,0/2,0,0,0,5,0 S"

func TestImmediateWinIsFound(t *testing.T) {
	s, _ := mancala.NewGame(mancala.MustParseRuleset("tsoro size=6 heads=none bonus=0"))
	if err := s.SetPosition(winningCapture); err != nil {
		t.Fatal(err)
	}
	want := mancala.HoleAction(mancala.MakeHole(mancala.RowA, 5))
	check := func(name string, p Player) {
		t.Helper()
		a, err := p.Choose(context.Background(), s, Limits{Playouts: 300, Nodes: 5000})
		if err != nil || a != want {
			t.Errorf("%s chose %s (%v), want %s", name, a, err, want)
		}
	}
	for name, mk := range testPlayers(t) {
		if name != "random" {
			check(name, mk(5))
		}
	}
	for k := 4; k <= MaxLevel; k++ { // levels 1 to 3 blunder on purpose
		p, err := NewLevel(k, 9)
		if err != nil {
			t.Fatal(err)
		}
		check("level "+string(rune('0'+k)), p)
	}
	m, _ := NewMCTS(DefaultMCTS(1))
	m.Choose(context.Background(), s, Limits{Playouts: 300})
	if m.LastStats().Proven != 1 {
		t.Errorf("the solver should prove the win: %+v", m.LastStats())
	}
	sv, _ := NewSolver(10)
	sol, err := sv.Solve(context.Background(), s, Limits{Depth: 4})
	if err != nil || sol.Value != Win || sol.Best != want {
		t.Errorf("solver: %+v, %v", sol, err)
	}
}

func TestLevelsAreBoundedAndValid(t *testing.T) {
	if _, err := Level(0); err == nil {
		t.Error("level 0 should not exist")
	}
	if _, err := NewLevel(9, 1); err == nil {
		t.Error("level 9 should not exist")
	}
	for k := MinLevel; k <= MaxLevel; k++ {
		spec, _ := Level(k)
		if spec.Nodes == 0 && spec.MoveTime == 0 {
			t.Errorf("level %d has neither a node nor a time limit", k)
		}
		if spec.MoveTime > 2*time.Second {
			t.Errorf("level %d thinks %v, more than 2 s", k, spec.MoveTime)
		}
	}
	l := NewLevels(1)
	for _, s := range positions(t, 1) {
		for _, k := range []int{1, 4} {
			a, err := l[k].Choose(context.Background(), s, Limits{})
			if err != nil || !isLegal(s, a) {
				t.Errorf("level %d on %s: %s %v", k, s.Ruleset(), a, err)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	s, _ := mancala.NewGame(mancala.Default(mancala.Tsoro))
	if _, err := l[8].Choose(ctx, s, Limits{}); err != nil { // Levels builds and runs level 8 within ctx
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	p8, err := NewLevel(8, 1)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := p8.Choose(ctx, s, Limits{MoveTime: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > slack {
		t.Errorf("level 8 ignored a 100 ms deadline: %v", el)
	}
}

func TestTighten(t *testing.T) {
	got := tighten(Limits{Depth: 3, MoveTime: time.Second}, Limits{MoveTime: 200 * time.Millisecond, Nodes: 10})
	want := Limits{Depth: 3, MoveTime: 200 * time.Millisecond, Nodes: 10}
	if got != want {
		t.Errorf("tighten = %+v, want %+v", got, want)
	}
}

// TestPoolConcurrent: a level pool answers decisions at once with a player
// each, keeps them, and Levels refuses what is not a level.
func TestPoolConcurrent(t *testing.T) {
	p, err := NewLevelPool(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewLevelPool(0, 1); err == nil {
		t.Error("level 0 should not make a pool")
	}
	s, _ := mancala.NewGame(mancala.Default(mancala.Nsolo))
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := p.Choose(context.Background(), s, Limits{})
			if err == nil && !isLegal(s, a) {
				err = fmt.Errorf("illegal %s", a)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if m := p.Made(); m < 1 || m > 4 {
		t.Errorf("the pool made %d players for 4 decisions", m)
	}
	before := p.Made()
	if _, err := p.Choose(context.Background(), s, Limits{}); err != nil || p.Made() != before {
		t.Errorf("a lone decision made a player (%d, then %d): %v", before, p.Made(), err)
	}
	l := NewGreedyLevels(1)
	if _, err := l.Player(9); err == nil {
		t.Error("level 9 should not have a player")
	}
	var empty Levels
	if _, err := empty.Player(3); err == nil || !empty.IsZero() || l.IsZero() {
		t.Errorf("empty levels: %v", err)
	}
	for k := MinLevel; k <= MaxLevel; k++ {
		a, err := l[k].Choose(context.Background(), s, Limits{})
		if err != nil || !isLegal(s, a) {
			t.Errorf("greedy level %d: %s %v", k, a, err)
		}
	}
}
