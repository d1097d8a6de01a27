package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"matombo/internal/app"
	"matombo/mancala"
	"matombo/search"
)

// OldChoro is a game stored before Choro had options, when every ruleset
// naming Choro meant the one Choro there was, the DLP's reading: the store
// tests write it into a database of the schema before the Choro migration,
// then open the database with the current one and check it with
// CheckOldChoro.
type OldChoro struct {
	ID      string
	Ruleset string     // as stored then: "choro", or another string the old parser read as Choro
	Actions []app.Move // a whole game of the DLP's reading
	Result  string     // its result by the rules
	Reason  string
	Turns   int
}

// oldChoroRulesets are the ruleset strings that meant the old Choro: its
// canonical "choro" (what the app stored) and the others its parser read
// so (size=8 and opening=sequential in any order, any white space).
var oldChoroRulesets = []string{
	"choro",
	"choro size=8",
	"choro opening=sequential",
	"choro size=8 opening=sequential",
	"choro opening=sequential size=8",
	"  choro\tsize=8 \n opening=sequential ",
}

// untouchedRulesets are stored rulesets that the Choro migration must leave
// as they are: other games, and Choro strings that the old parser refused.
var untouchedRulesets = []string{"nsolo", "tsoro size=8", "choro cw=any", "choro size=9", "choros"}

// OldChoroGames returns the old Choro games to store, one per ruleset string
// that meant the old Choro, each a whole game played under the DLP's
// reading that does not replay to its result under plain "choro" now.
func OldChoroGames(t *testing.T) []OldChoro {
	t.Helper()
	actions, result, reason, turns := playDLP(t)
	var out []OldChoro
	for i, rs := range oldChoroRulesets {
		out = append(out, OldChoro{ID: fmt.Sprintf("oldchoro%d", i), Ruleset: rs, Actions: actions, Result: result, Reason: reason, Turns: turns})
	}
	return out
}

// UntouchedGames returns games (without actions) whose rulesets the Choro
// migration must not change.
func UntouchedGames() []OldChoro {
	var out []OldChoro
	for i, rs := range untouchedRulesets {
		out = append(out, OldChoro{ID: fmt.Sprintf("untouched%d", i), Ruleset: rs, Result: "*"})
	}
	return out
}

// playDLP plays a whole game of the DLP's reading of Choro with a fixed
// choice rule (the legal action at a varying index), one that the default
// reading does not replay to the same result.
func playDLP(t *testing.T) (moves []app.Move, result, reason string, turns int) {
	t.Helper()
	st, err := mancala.NewGame(mancala.DLPChoro())
	if err != nil {
		t.Fatal(err)
	}
	for ply := 0; !st.IsOver(); ply++ {
		if ply > 5000 {
			t.Fatal("the DLP game did not end in 5,000 actions")
		}
		legal := st.Legal(nil)
		a := legal[(ply*7+3)%len(legal)]
		moves = append(moves, app.Move{Ply: ply, Action: a.String(), Side: st.ToMove(), At: base})
		if err := st.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if replaysTo(mancala.Default(mancala.Choro), moves) == st.Outcome().Result.String() {
		t.Fatal("the DLP game replays to the same result under plain choro: it cannot show the migration")
	}
	return moves, st.Outcome().Result.String(), st.Outcome().Reason.String(), st.Turns()
}

// replaysTo returns the result that moves reach under rs, or why they do not.
func replaysTo(rs mancala.Ruleset, moves []app.Move) string {
	st, err := mancala.NewGame(rs)
	if err != nil {
		return err.Error()
	}
	for _, m := range moves {
		a, err := mancala.ParseAction(m.Action)
		if err == nil {
			err = st.Apply(a)
		}
		if err != nil {
			return fmt.Sprintf("ply %d: %v", m.Ply, err)
		}
	}
	if !st.IsOver() {
		return "not over"
	}
	return st.Outcome().Result.String()
}

// CheckOldChoro checks, on a store opened on a database holding old and
// untouched (written before the Choro migration), that every old Choro
// game now has the DLP's ruleset, replays to its stored result, and opens
// in the app with it; and that the untouched games kept their rulesets.
func CheckOldChoro(t *testing.T, s app.Store, old, untouched []OldChoro) {
	t.Helper()
	ctx := context.Background()
	dlp := mancala.DLPChoro().String()
	if dlp != "choro opening=sequential cw=any leave=no" {
		t.Fatalf("the DLP reading prints %q", dlp)
	}
	svc := app.NewService(app.Config{Store: s, AI: search.NewGreedyLevels(1)})
	defer svc.Close()
	for _, o := range old {
		g := mustGet(t, s, o.ID)
		if g.Ruleset != dlp {
			t.Errorf("game %s stored as %q has ruleset %q after the migration, want %q", o.ID, o.Ruleset, g.Ruleset, dlp)
			continue
		}
		if len(g.Actions) != len(o.Actions) || g.Result != o.Result {
			t.Errorf("game %s: %d actions, result %s; stored %d, %s", o.ID, len(g.Actions), g.Result, len(o.Actions), o.Result)
			continue
		}
		if got := replaysTo(mancala.DLPChoro(), g.Actions); got != o.Result {
			t.Errorf("game %s replays to %s, want its stored result %s", o.ID, got, o.Result)
		}
		v, err := svc.View(ctx, o.ID, "")
		if err != nil {
			t.Errorf("game %s does not open: %v", o.ID, err)
			continue
		}
		if v.Ruleset != dlp || v.Result != o.Result || v.Status != "over" || v.Ply != len(o.Actions) {
			t.Errorf("game %s opens as ruleset %q result %s status %s ply %d", o.ID, v.Ruleset, v.Result, v.Status, v.Ply)
		}
		rec, err := svc.RecordText(ctx, o.ID)
		if err != nil || !strings.Contains(rec, `[Ruleset "`+dlp+`"]`) {
			t.Errorf("game %s: record %q, %v", o.ID, rec, err)
		}
	}
	for _, u := range untouched {
		if g := mustGet(t, s, u.ID); g.Ruleset != u.Ruleset {
			t.Errorf("game %s stored as %q has ruleset %q after the migration", u.ID, u.Ruleset, g.Ruleset)
		}
	}
}
