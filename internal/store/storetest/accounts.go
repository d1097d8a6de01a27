package storetest

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/mancala"
)

// AccountStore is a game store that keeps accounts too.
type AccountStore interface {
	app.Store
	accounts.Store
}

// RunAccounts runs the suite of accounts.Store; newStore returns an empty
// store, closed by the suite.
func RunAccounts(t *testing.T, newStore func(t *testing.T) AccountStore) {
	tests := []struct {
		name string
		f    func(*testing.T, AccountStore)
	}{
		{"Accounts", testAccounts},
		{"Sessions", testSessions},
		{"SeatLinks", testSeatLinks},
		{"AccountGames", testAccountGames},
		{"Ratings", testRatings},
		{"ConcurrentRating", testConcurrentRating},
		{"PendingRatings", testPendingRatings},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			defer s.Close()
			tc.f(t, s)
		})
	}
}

func newAccount(name string) *accounts.Account {
	return &accounts.Account{ID: "id-" + name, Name: name, Key: name, Hash: "$argon2id$hash-of-" + name, SeatKey: []byte("key-" + name), Created: base}
}

func mustAccount(t *testing.T, s AccountStore, name string) *accounts.Account {
	t.Helper()
	a := newAccount(name)
	if err := s.CreateAccount(context.Background(), a); err != nil {
		t.Fatalf("CreateAccount(%s): %v", name, err)
	}
	return a
}

func testAccounts(t *testing.T, s AccountStore) {
	ctx := context.Background()
	a := mustAccount(t, s, "ada")
	for _, get := range []func() (*accounts.Account, error){
		func() (*accounts.Account, error) { return s.AccountByName(ctx, "ada") },
		func() (*accounts.Account, error) { return s.AccountByID(ctx, a.ID) },
	} {
		got, err := get()
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != a.ID || got.Name != a.Name || got.Key != a.Key || got.Hash != a.Hash || !bytes.Equal(got.SeatKey, a.SeatKey) || !got.Created.Equal(a.Created) {
			t.Errorf("got %+v, want %+v", got, a)
		}
	}
	dup := newAccount("ada")
	dup.ID = "other"
	wantCode(t, "a taken name", s.CreateAccount(ctx, dup), app.EConflict)
	_, err := s.AccountByName(ctx, "nobody")
	wantCode(t, "an unknown name", err, app.ENotFound)
	_, err = s.AccountByID(ctx, "nobody")
	wantCode(t, "an unknown id", err, app.ENotFound)
	wantCode(t, "the password of an unknown account", s.SetPassword(ctx, "nobody", "h", nil), app.ENotFound)
}

func testSessions(t *testing.T, s AccountStore) {
	ctx := context.Background()
	a := mustAccount(t, s, "ada")
	now := time.Now().UTC().Truncate(time.Microsecond)
	h := func(i int) []byte { return app.HashToken(fmt.Sprint("session-", i)) }
	for i := range 3 {
		if err := s.CreateSession(ctx, accounts.Session{Hash: h(i), Account: a.ID, Created: now.Add(time.Duration(i) * time.Millisecond), Expires: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	se, got, err := s.SessionAccount(ctx, h(1), now)
	if err != nil || got.ID != a.ID || se.Account != a.ID || !se.Expires.Equal(now.Add(time.Hour)) {
		t.Fatalf("session 1: %+v %+v %v", se, got, err)
	}
	if _, _, err := s.SessionAccount(ctx, h(1), now.Add(time.Hour)); app.ErrorCode(err) != app.ENotFound {
		t.Errorf("an expired session: %v, want not found", err)
	}
	if _, _, err := s.SessionAccount(ctx, h(9), now); app.ErrorCode(err) != app.ENotFound {
		t.Errorf("an unknown session: %v, want not found", err)
	}
	if err := s.DeleteSession(ctx, h(0)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SessionAccount(ctx, h(0), now); app.ErrorCode(err) != app.ENotFound {
		t.Errorf("a deleted session: %v", err)
	}
	if err := s.DeleteSession(ctx, h(0)); err != nil {
		t.Errorf("deleting a session twice: %v", err)
	}
	// A password change keeps the session that made it and ends the others.
	if err := s.SetPassword(ctx, a.ID, "new-hash", h(2)); err != nil {
		t.Fatal(err)
	}
	if _, got, err := s.SessionAccount(ctx, h(2), now); err != nil || got.Hash != "new-hash" {
		t.Errorf("the session kept: %+v %v", got, err)
	}
	if _, _, err := s.SessionAccount(ctx, h(1), now); app.ErrorCode(err) != app.ENotFound {
		t.Errorf("another session after a password change: %v, want not found", err)
	}
	// A rehash (keep nil) ends no session.
	if err := s.SetPassword(ctx, a.ID, "newer-hash", nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SessionAccount(ctx, h(2), now); err != nil {
		t.Errorf("a session after a rehash: %v", err)
	}
	// An expired session is deleted by the account's next session.
	if err := s.CreateSession(ctx, accounts.Session{Hash: h(3), Account: a.ID, Created: now.Add(2 * time.Hour), Expires: now.Add(3 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SessionAccount(ctx, h(2), now); app.ErrorCode(err) != app.ENotFound {
		t.Errorf("an expired session outlived the next log-in: %v", err)
	}
}

func testSeatLinks(t *testing.T, s AccountStore) {
	ctx := context.Background()
	a, b := mustAccount(t, s, "ada"), mustAccount(t, s, "bob")
	mustCreate(t, s, newGame("g1", base))
	links := []accounts.SeatLink{{Account: a.ID, Game: "g1", Side: mancala.South}, {Account: b.ID, Game: "g1", Side: mancala.North}}
	for i, l := range append(links, links[0]) { // the second link of a seat changes nothing
		if err := s.LinkSeat(ctx, l, base.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.GameLinks(ctx, "g1")
	if err != nil || len(got) != 2 || got[0] != links[0] || got[1] != links[1] {
		t.Errorf("links %+v (%v), want %+v", got, err, links)
	}
	if got, err := s.GameLinks(ctx, "nope"); err != nil || len(got) != 0 {
		t.Errorf("links of an unknown game: %+v %v", got, err)
	}
	wantCode(t, "a link to an unknown game", s.LinkSeat(ctx, accounts.SeatLink{Account: a.ID, Game: "nope", Side: mancala.South}, base), app.ENotFound)
}

func testAccountGames(t *testing.T, s AccountStore) {
	ctx := context.Background()
	a, b := mustAccount(t, s, "ada"), mustAccount(t, s, "bob")
	// Eight games, one a second: ada South in the even ones, North in the
	// odd; results cycle won by S, won by N, draw, in play.
	results := []string{"S", "N", "draw", "*"}
	for i := range 8 {
		g := newGame(fmt.Sprint("g", i), base.Add(time.Duration(i)*time.Second))
		if i%4 == 3 {
			g.Ruleset = "nsolo"
		}
		g.Result = results[i%4]
		if g.Result != "*" {
			g.Reason = "test"
		}
		mustCreate(t, s, g)
		side := mancala.Player(i % 2)
		for _, l := range []accounts.SeatLink{{Account: a.ID, Game: g.ID, Side: side}, {Account: b.ID, Game: g.ID, Side: side.Other()}} {
			if err := s.LinkSeat(ctx, l, base); err != nil {
				t.Fatal(err)
			}
		}
	}
	ids := func(f accounts.GameFilter) string {
		t.Helper()
		f.Limit = max(f.Limit, 100)
		gs, err := s.AccountGames(ctx, a.ID, f)
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, g := range gs {
			out += g.Game.ID + g.Side.String() + " "
		}
		return out
	}
	for _, c := range []struct {
		f    accounts.GameFilter
		want string
	}{
		{accounts.GameFilter{}, "g7N g6S g5N g4S g3N g2S g1N g0S "},
		{accounts.GameFilter{Result: "won"}, "g5N g4S g1N g0S "},
		{accounts.GameFilter{Result: "drawn"}, "g6S g2S "},
		{accounts.GameFilter{Result: "playing"}, "g7N g3N "},
		{accounts.GameFilter{Ruleset: "nsolo"}, "g7N g3N "},
		{accounts.GameFilter{Ruleset: "tsoro size=8", Result: "won"}, "g5N g4S g1N g0S "},
		{accounts.GameFilter{Before: base.Add(5 * time.Second)}, "g4S g3N g2S g1N g0S "},
		{accounts.GameFilter{Before: base.Add(5 * time.Second), BeforeID: "g5"}, "g4S g3N g2S g1N g0S "},
		{accounts.GameFilter{Before: base.Add(5 * time.Second), BeforeID: "g6"}, "g5N g4S g3N g2S g1N g0S "},
	} {
		if got := ids(c.f); got != c.want {
			t.Errorf("filter %+v: %s, want %s", c.f, got, c.want)
		}
	}
	lost, err := s.AccountGames(ctx, a.ID, accounts.GameFilter{Result: "lost", Limit: 1})
	if err != nil || len(lost) != 0 {
		t.Errorf("ada lost %+v (%v): she won every decided game", lost, err)
	}
	if gs, err := s.AccountGames(ctx, a.ID, accounts.GameFilter{Limit: 3}); err != nil || len(gs) != 3 || gs[0].Game.Players != newGame("x", base).Players {
		t.Errorf("limit 3: %d games (%v)", len(gs), err)
	}
	stats, err := s.AccountStats(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []accounts.RulesetStats{{Ruleset: "tsoro size=8", Games: 6, Won: 4, Drawn: 2}, {Ruleset: "nsolo", Games: 2, Playing: 2}}
	if fmt.Sprint(stats) != fmt.Sprint(want) {
		t.Errorf("ada's results %+v, want %+v", stats, want)
	}
	if stats, err := s.AccountStats(ctx, b.ID); err != nil || len(stats) != 2 || stats[0].Lost != 4 || stats[0].Won != 0 {
		t.Errorf("bob's results %+v (%v)", stats, err)
	}
}

func testRatings(t *testing.T, s AccountStore) {
	ctx := context.Background()
	a, b := mustAccount(t, s, "ada"), mustAccount(t, s, "bob")
	key := accounts.RatingKey{Ruleset: "tsoro size=8", Category: accounts.CategoryUntimed}
	var seen [][2]accounts.Glicko
	rate := func(before [2]accounts.Glicko) [2]accounts.Glicko {
		seen = append(seen, before)
		return [2]accounts.Glicko{{Rating: before[0].Rating + 10, Deviation: before[0].Deviation - 1, Volatility: 0.06}, {Rating: before[1].Rating - 10, Deviation: before[1].Deviation - 1, Volatility: 0.06}}
	}
	mustCreate(t, s, newGame("g1", base))
	mustCreate(t, s, newGame("g2", base))
	if _, ok, err := s.RatedKey(ctx, "g1"); ok || err != nil {
		t.Errorf("an unmarked game is rated: %v %v", ok, err)
	}
	if done, err := s.ApplyRating(ctx, "g1", [2]string{a.ID, b.ID}, base, rate); done || err != nil {
		t.Errorf("rating an unmarked game: %v %v", done, err)
	}
	for _, id := range []string{"g1", "g2"} {
		if err := s.MarkRated(ctx, id, key); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, "marking an unknown game", s.MarkRated(ctx, "nope", key), app.ENotFound)
	if got, ok, err := s.RatedKey(ctx, "g1"); !ok || err != nil || got != key {
		t.Errorf("rated key %+v %v %v", got, ok, err)
	}
	for i, id := range []string{"g1", "g1", "g2"} {
		done, err := s.ApplyRating(ctx, id, [2]string{a.ID, b.ID}, base.Add(time.Duration(i)*time.Minute), rate)
		if err != nil || done != (i != 1) {
			t.Errorf("ApplyRating %s (%d): %v %v", id, i, done, err)
		}
	}
	if len(seen) != 2 || seen[0][0] != accounts.NewGlicko() || seen[1][0].Rating != 1510 || seen[1][1].Rating != 1490 {
		t.Errorf("ratings before: %+v", seen)
	}
	board, err := s.Leaderboard(ctx, key, 10)
	if err != nil || len(board) != 2 || board[0].Name != "ada" || board[0].Glicko.Rating != 1520 || board[0].Games != 2 || board[1].Glicko.Rating != 1480 {
		t.Errorf("leaderboard %+v (%v)", board, err)
	}
	if board, err := s.Leaderboard(ctx, accounts.RatingKey{Ruleset: "nsolo", Category: accounts.CategoryUntimed}, 10); err != nil || len(board) != 0 {
		t.Errorf("leaderboard of another preset %+v (%v)", board, err)
	}
	rs, err := s.Ratings(ctx, b.ID)
	if err != nil || len(rs) != 1 || rs[0].RatingKey != key || math.Abs(rs[0].Deviation-348) > 1e-9 {
		t.Errorf("bob's ratings %+v (%v)", rs, err)
	}
	hist, err := s.RatingHistory(ctx, a.ID, key, 10)
	if err != nil || len(hist) != 2 || hist[0].Game != "g1" || hist[0].Rating != 1510 || hist[1].Game != "g2" || !hist[1].At.Equal(base.Add(2*time.Minute)) {
		t.Errorf("ada's history %+v (%v)", hist, err)
	}
	if hist, err := s.RatingHistory(ctx, a.ID, key, 1); err != nil || len(hist) != 1 || hist[0].Game != "g2" {
		t.Errorf("ada's newest point %+v (%v)", hist, err)
	}
}

// testConcurrentRating rates one game from many goroutines, and games
// sharing a player at once: the game is rated once, and every game of the
// player is counted.
func testConcurrentRating(t *testing.T, s AccountStore) {
	ctx := context.Background()
	a := mustAccount(t, s, "ada")
	key := accounts.RatingKey{Ruleset: "tsoro size=8", Category: accounts.CategoryUntimed}
	const games = 6
	var others []string
	for i := range games {
		o := mustAccount(t, s, fmt.Sprint("op", i))
		others = append(others, o.ID)
		mustCreate(t, s, newGame(fmt.Sprint("g", i), base))
		if err := s.MarkRated(ctx, fmt.Sprint("g", i), key); err != nil {
			t.Fatal(err)
		}
	}
	rate := func(before [2]accounts.Glicko) [2]accounts.Glicko {
		return [2]accounts.Glicko{{Rating: before[0].Rating + 1, Deviation: 300, Volatility: 0.06}, {Rating: before[1].Rating - 1, Deviation: 300, Volatility: 0.06}}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	applied := 0
	for i := range games * 3 {
		wg.Go(func() {
			g := i % games
			players := [2]string{a.ID, others[g]}
			if g%2 == 1 {
				players = [2]string{others[g], a.ID}
			}
			done, err := s.ApplyRating(ctx, fmt.Sprint("g", g), players, base, func(b [2]accounts.Glicko) [2]accounts.Glicko {
				if g%2 == 1 {
					r := rate([2]accounts.Glicko{b[1], b[0]})
					return [2]accounts.Glicko{r[1], r[0]}
				}
				return rate(b)
			})
			if err != nil {
				t.Error(err)
			}
			if done {
				mu.Lock()
				applied++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	rs, err := s.Ratings(ctx, a.ID)
	if applied != games || err != nil || len(rs) != 1 || rs[0].Games != games || rs[0].Glicko.Rating != 1500+games {
		t.Errorf("applied %d of %d games; ada's ratings %+v (%v)", applied, games, rs, err)
	}
}

// testPendingRatings: the games marked rated that are over, neither rated
// nor settled unrated, are pending; a settled game is not rated.
func testPendingRatings(t *testing.T, s AccountStore) {
	ctx := context.Background()
	a, b := mustAccount(t, s, "ada"), mustAccount(t, s, "bob")
	key := accounts.RatingKey{Ruleset: "nsolo", Category: accounts.CategoryUntimed}
	for i, result := range []string{"S", "N", "*", "draw"} {
		g := newGame(fmt.Sprint("g", i), base.Add(time.Duration(i)*time.Second))
		g.Result = result
		mustCreate(t, s, g)
		if i < 3 {
			if err := s.MarkRated(ctx, g.ID, key); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := s.PendingRatings(ctx, 10)
	if err != nil || fmt.Sprint(got) != "[g0 g1]" {
		t.Fatalf("pending %v (%v), want [g0 g1]: over, marked rated", got, err)
	}
	if err := s.SettleUnrated(ctx, "g1", "North's side is held by 0 accounts, not one"); err != nil {
		t.Fatal(err)
	}
	keep := func(b [2]accounts.Glicko) [2]accounts.Glicko { return b }
	if done, err := s.ApplyRating(ctx, "g1", [2]string{a.ID, b.ID}, base, keep); done || err != nil {
		t.Errorf("a settled game was rated: %v %v", done, err)
	}
	if done, err := s.ApplyRating(ctx, "g0", [2]string{a.ID, b.ID}, base, keep); !done || err != nil {
		t.Errorf("a pending game was not rated: %v %v", done, err)
	}
	if err := s.SettleUnrated(ctx, "g0", "too late"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.PendingRatings(ctx, 10); err != nil || len(got) != 0 {
		t.Errorf("pending %v (%v) after rating and settling", got, err)
	}
	if rs, err := s.Ratings(ctx, a.ID); err != nil || len(rs) != 1 || rs[0].Games != 1 {
		t.Errorf("ada's ratings %+v (%v): settling a rated game must not undo it", rs, err)
	}
}
