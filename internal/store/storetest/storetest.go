// Package storetest is the test suite every app.Store implementation must
// pass: call Run from the implementation's tests with a constructor of empty
// stores.
package storetest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/mancala"
)

// Run runs the suite; newStore returns an empty store, closed by the suite.
func Run(t *testing.T, newStore func(t *testing.T) app.Store) {
	tests := []struct {
		name string
		f    func(*testing.T, app.Store)
	}{
		{"CreateAndGet", testCreateAndGet},
		{"NotFound", testNotFound},
		{"AppendChecksPly", testAppendChecksPly},
		{"ConcurrentAppend", testConcurrentAppend},
		{"ManyGamesAtOnce", testManyGamesAtOnce},
		{"CancelledWrites", testCancelledWrites},
		{"ReadIsConsistent", testReadIsConsistent},
		{"Finish", testFinish},
		{"Seats", testSeats},
		{"RenamePlayer", testRenamePlayer},
		{"Rematch", testRematch},
		{"ConcurrentRematch", testConcurrentRematch},
		{"Invites", testInvites},
		{"AwkwardNames", testAwkwardNames},
		{"List", testList},
		{"ListPagingEqualTimes", testListPagingEqualTimes},
		{"ImportWithActions", testImportWithActions},
		{"CheckWrite", testCheckWrite},
		{"Clocks", testClocks},
		{"TakeBack", testTakeBack},
		{"DueGames", testDueGames},
		{"FinishOnce", testFinishOnce},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			defer s.Close()
			tc.f(t, s)
		})
	}
}

var base = time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC) // in the past: Finish stamps the present

func newGame(id string, at time.Time) *app.Game {
	return &app.Game{
		ID: id, Ruleset: "tsoro size=8", Mode: app.ModeFriend,
		Players: [2]app.Player{{Kind: app.KindHuman, Name: "Ada"}, {Kind: app.KindAI, Level: 5, Name: "Computer"}},
		Invites: [2][]byte{nil, app.HashToken("invite")},
		Seats:   []app.Seat{{Side: mancala.South, Hash: app.HashToken("tok-s"), Created: at}},
		Result:  "*", Created: at, Updated: at,
	}
}

func mustCreate(t *testing.T, s app.Store, g *app.Game) {
	t.Helper()
	if err := s.CreateGame(context.Background(), g); err != nil {
		t.Fatalf("CreateGame(%s): %v", g.ID, err)
	}
}

func mustGet(t *testing.T, s app.Store, id string) *app.Game {
	t.Helper()
	g, err := s.Game(context.Background(), id)
	if err != nil {
		t.Fatalf("Game(%s): %v", id, err)
	}
	return g
}

func wantCode(t *testing.T, what string, err error, code app.Code) {
	t.Helper()
	if got := app.ErrorCode(err); err == nil || got != code {
		t.Fatalf("%s: error %v (code %s), want code %s", what, err, got, code)
	}
}

func move(ply int, action string, side mancala.Player) app.Move {
	return app.Move{Ply: ply, Action: action, Side: side, At: base.Add(time.Duration(ply+1) * time.Second)}
}

func testCreateAndGet(t *testing.T, s app.Store) {
	g := newGame("g1", base)
	g.Start = "2,2/0,0/0,0/2,2 S"
	mustCreate(t, s, g)
	got := mustGet(t, s, "g1")
	if got.ID != g.ID || got.Ruleset != g.Ruleset || got.Start != g.Start || got.Mode != g.Mode ||
		got.Players != g.Players || got.Result != "*" || got.Reason != "" || got.Turns != 0 || got.Rematch != "" {
		t.Errorf("got %+v, want %+v", got, g)
	}
	if !got.Created.Equal(base) || !got.Updated.Equal(base) {
		t.Errorf("times %v %v, want %v", got.Created, got.Updated, base)
	}
	if got.Invites[0] != nil || !bytes.Equal(got.Invites[1], g.Invites[1]) {
		t.Errorf("invites %x, want %x", got.Invites, g.Invites)
	}
	if len(got.Seats) != 1 || got.Seats[0].Side != mancala.South || !bytes.Equal(got.Seats[0].Hash, app.HashToken("tok-s")) {
		t.Errorf("seats %+v", got.Seats)
	}
	if len(got.Actions) != 0 {
		t.Errorf("actions %+v, want none", got.Actions)
	}
	if err := s.CreateGame(context.Background(), newGame("g1", base)); err == nil {
		t.Error("creating a game with an existing id succeeded")
	}
}

func testNotFound(t *testing.T, s app.Store) {
	ctx := context.Background()
	_, err := s.Game(ctx, "nope")
	wantCode(t, "Game", err, app.ENotFound)
	wantCode(t, "AppendAction", s.AppendAction(ctx, "nope", move(0, "a1", mancala.South), 0, "*", ""), app.ENotFound)
	wantCode(t, "Finish", s.Finish(ctx, "nope", 0, "S", "resigned"), app.ENotFound)
	wantCode(t, "AddSeat", s.AddSeat(ctx, "nope", app.Seat{Hash: []byte{1}, Created: base}), app.ENotFound)
	_, err = s.CreateRematch(ctx, "nope", newGame("x", base))
	wantCode(t, "CreateRematch", err, app.ENotFound)
	wantCode(t, "TakeInvite", s.TakeInvite(ctx, "nope", app.HashToken("invite"), app.Seat{Side: mancala.North, Hash: []byte{1}, Created: base}), app.ENotFound)
	wantCode(t, "NewInvite", s.NewInvite(ctx, "nope", mancala.North, []byte{1}), app.ENotFound)
	if _, err := s.Game(ctx, "x"); app.ErrorCode(err) != app.ENotFound {
		t.Errorf("the rematch of no game was stored: %v", err)
	}
}

func testAppendChecksPly(t *testing.T, s app.Store) {
	ctx := context.Background()
	mustCreate(t, s, newGame("g", base))
	if err := s.AppendAction(ctx, "g", move(0, "a7", mancala.South), 0, "*", ""); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "replayed ply 0", s.AppendAction(ctx, "g", move(0, "a6", mancala.South), 0, "*", ""), app.EConflict)
	wantCode(t, "ply from the future", s.AppendAction(ctx, "g", move(5, "a6", mancala.South), 0, "*", ""), app.EConflict)
	if err := s.AppendAction(ctx, "g", move(1, "stop", mancala.South), 1, "*", ""); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendAction(ctx, "g", move(2, "d2", mancala.North), 2, "N", "no legal action"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "append after the end", s.AppendAction(ctx, "g", move(3, "a1", mancala.South), 3, "*", ""), app.EConflict)
	g := mustGet(t, s, "g")
	want := []string{"a7", "stop", "d2"}
	if len(g.Actions) != len(want) {
		t.Fatalf("actions %+v, want %v", g.Actions, want)
	}
	for i, m := range g.Actions {
		if m.Ply != i || m.Action != want[i] || !m.At.Equal(move(i, "", 0).At) {
			t.Errorf("action %d = %+v, want ply %d %s", i, m, i, want[i])
		}
	}
	if g.Actions[2].Side != mancala.North || g.Actions[0].Side != mancala.South {
		t.Errorf("sides %v %v", g.Actions[0].Side, g.Actions[2].Side)
	}
	if g.Turns != 2 || g.Result != "N" || g.Reason != "no legal action" || !g.Updated.Equal(move(2, "", 0).At) {
		t.Errorf("game after the end: turns %d result %s reason %q updated %v", g.Turns, g.Result, g.Reason, g.Updated)
	}
}

func testConcurrentAppend(t *testing.T, s app.Store) {
	ctx := context.Background()
	mustCreate(t, s, newGame("g", base))
	const writers = 8
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Go(func() {
			errs[i] = s.AppendAction(ctx, "g", move(0, fmt.Sprintf("a%d", i+1), mancala.South), 0, "*", "")
		})
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case app.ErrorCode(err) != app.EConflict:
			t.Errorf("writer %d: %v, want a conflict", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d concurrent appends of ply 0 succeeded, want exactly 1", won)
	}
	if g := mustGet(t, s, "g"); len(g.Actions) != 1 {
		t.Errorf("stored %d actions, want 1", len(g.Actions))
	}
}

// testManyGamesAtOnce plays many games at once, each ply raced by two
// writers, as a busy server does: every game must end with each ply stored
// exactly once, whatever the store does to group or order the writes.
func testManyGamesAtOnce(t *testing.T, s app.Store) {
	ctx := context.Background()
	const games, plies = 40, 12
	for g := range games {
		mustCreate(t, s, newGame(fmt.Sprintf("m%02d", g), base))
	}
	var wg sync.WaitGroup
	wins := make([][plies]int, games)
	var mu sync.Mutex
	for g := range games {
		id := fmt.Sprintf("m%02d", g)
		for w := range 2 {
			wg.Go(func() {
				for ply := range plies {
					err := s.AppendAction(ctx, id, move(ply, fmt.Sprintf("a%d", w+1), mancala.South), ply+1, "*", "")
					switch {
					case err == nil:
						mu.Lock()
						wins[g][ply]++
						mu.Unlock()
					case app.ErrorCode(err) != app.EConflict:
						t.Errorf("game %s ply %d: %v, want success or a conflict", id, ply, err)
						return
					}
					// Either way ply is stored now (a conflict means the
					// game is past it), so both race for the next one.
				}
			})
		}
	}
	wg.Wait()
	for g := range games {
		got := mustGet(t, s, fmt.Sprintf("m%02d", g))
		if len(got.Actions) != plies || got.Turns != plies {
			t.Errorf("game m%02d: %d actions, %d turns stored; want %d", g, len(got.Actions), got.Turns, plies)
		}
		for ply, n := range wins[g] {
			if n != 1 {
				t.Errorf("game m%02d ply %d was acknowledged %d times, want once", g, ply, n)
			}
		}
	}
}

func testFinish(t *testing.T, s app.Store) {
	ctx := context.Background()
	mustCreate(t, s, newGame("g", base))
	if err := s.AppendAction(ctx, "g", move(0, "a7", mancala.South), 1, "*", ""); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "finish at a stale ply", s.Finish(ctx, "g", 0, "N", "resigned"), app.EConflict)
	if err := s.Finish(ctx, "g", 1, "N", "resigned"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "finish twice", s.Finish(ctx, "g", 1, "S", "resigned"), app.EConflict)
	g := mustGet(t, s, "g")
	if g.Result != "N" || g.Reason != "resigned" || g.Turns != 1 {
		t.Errorf("result %s reason %q turns %d", g.Result, g.Reason, g.Turns)
	}
	if !g.Over() {
		t.Error("finished game not over")
	}
}

func testSeats(t *testing.T, s app.Store) {
	ctx := context.Background()
	mustCreate(t, s, newGame("g", base))
	for i, tok := range []string{"n1", "n2"} {
		if err := s.AddSeat(ctx, "g", app.Seat{Side: mancala.North, Hash: app.HashToken(tok), Created: base.Add(time.Duration(i+1) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	// A seat added again (the same token hash) is not added twice.
	if err := s.AddSeat(ctx, "g", app.Seat{Side: mancala.North, Hash: app.HashToken("n1"), Created: base.Add(time.Hour)}); err != nil {
		t.Fatalf("AddSeat of a seat already there: %v", err)
	}
	g := mustGet(t, s, "g")
	if len(g.Seats) != 3 {
		t.Fatalf("seats %+v, want 3", g.Seats)
	}
	sides := map[string]mancala.Player{"tok-s": mancala.South, "n1": mancala.North, "n2": mancala.North}
	for tok, side := range sides {
		found := false
		for _, st := range g.Seats {
			if bytes.Equal(st.Hash, app.HashToken(tok)) {
				found = true
				if st.Side != side {
					t.Errorf("token %s seated at %v, want %v", tok, st.Side, side)
				}
			}
		}
		if !found {
			t.Errorf("token %s has no seat", tok)
		}
	}
}

func testRenamePlayer(t *testing.T, s app.Store) {
	ctx := context.Background()
	g := newGame("g", base)
	g.Players[1] = app.Player{Kind: app.KindHuman, Name: "North"}
	mustCreate(t, s, g)
	got, err := s.RenamePlayer(ctx, "g", mancala.North, "North", "Bo")
	if err != nil || got != "Bo" {
		t.Fatalf("RenamePlayer = %q, %v; want Bo", got, err)
	}
	// Only from the name expected: a second rename keeps the first.
	got, err = s.RenamePlayer(ctx, "g", mancala.North, "North", "Cy")
	if err != nil || got != "Bo" {
		t.Fatalf("second RenamePlayer = %q, %v; want the first, Bo", got, err)
	}
	stored := mustGet(t, s, "g")
	want := [2]app.Player{g.Players[0], {Kind: app.KindHuman, Name: "Bo"}}
	if stored.Players != want || !stored.Updated.Equal(base) {
		t.Errorf("players %+v updated %v; want %+v, %v", stored.Players, stored.Updated, want, base)
	}
	_, err = s.RenamePlayer(ctx, "nope", mancala.North, "North", "Bo")
	wantCode(t, "RenamePlayer of no game", err, app.ENotFound)
}

func testRematch(t *testing.T, s app.Store) {
	ctx := context.Background()
	mustCreate(t, s, newGame("g", base))
	got, err := s.CreateRematch(ctx, "g", newGame("r1", base))
	if err != nil || got != "r1" {
		t.Fatalf("CreateRematch = %q, %v; want r1", got, err)
	}
	got, err = s.CreateRematch(ctx, "g", newGame("r2", base))
	if err != nil || got != "r1" {
		t.Fatalf("second CreateRematch = %q, %v; want the first, r1", got, err)
	}
	if g := mustGet(t, s, "g"); g.Rematch != "r1" {
		t.Errorf("rematch %q, want r1", g.Rematch)
	}
	mustGet(t, s, "r1")
	if _, err := s.Game(ctx, "r2"); app.ErrorCode(err) != app.ENotFound {
		t.Errorf("the second rematch was stored: %v", err)
	}
}

// testConcurrentRematch: rematches asked at once store one game.
func testConcurrentRematch(t *testing.T, s app.Store) {
	ctx := context.Background()
	mustCreate(t, s, newGame("g", base))
	const n = 16
	got := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i], errs[i] = s.CreateRematch(ctx, "g", newGame(fmt.Sprintf("r%02d", i), base)) })
	}
	wg.Wait()
	stored := 0
	for i := range n {
		if errs[i] != nil || got[i] != got[0] {
			t.Errorf("CreateRematch %d = %q, %v; want %q like the first", i, got[i], errs[i], got[0])
		}
		if _, err := s.Game(ctx, fmt.Sprintf("r%02d", i)); err == nil {
			stored++
		}
	}
	if stored != 1 {
		t.Errorf("%d rematch games stored, want 1", stored)
	}
}

// testInvites: a one-seat invite seats one player, then refuses; a team
// invite seats any number; a new invite replaces the old one.
func testInvites(t *testing.T, s app.Store) {
	ctx := context.Background()
	g := newGame("g", base)
	g.Invites = [2][]byte{app.HashToken("team"), app.HashToken("invite")}
	g.InviteOnce = [2]bool{false, true}
	mustCreate(t, s, g)
	seat := func(side mancala.Player, tok string) app.Seat {
		return app.Seat{Side: side, Hash: app.HashToken(tok), Created: base.Add(time.Minute)}
	}
	if err := s.TakeInvite(ctx, "g", app.HashToken("invite"), seat(mancala.North, "n1")); err != nil {
		t.Fatalf("first join: %v", err)
	}
	wantCode(t, "second join by a one-seat invite", s.TakeInvite(ctx, "g", app.HashToken("invite"), seat(mancala.North, "n2")), app.EConflict)
	for _, tok := range []string{"s1", "s2"} {
		if err := s.TakeInvite(ctx, "g", app.HashToken("team"), seat(mancala.South, tok)); err != nil {
			t.Fatalf("team join %s: %v", tok, err)
		}
	}
	wantCode(t, "a join by a wrong invite", s.TakeInvite(ctx, "g", app.HashToken("nope"), seat(mancala.North, "n3")), app.EForbidden)
	got := mustGet(t, s, "g")
	if len(got.Seats) != 4 || got.InviteOnce != [2]bool{false, true} || got.InviteTaken != [2]bool{false, true} {
		t.Fatalf("after the joins: %d seats, once %v, taken %v", len(got.Seats), got.InviteOnce, got.InviteTaken)
	}
	if err := s.NewInvite(ctx, "g", mancala.North, app.HashToken("again")); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "a join by the replaced invite", s.TakeInvite(ctx, "g", app.HashToken("invite"), seat(mancala.North, "n4")), app.EForbidden)
	if err := s.TakeInvite(ctx, "g", app.HashToken("again"), seat(mancala.North, "n5")); err != nil {
		t.Fatalf("a join by the new invite: %v", err)
	}
	got = mustGet(t, s, "g")
	if len(got.Seats) != 5 || !bytes.Equal(got.Invites[1], app.HashToken("again")) || got.InviteTaken != [2]bool{false, true} {
		t.Errorf("after the new invite: %d seats, invites %x, taken %v", len(got.Seats), got.Invites, got.InviteTaken)
	}
	// Joins at once by one one-seat invite: one seat.
	if err := s.NewInvite(ctx, "g", mancala.North, app.HashToken("race")); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := range 8 {
		wg.Go(func() {
			err := s.TakeInvite(ctx, "g", app.HashToken("race"), seat(mancala.North, fmt.Sprintf("race%d", i)))
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				ok++
			} else if app.ErrorCode(err) != app.EConflict {
				t.Errorf("a racing join: %v", err)
			}
		})
	}
	wg.Wait()
	if got := mustGet(t, s, "g"); ok != 1 || len(got.Seats) != 6 {
		t.Errorf("racing joins: %d succeeded, %d seats; want 1 and 6", ok, len(got.Seats))
	}
}

// testAwkwardNames: names and headers of every kind of text read back as
// stored (cleaned names have no control characters: the app removes them).
func testAwkwardNames(t *testing.T, s app.Store) {
	names := []string{`"quoted"`, `back\slash \"`, "Ngũgĩ wa Thiong'o", "李小龍", "emoji 🎲🎲", "עברית", "tab\tand\u00a0nbsp", "\ufffd", strings.Repeat("ʕ", 40), `</script><b>`, `{"json": [1]}`}
	for i, name := range names {
		g := newGame(fmt.Sprintf("n%d", i), base)
		g.Players[1] = app.Player{Kind: app.KindHuman, Name: name}
		g.Headers = []mancala.Tag{{Key: "Event", Value: name}}
		mustCreate(t, s, g)
		got := mustGet(t, s, g.ID)
		if got.Players != g.Players || !slices.Equal(got.Headers, g.Headers) {
			t.Errorf("name %q reads back as %q, header as %q", name, got.Players[1].Name, got.Headers)
		}
		renamed, err := s.RenamePlayer(context.Background(), g.ID, mancala.North, name, name+"!")
		if err != nil || renamed != name+"!" {
			t.Errorf("rename %q: %q, %v", name, renamed, err)
		}
	}
}

func testList(t *testing.T, s app.Store) {
	ctx := context.Background()
	for i := range 5 {
		mustCreate(t, s, newGame(fmt.Sprintf("g%d", i), base.Add(time.Duration(i)*time.Hour)))
	}
	if err := s.Finish(ctx, "g1", 0, "S", "resigned"); err != nil {
		t.Fatal(err)
	}
	ids := func(gs []*app.Game) string {
		var b bytes.Buffer
		for _, g := range gs {
			b.WriteString(g.ID + " ")
		}
		return b.String()
	}
	all, err := s.ListGames(ctx, app.ListFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	// g1 was updated by Finish (now), so it is the newest.
	if got := ids(all); got != "g1 g4 g3 g2 g0 " {
		t.Errorf("all = %s", got)
	}
	if len(all[0].Seats) != 0 || len(all[0].Actions) != 0 || all[0].Players[0].Name != "Ada" {
		t.Errorf("listed game %+v: want players, no seats or actions", all[0])
	}
	over, _ := s.ListGames(ctx, app.ListFilter{Status: "over", Limit: 10})
	if got := ids(over); got != "g1 " {
		t.Errorf("over = %s", got)
	}
	playing, _ := s.ListGames(ctx, app.ListFilter{Status: "playing", Limit: 2})
	if got := ids(playing); got != "g4 g3 " {
		t.Errorf("playing limit 2 = %s", got)
	}
	page, _ := s.ListGames(ctx, app.ListFilter{Status: "playing", Limit: 10, Before: playing[1].Updated})
	if got := ids(page); got != "g2 g0 " {
		t.Errorf("playing before g3 = %s", got)
	}
	// An imported record without a result is unfinished, not playing.
	rec := newGame("rec", base.Add(10*time.Hour))
	rec.Mode, rec.Seats = app.ModeImported, nil
	mustCreate(t, s, rec)
	playing, _ = s.ListGames(ctx, app.ListFilter{Status: "playing", Limit: 10})
	unfinished, _ := s.ListGames(ctx, app.ListFilter{Status: "unfinished", Limit: 10})
	if got, got2 := ids(playing), ids(unfinished); got != "g4 g3 g2 g0 " || got2 != "rec " {
		t.Errorf("with an unfinished record: playing = %s, unfinished = %s", got, got2)
	}
}

// testListPagingEqualTimes pages through games of equal Updated, across
// page boundaries, with the (Before, BeforeID) cursor: every game comes
// once, in the order updated then id, both descending.
func testListPagingEqualTimes(t *testing.T, s app.Store) {
	ctx := context.Background()
	later := base.Add(time.Hour)
	var want []string
	for _, g := range []struct {
		id string
		at time.Time
	}{{"z", later}, {"e7", base}, {"e6", base}, {"e5", base}, {"e4", base}, {"e3", base}, {"e2", base}, {"e1", base}, {"a", base.Add(-time.Hour)}} {
		mustCreate(t, s, newGame(g.id, g.at))
		want = append(want, g.id)
	}
	for _, limit := range []int{1, 2, 3, 4} {
		var got []string
		f := app.ListFilter{Limit: limit}
		for range len(want) + 1 {
			page, err := s.ListGames(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range page {
				got = append(got, g.ID)
			}
			if len(page) < limit {
				break
			}
			last := page[len(page)-1]
			f.Before, f.BeforeID = last.Updated, last.ID
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("limit %d: pages gave %v, want %v", limit, got, want)
		}
	}
	// Without BeforeID, Before is strict on Updated alone, as before.
	page, err := s.ListGames(ctx, app.ListFilter{Limit: 10, Before: base})
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != 1 || page[0].ID != "a" {
		t.Errorf("before %v alone: %d games, want a", base, len(page))
	}
}

func testImportWithActions(t *testing.T, s app.Store) {
	g := newGame("imp", base)
	g.Mode, g.Seats, g.Result, g.Reason, g.Turns = app.ModeImported, nil, "N", "recorded", 2
	for i, a := range []string{"a7", "stop", "d2"} {
		g.Actions = append(g.Actions, move(i, a, mancala.Player(i/2)))
	}
	g.Headers = []mancala.Tag{{Key: "Event", Value: `Harare "open", round 3`}, {Key: "Date", Value: "1964.??.??"}, {Key: "Annotator", Value: "Ngũgĩ"}}
	mustCreate(t, s, g)
	got := mustGet(t, s, "imp")
	if len(got.Actions) != 3 || got.Actions[2].Action != "d2" || got.Result != "N" || got.Turns != 2 || len(got.Seats) != 0 {
		t.Errorf("imported game %+v", got)
	}
	if !slices.Equal(got.Headers, g.Headers) {
		t.Errorf("headers %q read back as %q", g.Headers, got.Headers)
	}
	// The archive list does not read the headers.
	listed, err := s.ListGames(context.Background(), app.ListFilter{Limit: 10})
	if err != nil || len(listed) != 1 || listed[0].ID != "imp" || listed[0].Headers != nil || listed[0].Players != g.Players {
		t.Errorf("ListGames = %+v, %v; want the game imp without its headers", listed, err)
	}
	plain := newGame("here", base)
	mustCreate(t, s, plain)
	if got := mustGet(t, s, "here"); got.Headers != nil {
		t.Errorf("a game played here reads back with headers %q", got.Headers)
	}
	bad := newGame("bad", base)
	bad.Actions = []app.Move{move(1, "a1", mancala.South)}
	if err := s.CreateGame(context.Background(), bad); err == nil {
		t.Error("a game whose first action has ply 1 was stored")
	}
	if _, err := s.Game(context.Background(), "bad"); app.ErrorCode(err) != app.ENotFound {
		t.Errorf("a refused game was partly stored: %v", err)
	}
}

// testCheckWrite: the write check passes on an open store, changes no game,
// and fails once the store is closed.
func testCheckWrite(t *testing.T, s app.Store) {
	ctx := context.Background()
	mustCreate(t, s, newGame("g1", base))
	for range 3 {
		if err := s.CheckWrite(ctx); err != nil {
			t.Fatalf("CheckWrite on an open store: %v", err)
		}
	}
	if gs, err := s.ListGames(ctx, app.ListFilter{Limit: 10}); err != nil || len(gs) != 1 || !gs[0].Updated.Equal(base) {
		t.Errorf("after CheckWrite: %d games (%v)", len(gs), err)
	}
	s.Close()
	if err := s.CheckWrite(ctx); err == nil {
		t.Error("CheckWrite on a closed store succeeded")
	}
}

// ManyHeaders returns n headers K0 "v0", K1 "v1", …, of which K3 has a
// value longer than mancala.MaxHeaderValue: the headers of a game imported
// before the header limits.
func ManyHeaders(n int) []mancala.Tag {
	tags := make([]mancala.Tag, n)
	for i := range tags {
		tags[i] = mancala.Tag{Key: fmt.Sprintf("K%d", i), Value: fmt.Sprintf("v%d", i)}
	}
	tags[3].Value = strings.Repeat("x", mancala.MaxHeaderValue+1)
	return tags
}

// CheckCutHeaders checks that game id, stored with ManyHeaders(n) for some
// n > 62 before the header-limit migration, kept its first 61 headers whose
// values fit, in order.
func CheckCutHeaders(t *testing.T, s app.Store, id string) {
	t.Helper()
	g := mustGet(t, s, id)
	var want []mancala.Tag
	for _, tag := range ManyHeaders(100) {
		if len(tag.Value) <= mancala.MaxHeaderValue && len(want) < mancala.MaxHeaders-3 {
			want = append(want, tag)
		}
	}
	if !slices.Equal(g.Headers, want) {
		t.Errorf("after the migration, %d headers (first %v, last %v); want the %d of %v",
			len(g.Headers), g.Headers[:min(2, len(g.Headers))], g.Headers[max(0, len(g.Headers)-1):], len(want), want)
	}
}

// testCancelledWrites creates many games at once, a third of them by
// callers that go away at random moments: every write whose caller stayed
// succeeds, every acknowledged write is stored, and every game stored is
// whole. A caller that goes away may lose its own write, never another's.
func testCancelledWrites(t *testing.T, s app.Store) {
	const n, plies = 240, 40
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			ctx := context.Background()
			if i%3 == 0 {
				c, cancel := context.WithTimeout(ctx, time.Duration(rand.IntN(4000))*time.Microsecond)
				defer cancel()
				ctx = c
			}
			g := newGame(fmt.Sprintf("c%03d", i), base)
			for p := range plies {
				g.Actions = append(g.Actions, move(p, "a1", mancala.Player(p%2)))
			}
			errs[i] = s.CreateGame(ctx, g)
		})
	}
	wg.Wait()
	cancelled := 0
	for i := range n {
		g, err := s.Game(context.Background(), fmt.Sprintf("c%03d", i))
		switch {
		case i%3 != 0 && errs[i] != nil:
			t.Errorf("game %d, whose caller stayed, was refused: %v", i, errs[i])
		case errs[i] == nil && err != nil:
			t.Errorf("game %d was acknowledged but is not stored: %v", i, err)
		case err == nil && len(g.Actions) != plies:
			t.Errorf("game %d is stored with %d actions of %d", i, len(g.Actions), plies)
		}
		if errs[i] != nil {
			cancelled++
		}
	}
	t.Logf("%d of %d writes refused after their callers went away", cancelled, (n+2)/3)
}

// testReadIsConsistent reads a game while actions are appended to it: each
// read sees the game row, the seats and the actions of one moment (the
// turn count stored with each action equals the actions read).
func testReadIsConsistent(t *testing.T, s app.Store) {
	ctx := context.Background()
	mustCreate(t, s, newGame("g", base))
	const plies = 300
	done := make(chan struct{})
	go func() {
		defer close(done)
		for p := range plies {
			if err := s.AppendAction(ctx, "g", move(p, "a1", mancala.Player(p%2)), p+1, "*", ""); err != nil {
				t.Errorf("append %d: %v", p, err)
				return
			}
		}
	}()
	reads, torn := 0, 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		g := mustGet(t, s, "g")
		reads++
		if len(g.Actions) != g.Turns {
			torn++
			if torn <= 3 {
				t.Errorf("a read saw %d turns in the game row but %d actions", g.Turns, len(g.Actions))
			}
		}
	}
	if torn > 0 {
		t.Errorf("%d of %d reads were torn", torn, reads)
	}
}
