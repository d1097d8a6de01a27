package app_test

import (
	"context"
	"sync"
	"testing"

	"matombo/internal/app"
)

// TestConcurrentRematchCreatesOne: rematches asked at once, by the same
// seat and by the other, create one rematch game, and each seat gets its
// own seat in it.
func TestConcurrentRematchCreatesOne(t *testing.T) {
	svc, st := newSQLiteService(t)
	ctx := context.Background()
	c, err := svc.Create(ctx, app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	j, err := svc.Join(ctx, c.ID, c.Invite[len("/join/"+c.ID+"/"):], "Bo")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Resign(ctx, c.ID, c.Token); err != nil {
		t.Fatal(err)
	}
	const n = 16
	got := make([]*app.Created, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		token := c.Token
		if i%2 == 1 {
			token = j.Token
		}
		wg.Go(func() { got[i], errs[i] = svc.Rematch(ctx, c.ID, token) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || got[i].ID != got[0].ID {
			t.Fatalf("rematch %d: %+v, %v; want the rematch %s like the first", i, got[i], errs[i], got[0].ID)
		}
		if want := got[i%2]; got[i].Token != want.Token || got[i].Seat != want.Seat {
			t.Errorf("rematch %d gave seat %s %s; want the same as the same old seat's, %s %s", i, got[i].Seat, got[i].Token, want.Seat, want.Token)
		}
	}
	games, err := st.ListGames(ctx, app.ListFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Errorf("%d games stored, want the game and one rematch", len(games))
	}
	v, err := svc.View(ctx, got[0].ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if !v.Seated["S"] || !v.Seated["N"] || v.Players["S"].Name != "Bo" || v.Players["N"].Name != "Ada" {
		t.Errorf("the rematch: seated %v, players %+v", v.Seated, v.Players)
	}
	g, err := st.Game(ctx, got[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Seats) != 2 || g.Invites[0] != nil || g.Invites[1] != nil {
		t.Errorf("the rematch has %d seats and invites %x; want the old game's 2 seats and no invite", len(g.Seats), g.Invites)
	}
}
