package app

import (
	"context"
	"strings"
	"sync"
	"testing"

	"matombo/mancala"
	"matombo/search"
)

// heldChoice returns the South choice that st, holding one unseen, holds:
// what a mover that cheats could find out, by comparing the position after
// North's first choice with each South choice.
func heldChoice(t *testing.T, st *mancala.State) string {
	t.Helper()
	if !st.OpeningChoiceHidden() {
		t.Fatalf("the state holds no hidden choice: %s", st.Position())
	}
	north := st.Legal(nil)[0]
	got := st.Clone()
	if err := got.Apply(north); err != nil {
		t.Fatal(err)
	}
	before := st.BeforeOpeningChoice()
	for _, s := range before.Legal(nil) {
		try := before.Clone()
		if try.Apply(s) == nil && try.Apply(north) == nil && try.Position() == got.Position() {
			return s.String()
		}
	}
	t.Fatal("no South choice gives the state's position")
	return ""
}

// afterSouth returns the Choro start after South's choice.
func afterSouth(t *testing.T, choice string) *mancala.State {
	t.Helper()
	st, err := mancala.NewGame(mancala.Default(mancala.Choro))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := mancala.ParseAction(choice)
	if err := st.Apply(a); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestBlindOpening: the state the mover gets for North's opening holds the
// drawn South choice, not South's own, and is the same whatever South chose.
func TestBlindOpening(t *testing.T) {
	ctx := context.Background()
	var seen []*mancala.State
	spy := playerFunc(func(_ context.Context, st *mancala.State, _ search.Limits) (mancala.Action, error) {
		seen = append(seen, st.Clone())
		return st.Legal(nil)[0], nil
	})
	for k := range 8 {
		seen = nil
		for _, south := range []string{"a6", "a3"} {
			a, err := blindOpening(ctx, spy, afterSouth(t, south), search.Limits{}, func(n int) int { return k % n })
			if err != nil {
				t.Fatal(err)
			}
			if a.String()[0] != 'd' {
				t.Errorf("North's opening %s", a)
			}
		}
		if len(seen) != 2 {
			t.Fatalf("the mover was asked %d times", len(seen))
		}
		want := mancala.MakeHole(mancala.RowA, k+1).String() // South's choices in board order: a1..a8
		for i, st := range seen {
			if got := heldChoice(t, st); got != want {
				t.Errorf("pick %d, South's choice %d: the mover's state holds %s, want the drawn %s", k, i, got, want)
			}
		}
		if seen[0].Position() != seen[1].Position() || heldChoice(t, seen[0]) != heldChoice(t, seen[1]) {
			t.Errorf("pick %d: the mover's state differs with South's choice", k)
		}
	}
}

// TestComputerAndHintChooseNorthsOpeningBlind: the computer playing North,
// and the hint for North on one device, ask the mover with a state whose
// held South choice is drawn, not South's: over 24 asks South's a6 is not
// the one held every time (a mover seeing South's choice would hold it
// always; a blind draw holds it with chance 1/8 each time).
func TestComputerAndHintChooseNorthsOpeningBlind(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var held []string
	spy := playerFunc(func(_ context.Context, st *mancala.State, _ search.Limits) (mancala.Action, error) {
		if st.OpeningChoiceHidden() {
			mu.Lock()
			held = append(held, heldChoice(t, st))
			mu.Unlock()
		}
		return st.Legal(nil)[0], nil
	})
	svc := NewService(Config{Store: newMemStore(), AI: search.SameLevels(spy), Workers: 2})
	defer svc.Close()
	check := func(what string) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if len(held) != 24 {
			t.Fatalf("%s: the mover was asked %d times for North's opening, want 24", what, len(held))
		}
		others := 0
		for _, h := range held {
			if h != "a6" {
				others++
			}
		}
		if others == 0 {
			t.Errorf("%s: the mover's state held South's a6 in all 24 asks: it sees South's choice", what)
		}
		held = nil
	}
	for range 24 {
		c, err := svc.Create(ctx, CreateRequest{Ruleset: "choro", Opponent: ModeAI, Level: 1, Side: "S"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Act(ctx, c.ID, c.Token, "a6", 0); err != nil {
			t.Fatal(err)
		}
		waitPly(t, svc, c.ID, 2)
	}
	check("the computer")

	c, err := svc.Create(ctx, CreateRequest{Ruleset: "choro", Opponent: ModeLocal})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Act(ctx, c.ID, c.Tokens["S"], "a6", 0); err != nil {
		t.Fatal(err)
	}
	for range 24 {
		h, err := svc.Hint(ctx, c.ID, c.Tokens["N"])
		if err != nil {
			t.Fatal(err)
		}
		if h.Ply != 1 || h.Action[0] != 'd' {
			t.Errorf("North's hint %+v", h)
		}
	}
	check("the hint")
}

// TestImportSuggestsTheOldReading: an old Choro record under a plain choro
// header is refused with the DLP reading in the error's SuggestRuleset, and
// imports under it when asked.
func TestImportSuggestsTheOldReading(t *testing.T) {
	ctx := context.Background()
	svc := NewService(Config{Store: newMemStore(), AI: search.NewGreedyLevels(1)})
	defer svc.Close()
	st, _ := mancala.NewGame(mancala.DLPChoro())
	rec, _ := mancala.NewRecorder(st)
	for i := 0; i < 10; i++ {
		legal := rec.State().Legal(nil)
		rec.Apply(legal[i%len(legal)])
	}
	// As an old record was written: numbered as the DLP's reading, with
	// the plain name that meant it.
	dlp := "choro opening=sequential cw=any leave=no"
	text := strings.Replace(rec.Record().String(), `[Ruleset "`+dlp+`"]`, `[Ruleset "choro"]`, 1)
	_, err := svc.Import(ctx, text)
	if ErrorCode(err) != EInvalid || ErrorSuggestRuleset(err) != dlp {
		t.Fatalf("import of an old record: %v (code %s, suggest %q), want bad_request suggesting %q", err, ErrorCode(err), ErrorSuggestRuleset(err), dlp)
	}
	id, err := svc.ImportAs(ctx, text, dlp)
	if err != nil {
		t.Fatalf("import under the suggested reading: %v", err)
	}
	v, err := svc.View(ctx, id, "")
	if err != nil || v.Ruleset != dlp || v.Ply != 10 {
		t.Fatalf("imported game %+v, %v", v, err)
	}
	if _, err := svc.ImportAs(ctx, text, "choro size=9"); ErrorCode(err) != EInvalid || ErrorSuggestRuleset(err) != "" {
		t.Errorf("a bad ruleset parameter: %v", err)
	}
	// A record that fails for another reason suggests nothing.
	if _, err := svc.Import(ctx, "[Ruleset \"tsoro size=6\"]\n[Result \"*\"]\n\n1. d9 *\n"); ErrorCode(err) != EInvalid || ErrorSuggestRuleset(err) != "" {
		t.Errorf("a bad tsoro record: %v, suggest %q", err, ErrorSuggestRuleset(err))
	}
}

// TestRefreshKeepsTheOpeningSecret: the update that another instance's
// change brings (Refresh) holds South's choice back as the acting
// instance's does: no events, opening_hidden, the choice for South's seats
// only.
func TestRefreshKeepsTheOpeningSecret(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	svc := NewService(Config{Store: store, AI: search.NewGreedyLevels(1)})
	defer svc.Close()
	c, err := svc.Create(ctx, CreateRequest{Ruleset: "choro", Opponent: ModeFriend})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Act(ctx, c.ID, c.Token, "a6", 0); err != nil {
		t.Fatal(err)
	}
	var got []Update
	other := NewService(Config{Store: store, AI: search.NewGreedyLevels(1)})
	defer other.Close()
	other.SetNotifier(notifierFunc(func(_ string, u Update) { got = append(got, u) }))
	if err := other.Refresh(ctx, c.ID, 1); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d updates", len(got))
	}
	u := got[0]
	if len(u.Events) != 0 || !u.Game.OpeningHidden || len(u.Game.Turns) != 0 || strings.Contains(u.Game.Record, "a6") {
		t.Errorf("refresh update: events %v, view %+v", u.Events, u.Game)
	}
	for you, want := range map[string]string{"S": "a6", "N": "", "": ""} {
		if v := u.ViewFor(you); v.OpeningChoice != want || v.You != you {
			t.Errorf("view for %q: opening_choice %q you %q, want %q", you, v.OpeningChoice, v.You, want)
		}
	}
}
