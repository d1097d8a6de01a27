package storetest

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/lobby"
)

// LobbyStore is a game store that keeps the lobby's challenges too.
type LobbyStore interface {
	app.Store
	lobby.Store
}

// RunLobby runs the suite of lobby.Store; newStore returns an empty store,
// closed by the suite.
func RunLobby(t *testing.T, newStore func(t *testing.T) LobbyStore) {
	tests := []struct {
		name string
		f    func(*testing.T, LobbyStore)
	}{
		{"Challenges", testChallenges},
		{"ConcurrentTake", testConcurrentTake},
		{"Expiry", testExpiry},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			defer s.Close()
			tc.f(t, s)
		})
	}
}

func newChallenge(id string, at time.Time) *lobby.Challenge {
	return &lobby.Challenge{ID: id, KeyHash: app.HashToken("key-" + id), Account: "acct-" + id, Name: "Ada", Ruleset: "tsoro",
		TimeControl: "3+2", Rated: true, Side: "random", Kind: lobby.KindDirect, To: "acct-bo", ToName: "Bo",
		Status: lobby.StatusOpen, Created: at, Seen: at, Updated: at}
}

func mustChallenge(t *testing.T, s LobbyStore, id string, at time.Time) *lobby.Challenge {
	t.Helper()
	c := newChallenge(id, at)
	if err := s.CreateChallenge(context.Background(), c); err != nil {
		t.Fatalf("CreateChallenge(%s): %v", id, err)
	}
	return c
}

func testChallenges(t *testing.T, s LobbyStore) {
	ctx := context.Background()
	c := mustChallenge(t, s, "c1", base)
	mustChallenge(t, s, "c0", base.Add(-time.Minute))
	wantCode(t, "CreateChallenge twice", s.CreateChallenge(ctx, newChallenge("c1", base)), app.EConflict)
	got, err := s.Challenge(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != c.ID || !bytes.Equal(got.KeyHash, c.KeyHash) || got.Account != c.Account || got.Name != c.Name || got.Ruleset != c.Ruleset ||
		got.TimeControl != c.TimeControl || !got.Rated || got.Side != c.Side || got.Kind != c.Kind || got.To != c.To || got.ToName != c.ToName ||
		got.Status != lobby.StatusOpen || got.Game != "" || !got.Created.Equal(base) || !got.Seen.Equal(base) {
		t.Errorf("Challenge: got %+v, want %+v", got, c)
	}
	byKey, err := s.ChallengeByKey(ctx, app.HashToken("key-c1"))
	if err != nil || byKey.ID != "c1" {
		t.Errorf("ChallengeByKey: %v, %v", byKey, err)
	}
	_, err = s.ChallengeByKey(ctx, app.HashToken("nope"))
	wantCode(t, "ChallengeByKey(unknown)", err, app.ENotFound)
	_, err = s.Challenge(ctx, "nope")
	wantCode(t, "Challenge(unknown)", err, app.ENotFound)

	open, err := s.OpenChallenges(ctx, 10)
	if err != nil || len(open) != 2 || open[0].ID != "c0" || open[1].ID != "c1" {
		t.Fatalf("OpenChallenges: %v, %v; want c0, c1 (oldest first)", ids(open), err)
	}
	if open, _ := s.OpenChallenges(ctx, 1); len(open) != 1 {
		t.Errorf("OpenChallenges(1): %d challenges", len(open))
	}

	// Open -> taken -> accepted with its game; a wrong from is refused.
	wantCode(t, "SetChallengeStatus(unknown)", s.SetChallengeStatus(ctx, "nope", lobby.StatusOpen, lobby.StatusTaken, "", base), app.ENotFound)
	if err := s.SetChallengeStatus(ctx, "c1", lobby.StatusOpen, lobby.StatusTaken, "", base.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "take a taken challenge", s.SetChallengeStatus(ctx, "c1", lobby.StatusOpen, lobby.StatusTaken, "", base), app.EConflict)
	if err := s.SetChallengeStatus(ctx, "c1", lobby.StatusTaken, lobby.StatusAccepted, "game1", base.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Challenge(ctx, "c1")
	if got.Status != lobby.StatusAccepted || got.Game != "game1" || !got.Updated.Equal(base.Add(2*time.Second)) {
		t.Errorf("accepted: status %s game %q updated %v", got.Status, got.Game, got.Updated)
	}
	if open, _ := s.OpenChallenges(ctx, 10); len(open) != 1 || open[0].ID != "c0" {
		t.Errorf("OpenChallenges after an acceptance: %v", ids(open))
	}

	// Settled challenges go a day later; open ones stay.
	if err := s.DeleteChallenges(ctx, base.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, err = s.Challenge(ctx, "c1")
	wantCode(t, "Challenge(deleted)", err, app.ENotFound)
	if _, err := s.Challenge(ctx, "c0"); err != nil {
		t.Errorf("an open challenge was deleted: %v", err)
	}
}

func ids(cs []*lobby.Challenge) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

// testConcurrentTake takes one challenge from 8 goroutines: one wins.
func testConcurrentTake(t *testing.T, s LobbyStore) {
	mustChallenge(t, s, "c", base)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			errs[i] = s.SetChallengeStatus(context.Background(), "c", lobby.StatusOpen, lobby.StatusTaken, "", base)
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case app.ErrorCode(err) != app.EConflict:
			t.Errorf("a lost take: %v, want a conflict", err)
		}
	}
	if won != 1 {
		t.Errorf("%d takes won, want 1", won)
	}
}

func testExpiry(t *testing.T, s LobbyStore) {
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c"} {
		mustChallenge(t, s, id, base)
	}
	if err := s.SetChallengeStatus(ctx, "c", lobby.StatusOpen, lobby.StatusCancelled, "", base); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchChallenges(ctx, []string{"a", "c", "unknown"}, base.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchChallenges(ctx, nil, base); err != nil {
		t.Fatal(err)
	}
	got, err := s.ExpireChallenges(ctx, base.Add(30*time.Second), base.Add(time.Minute))
	if err != nil || !slices.Equal(got, []string{"b"}) {
		t.Fatalf("ExpireChallenges: %v, %v; want [b] (a was touched, c is cancelled)", got, err)
	}
	b, _ := s.Challenge(ctx, "b")
	cc, _ := s.Challenge(ctx, "c")
	if b.Status != lobby.StatusExpired || cc.Status != lobby.StatusCancelled {
		t.Errorf("after expiry: b %s, c %s", b.Status, cc.Status)
	}
	if got, _ := s.ExpireChallenges(ctx, base.Add(30*time.Second), base.Add(time.Minute)); len(got) != 0 {
		t.Errorf("a second expiry: %v", got)
	}
}
