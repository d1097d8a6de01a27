package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/mancala"
)

// TestRecordExportImportReplay plays a local game to its end, exports its
// record, imports it back and replays it with events.
func TestRecordExportImportReplay(t *testing.T) {
	e := newEnv(t)
	c, end := playLocal(t, e, "tsoro size=6")
	status, text := e.do("GET", "/api/games/"+c.ID+"/record", "", nil)
	if status != 200 {
		t.Fatalf("record: status %d", status)
	}
	rec, err := mancala.ParseRecord(string(text))
	if err != nil {
		t.Fatalf("exported record does not parse: %v\n%s", err, text)
	}
	st, err := rec.Replay()
	if err != nil || st.Position() != end.Position || rec.Result.String() != end.Result {
		t.Fatalf("exported record replays to %v (%v), want %s %s", st, err, end.Position, end.Result)
	}
	var imp struct{ ID, URL string }
	e.call("POST", "/api/records", "", text, http.StatusCreated, &imp)
	if imp.ID == "" || imp.ID == c.ID || imp.URL != "/replay/"+imp.ID {
		t.Fatalf("import answer %+v", imp)
	}
	v := e.view(imp.ID, "")
	if v.Mode != "imported" || v.Position != end.Position || v.Result != end.Result || v.Ply != end.Ply || v.Status != "over" {
		t.Fatalf("imported game %+v", v)
	}
	var rp app.ReplayView
	e.call("GET", "/api/games/"+imp.ID+"/replay", "", nil, 200, &rp)
	if len(rp.Actions) != end.Ply || rp.Actions[len(rp.Actions)-1].Position != end.Position || rp.Ruleset != "tsoro size=6" {
		t.Fatalf("replay has %d actions, last position %v", len(rp.Actions), rp.Actions)
	}
	start, _ := mancala.StartPosition(mancala.MustParseRuleset("tsoro size=6"))
	if rp.Start != start || rp.Actions[0].By != "S" || len(rp.Actions[0].Events) == 0 || rp.Actions[0].Events[0].From != rp.Actions[0].Action {
		t.Fatalf("replay start %s first step %+v", rp.Start, rp.Actions[0])
	}
	// The same game's export and the import's agree turn by turn.
	_, text2 := e.do("GET", "/api/games/"+imp.ID+"/record", "", nil)
	rec2, err := mancala.ParseRecord(string(text2))
	if err != nil || len(rec2.Turns) != len(rec.Turns) {
		t.Fatalf("re-export: %v", err)
	}
}

func TestImportErrors(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name  string
		text  string
		words []string
	}{
		{"empty", "", nil},
		{"no ruleset", "[Result \"*\"]\n\n1. a3 *\n", []string{"Ruleset"}},
		{"illegal action", "[Ruleset \"tsoro size=8\"]\n[Result \"*\"]\n\n1. a3,stop d6,stop 2. c4 *\n", []string{"turn 3", "c4"}},
		{"unknown ruleset", "[Ruleset \"chess\"]\n[Result \"*\"]\n\n*\n", []string{"chess"}},
	}
	for _, tc := range cases {
		status, data := e.do("POST", "/api/records", "", tc.text)
		wantError(t, tc.name, status, data, 400, app.EInvalid, tc.words...)
	}
	status, data := e.do("POST", "/api/records", "", strings.Repeat(" ", maxRecordBody+1))
	wantError(t, "too large", status, data, 413, app.ETooLarge)
}

func TestResignAndRematch(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "choro", Opponent: "friend", Side: "S", Name: "Ada"})
	code := c.Invite[strings.LastIndex(c.Invite, "/")+1:]
	var j app.Joined
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": code}, 200, &j)
	status, data := e.do("POST", "/api/games/"+c.ID+"/rematch", c.Token, nil)
	wantError(t, "rematch in play", status, data, 409, app.EConflict, "still in play")
	status, data = e.do("POST", "/api/games/"+c.ID+"/resign", "", nil)
	wantError(t, "resign without a seat", status, data, 403, app.EForbidden)

	var a Answer
	e.call("POST", "/api/games/"+c.ID+"/resign", j.Token, nil, 200, &a)
	v := a.Game
	if v.Result != "S" || v.Reason != "resigned" || v.Status != "over" || v.You != "N" || len(v.Legal) != 0 {
		t.Fatalf("after North resigned: %+v", v)
	}
	if !strings.Contains(v.Record, `[Result "S"]`) || !strings.Contains(v.Record, `[South "Ada"]`) {
		t.Errorf("record of a resigned game:\n%s", v.Record)
	}
	status, data = e.do("POST", "/api/games/"+c.ID+"/resign", c.Token, nil)
	wantError(t, "resign twice", status, data, 409, app.EConflict, "already over")
	status, data = e.do("POST", "/api/games/"+c.ID+"/actions", c.Token, `{"action":"a1","ply":0}`)
	wantError(t, "act after the end", status, data, 409, app.EConflict, "over")

	// Both players ask for the rematch: one game, sides swapped.
	var r1, r2 app.Created
	e.call("POST", "/api/games/"+c.ID+"/rematch", c.Token, nil, 200, &r1)
	e.call("POST", "/api/games/"+c.ID+"/rematch", j.Token, nil, 200, &r2)
	if r1.ID != r2.ID || r1.ID == c.ID || r1.Seat != "N" || r2.Seat != "S" {
		t.Fatalf("rematches %+v %+v", r1, r2)
	}
	if e.view(c.ID, "").Rematch != r1.ID {
		t.Error("the old game does not point to its rematch")
	}
	nv := e.view(r1.ID, r1.Token)
	if nv.You != "N" || nv.Players["N"].Name != "Ada" || nv.Ruleset != "choro" || nv.Status != "playing" {
		t.Fatalf("rematch view %+v", nv)
	}
	if got := e.view(r1.ID, r2.Token).You; got != "S" {
		t.Fatalf("second player seated at %q in the rematch, want S", got)
	}

	// Asking again gives the same seat back, and adds none.
	seats := func() int {
		g, err := e.store.Game(context.Background(), r1.ID)
		if err != nil {
			t.Fatal(err)
		}
		return len(g.Seats)
	}
	before := seats()
	for range 3 {
		var again app.Created
		e.call("POST", "/api/games/"+c.ID+"/rematch", c.Token, nil, 200, &again)
		if again.ID != r1.ID || again.Seat != r1.Seat || again.Token != r1.Token || again.URL != r1.URL {
			t.Fatalf("rematch asked again: %+v, want the first answer %+v", again, r1)
		}
	}
	if n := seats(); n != before {
		t.Errorf("asking again for the rematch made %d seats, want %d", n, before)
	}
}

// TestRematchLocal: a local game's rematch gives both seats, the same ones
// when asked again.
func TestRematchLocal(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	e.call("POST", "/api/games/"+c.ID+"/resign", c.Token, nil, 200, nil)
	var r1, r2 app.Created
	e.call("POST", "/api/games/"+c.ID+"/rematch", c.Token, nil, 200, &r1)
	e.call("POST", "/api/games/"+c.ID+"/rematch", c.Token, nil, 200, &r2)
	if r1.Seat != "N" || r1.Token != r1.Tokens["N"] || r1.Tokens["S"] == "" || r1.Tokens["S"] == r1.Token {
		t.Fatalf("local rematch %+v", r1)
	}
	if r2.Token != r1.Token || r2.Tokens["S"] != r1.Tokens["S"] || r2.Tokens["N"] != r1.Tokens["N"] {
		t.Fatalf("local rematch asked again: %+v, want %+v", r2, r1)
	}
	if got := e.view(r1.ID, r1.Tokens["S"]).You; got != "S" {
		t.Errorf("the S token of the rematch is seated at %q", got)
	}
	// The other old token gets its own seats, not the first one's.
	var r3 app.Created
	e.call("POST", "/api/games/"+c.ID+"/rematch", c.Tokens["N"], nil, 200, &r3)
	if r3.ID != r1.ID || r3.Seat != "S" || r3.Token == r1.Tokens["S"] {
		t.Errorf("rematch for the other old token: %+v", r3)
	}
}

// TestRematchRateLimited: rematch counts against the per-address limit of
// game creation.
func TestRematchRateLimited(t *testing.T) {
	e := newEnvWith(t, Options{Limits: Limits{Creates: 2}})
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	e.call("POST", "/api/games/"+c.ID+"/resign", c.Token, nil, 200, nil)
	e.call("POST", "/api/games/"+c.ID+"/rematch", c.Token, nil, 200, nil)
	status, data := e.do("POST", "/api/games/"+c.ID+"/rematch", c.Token, nil)
	wantError(t, "rematch over the limit", status, data, 429, app.ERateLimited, "rematches asked", "retry in")
}

// TestJoinName: the joiner's name (cleaned like the creator's) names the
// joined side, for the seats, spectators (the update) and the record; a
// team mate joining a side already named keeps the first name.
func TestJoinName(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Side: "S", Name: "Ada"})
	spec, err := e.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	spec.hello("", 0)
	code := c.Invite[strings.LastIndex(c.Invite, "/")+1:]
	var j app.Joined
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": code, "name": "  Bo \t Diddley  "}, 200, &j)
	m := spec.recv()
	if m.Type != "update" || m.Game == nil || m.Game.Players["N"].Name != "Bo Diddley" || !m.Game.Seated["N"] || m.Game.You != "" {
		t.Fatalf("spectator's update after the join: %+v", m)
	}
	// The update leaves the record out (it grows with the game); the
	// game's view and its record name the joiner.
	if m.Game.Record != "" || m.Base == nil {
		t.Errorf("the update is not a change of the spectator's view: base %v, record %q", m.Base, m.Game.Record)
	}
	if v := e.view(c.ID, ""); !strings.Contains(v.Record, `[North "Bo Diddley"]`) {
		t.Errorf("record after the join:\n%s", v.Record)
	}
	for _, tok := range []string{c.Token, j.Token, ""} {
		if v := e.view(c.ID, tok); v.Players["N"].Name != "Bo Diddley" || v.Players["S"].Name != "Ada" {
			t.Errorf("view for %q: players %+v", tok, v.Players)
		}
	}
	// The invite seated its player: it seats no one else.
	status, data := e.do("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": code, "name": "Cy"})
	wantError(t, "a second join by the opponent's invite", status, data, 409, app.EConflict, "seated its player already", "new link")
	if v := e.view(c.ID, ""); v.Players["N"].Name != "Bo Diddley" || len(v.Seated) != 2 {
		t.Errorf("a refused join renamed the side: %+v", v.Players)
	}
	// The creator's team mate does not rename the creator's side either.
	team := c.TeamInvite[strings.LastIndex(c.TeamInvite, "/")+1:]
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": team, "name": "Dee"}, 200, nil)
	if v := e.view(c.ID, ""); v.Players["S"].Name != "Ada" {
		t.Errorf("the creator's team mate renamed the creator: %+v", v.Players)
	}

	// A long name is cut to 40 characters; no name keeps the default.
	c2 := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Side: "N"})
	code2 := c2.Invite[strings.LastIndex(c2.Invite, "/")+1:]
	e.call("POST", "/api/games/"+c2.ID+"/join", "", map[string]string{"invite": code2, "name": "   "}, 200, nil)
	if v := e.view(c2.ID, ""); v.Players["S"].Name != "South" {
		t.Errorf("a blank name: %+v", v.Players)
	}
	var again app.Invited
	e.call("POST", "/api/games/"+c2.ID+"/invite", c2.Token, nil, 200, &again)
	code2 = again.Invite[strings.LastIndex(again.Invite, "/")+1:]
	e.call("POST", "/api/games/"+c2.ID+"/join", "", map[string]string{"invite": code2, "name": strings.Repeat("é", 50)}, 200, nil)
	if v := e.view(c2.ID, ""); v.Players["S"].Name != strings.Repeat("é", 40) {
		t.Errorf("a long name: %+v", v.Players)
	}
}

func TestJoinTeams(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Side: "N"})
	if !strings.HasPrefix(c.Invite, "/join/"+c.ID+"/") || c.TeamInvite == "" || c.Invite == c.TeamInvite {
		t.Fatalf("invites %+v", c)
	}
	if v := e.view(c.ID, ""); v.Seated["S"] || !v.Seated["N"] {
		t.Fatalf("before joining: seated %v", v.Seated)
	}
	code := c.Invite[strings.LastIndex(c.Invite, "/")+1:]
	var a, b, mate, mate2 app.Joined
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": code}, 200, &a)
	// The creator's team link seats any number of team mates.
	team := c.TeamInvite[strings.LastIndex(c.TeamInvite, "/")+1:]
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": team}, 200, &mate)
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": team}, 200, &mate2)
	// The opponent's invite seats one; the inviting side (a team mate
	// too) may make a new one, and the old one stops working.
	status, data := e.do("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": code})
	wantError(t, "a second join by the opponent's invite", status, data, 409, app.EConflict, "seated its player already")
	status, data = e.do("POST", "/api/games/"+c.ID+"/invite", a.Token, nil)
	wantError(t, "an invite asked by the invited side", status, data, 403, app.EForbidden, "no invite for your opponent")
	status, data = e.do("POST", "/api/games/"+c.ID+"/invite", "", nil)
	wantError(t, "an invite asked without a seat", status, data, 403, app.EForbidden, "seat token")
	var again app.Invited
	e.call("POST", "/api/games/"+c.ID+"/invite", mate.Token, nil, 200, &again)
	if !strings.HasPrefix(again.Invite, "/join/"+c.ID+"/") || again.Invite == c.Invite {
		t.Fatalf("new invite %+v", again)
	}
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": again.Invite[strings.LastIndex(again.Invite, "/")+1:]}, 200, &b)
	status, data = e.do("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": code})
	wantError(t, "the replaced invite", status, data, 403, app.EForbidden, "not valid")
	if a.Seat != "S" || b.Seat != "S" || a.Token == b.Token || mate.Seat != "N" || mate2.Seat != "N" {
		t.Fatalf("joined %+v %+v %+v %+v", a, b, mate, mate2)
	}
	if v := e.view(c.ID, b.Token); v.You != "S" || !v.Seated["S"] {
		t.Fatalf("after joining: you %q seated %v", v.You, v.Seated)
	}
	status, data = e.do("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": "wrong"})
	wantError(t, "wrong invite", status, data, 403, app.EForbidden, "invite")
	// Both South players may act for South.
	e.call("POST", "/api/games/"+c.ID+"/actions", b.Token, map[string]any{"action": "a1", "ply": 0}, 200, nil)

	// Once the game is over, no link seats anyone, and no new one is made;
	// its rematch seats only the old game's seats.
	e.call("POST", "/api/games/"+c.ID+"/resign", a.Token, nil, 200, nil)
	status, data = e.do("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": team})
	wantError(t, "a join of a game over", status, data, 409, app.EConflict, "over")
	status, data = e.do("POST", "/api/games/"+c.ID+"/invite", c.Token, nil)
	wantError(t, "an invite to a game over", status, data, 409, app.EConflict, "over", "rematch")
	var r app.Created
	e.call("POST", "/api/games/"+c.ID+"/rematch", c.Token, nil, 200, &r)
	if v := e.view(r.ID, ""); !v.Seated["S"] || v.Seated["N"] {
		t.Errorf("the rematch, asked by the North creator alone, seats %v; want South (the creator's new side) only", v.Seated)
	}
	for _, inv := range []string{code, team} {
		status, data = e.do("POST", "/api/games/"+r.ID+"/join", "", map[string]string{"invite": inv})
		wantError(t, "an old invite in the rematch", status, data, 403, app.EForbidden, "not valid")
	}
	e.call("POST", "/api/games/"+r.ID+"/invite", r.Token, nil, 403, nil)
}

func TestArchiveList(t *testing.T) {
	e := newEnv(t)
	c1 := e.create(app.CreateRequest{Ruleset: "tsoro size=8", Opponent: "local"})
	time.Sleep(2 * time.Millisecond)
	c2 := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	e.call("POST", "/api/games/"+c1.ID+"/resign", c1.Tokens["S"], nil, 200, nil)
	var out struct{ Games []app.Summary }
	e.call("GET", "/api/games", "", nil, 200, &out)
	if len(out.Games) != 2 || out.Games[0].ID != c1.ID || out.Games[1].ID != c2.ID || out.Games[0].Title != "Tsoro" || out.Games[0].Result != "N" {
		t.Fatalf("archive %+v", out.Games)
	}
	e.call("GET", "/api/games?status=playing&limit=5", "", nil, 200, &out)
	if len(out.Games) != 1 || out.Games[0].ID != c2.ID {
		t.Fatalf("playing %+v", out.Games)
	}
	e.call("GET", "/api/games?before="+url.QueryEscape(c2Updated(t, e, c2.ID)), "", nil, 200, &out)
	if len(out.Games) != 0 {
		t.Fatalf("before the oldest: %+v", out.Games)
	}
	for _, q := range []string{"status=won", "limit=0", "limit=x", "limit=101", "before=yesterday", "before_id=abc"} {
		status, data := e.do("GET", "/api/games?"+q, "", nil)
		wantError(t, q, status, data, 400, app.EInvalid)
	}
}

// TestArchivePagingEqualTimes pages through games updated at the same
// instant with before and before_id: each game comes once.
func TestArchivePagingEqualTimes(t *testing.T) {
	e := newEnv(t)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	want := []string{"g6", "g5", "g4", "g3", "g2", "g1", "g0"}
	for i := range 7 {
		g := &app.Game{ID: fmt.Sprintf("g%d", i), Ruleset: "nsolo", Mode: app.ModeLocal, Result: "*", Created: at, Updated: at}
		if err := e.store.CreateGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	q := "limit=3"
	for page := 0; page < 5; page++ {
		var out struct{ Games []app.Summary }
		e.call("GET", "/api/games?"+q, "", nil, 200, &out)
		for _, g := range out.Games {
			got = append(got, g.ID)
		}
		if len(out.Games) < 3 {
			break
		}
		last := out.Games[len(out.Games)-1]
		q = "limit=3&before=" + url.QueryEscape(last.Updated.Format(time.RFC3339Nano)) + "&before_id=" + url.QueryEscape(last.ID)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pages gave %v, want %v", got, want)
	}
}

func c2Updated(t *testing.T, e *testEnv, id string) string {
	return e.view(id, "").Updated.Format(time.RFC3339Nano)
}

func TestPositionViewer(t *testing.T) {
	e := newEnv(t)
	pos := "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* N"
	var v app.GameView
	e.call("GET", "/api/position?ruleset="+url.QueryEscape("tsoro size=6")+"&pos="+url.QueryEscape(pos), "", nil, 200, &v)
	if v.Position != pos || v.ToMove != "N" || len(v.Legal) != 6 || v.Legal[0] != "d1" || v.Board.Rows["d"][0] != 2 || len(v.Board.Heads) != 4 {
		t.Fatalf("position view %+v", v)
	}
	e.call("GET", "/api/position?ruleset=choro", "", nil, 200, &v)
	if v.Decision != "opening" || v.Stones["S"] != 32 || v.Position != "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S opening" {
		t.Fatalf("choro start %+v", v)
	}
	status, data := e.do("GET", "/api/position?ruleset=tsoro&pos=1,2,3", "", nil)
	wantError(t, "bad position", status, data, 400, app.EInvalid)
	status, data = e.do("GET", "/api/position?ruleset=go", "", nil)
	wantError(t, "bad ruleset", status, data, 400, app.EInvalid, "go")
}

// TestImportKeepsHeaders: a record's headers come back in its export, in
// their order, with its own Date and Site; the names are the players'.
func TestImportKeepsHeaders(t *testing.T) {
	e := newEnv(t)
	text := `[Event "Harare club, round 3"]
[Site "Harare"]
[Date "1964.05.02"]
[Ruleset "tsoro size=6 heads=none"]
[South "Ama"]
[North "Kofi"]
[Annotator "Matthews"]
[Result "*"]

1. a1 d6 *
`
	var imp struct{ ID string }
	e.call("POST", "/api/records", "", text, http.StatusCreated, &imp)
	_, out := e.do("GET", "/api/games/"+imp.ID+"/record", "", nil)
	rec, err := mancala.ParseRecord(string(out))
	if err != nil {
		t.Fatalf("export of an imported record: %v\n%s", err, out)
	}
	var got []string
	for _, tag := range rec.Tags {
		got = append(got, tag.Key+"="+tag.Value)
	}
	want := []string{"Event=Harare club, round 3", "Site=Harare", "Date=1964.05.02", "South=Ama", "North=Kofi", "Annotator=Matthews"}
	if !slices.Equal(got, want) {
		t.Errorf("exported headers %q, want %q\n%s", got, want, out)
	}
	if len(rec.Turns) != 2 {
		t.Errorf("exported turns %v", rec.Turns)
	}
}

// TestImportFromPosition: a record starting from a Position header is
// stored with its start, replays from it and exports it again.
func TestImportFromPosition(t *testing.T) {
	e := newEnv(t)
	start := "2*,2*,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/2,2,0,0,2*,2* N"
	text := "[Ruleset \"tsoro size=6\"]\n[Position \"" + start + "\"]\n[Result \"*\"]\n\n1... d1 *\n"
	var imp struct{ ID string }
	e.call("POST", "/api/records", "", text, http.StatusCreated, &imp)
	var rp app.ReplayView
	e.call("GET", "/api/games/"+imp.ID+"/replay", "", nil, 200, &rp)
	if rp.Start != start || len(rp.Actions) != 1 || rp.Actions[0].By != "N" {
		t.Fatalf("replay from a position: %+v", rp)
	}
	_, out := e.do("GET", "/api/games/"+imp.ID+"/record", "", nil)
	rec, err := mancala.ParseRecord(string(out))
	if err != nil || rec.Position != start || len(rec.Turns) != 1 {
		t.Fatalf("export of a game from a position: %v\n%s", err, out)
	}
}

// TestCreateFromPosition: a game may start from a position at the start of
// a turn; the AI moves first there when the position says so, the record
// carries the Position header, and a rematch starts from it again.
func TestCreateFromPosition(t *testing.T) {
	e := newEnv(t)
	const rs = "tsoro size=6 heads=none"
	const pos = "0,0,0,0,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,0,0,0,3 N"
	c := e.create(app.CreateRequest{Ruleset: rs, Opponent: app.ModeAI, Level: 1, Side: "S", Position: pos})
	v := e.waitFor(c.ID, c.Token, func(v app.GameView) bool { return v.Ply > 0 && !v.Thinking })
	if v.ToMove != "S" || len(v.Turns) != 1 {
		t.Fatalf("from %s with North to move, the AI's first turn gives ply %d, %s to move, turns %v", pos, v.Ply, v.ToMove, v.Turns)
	}
	_, out := e.do("GET", "/api/games/"+c.ID+"/record", "", nil)
	rec, err := mancala.ParseRecord(string(out))
	if err != nil || rec.Position != pos {
		t.Fatalf("the record of a game from a position: %v\n%s", err, out)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("the record does not replay: %v\n%s", err, out)
	}
	var re app.Created
	e.call("POST", "/api/games/"+c.ID+"/resign", c.Token, map[string]any{"ply": v.Ply}, http.StatusOK, nil)
	e.call("POST", "/api/games/"+c.ID+"/rematch", c.Token, nil, http.StatusOK, &re)
	var rp app.ReplayView
	e.call("GET", "/api/games/"+re.ID+"/replay", "", nil, 200, &rp)
	if rp.Start != pos {
		t.Errorf("the rematch starts from %s, want %s", rp.Start, pos)
	}

	// The ruleset's own start, written out, is no special start.
	start, _ := mancala.StartPosition(mancala.MustParseRuleset(rs))
	plain := e.create(app.CreateRequest{Ruleset: rs, Opponent: app.ModeLocal, Position: start})
	if _, out := e.do("GET", "/api/games/"+plain.ID+"/record", "", nil); strings.Contains(string(out), "[Position") {
		t.Errorf("a game from the ruleset's start has a Position header:\n%s", out)
	}

	for _, tc := range []struct {
		pos   string
		words []string
	}{
		{"0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/2,2,0,0,0,3 N", []string{"over", "start from a position where the side to move can act"}},
		{"2,2,2/0,0,0/0,0,0/2,2,2 S", []string{"bad position", "columns"}},
		{"2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 X", []string{"side to move", "S or N"}},
	} {
		status, data := e.do("POST", "/api/games", "", app.CreateRequest{Ruleset: rs, Opponent: app.ModeLocal, Position: tc.pos})
		wantError(t, tc.pos, status, data, http.StatusBadRequest, app.EInvalid, tc.words...)
	}
}

// TestHint: the seat whose decision it is gets a legal action suggested, in
// games against the computer and on one device; not the other seat, not a
// spectator, not a friend game's players, not after the end.
func TestHint(t *testing.T) {
	e := newEnv(t)
	local := e.create(app.CreateRequest{Ruleset: "tsoro size=6", Opponent: app.ModeLocal})
	for ply := range 6 {
		v := e.view(local.ID, "")
		var h app.Hint
		e.call("GET", "/api/games/"+local.ID+"/hint", local.Tokens[v.ToMove], nil, http.StatusOK, &h)
		if h.Ply != v.Ply || h.Level != app.HintLevel || !slices.Contains(v.Legal, h.Action) {
			t.Fatalf("ply %d: hint %+v; legal %v", ply, h, v.Legal)
		}
		other := map[string]string{"S": "N", "N": "S"}[v.ToMove]
		status, data := e.do("GET", "/api/games/"+local.ID+"/hint", local.Tokens[other], nil)
		wantError(t, "hint for the side not to move", status, data, http.StatusForbidden, app.EForbidden, "decision")
		e.call("POST", "/api/games/"+local.ID+"/actions", local.Tokens[v.ToMove], map[string]any{"action": h.Action, "ply": v.Ply}, 200, nil)
	}
	status, data := e.do("GET", "/api/games/"+local.ID+"/hint", "", nil)
	wantError(t, "hint for a spectator", status, data, http.StatusForbidden, app.EForbidden, "seat token")

	ai := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: app.ModeAI, Level: 1, Side: "S"})
	var h app.Hint
	e.call("GET", "/api/games/"+ai.ID+"/hint", ai.Token, nil, http.StatusOK, &h)
	if v := e.view(ai.ID, ""); !slices.Contains(v.Legal, h.Action) {
		t.Errorf("hint %+v in an AI game; legal %v", h, v.Legal)
	}

	friend := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: app.ModeFriend, Side: "S"})
	status, data = e.do("GET", "/api/games/"+friend.ID+"/hint", friend.Token, nil)
	wantError(t, "hint between friends", status, data, http.StatusForbidden, app.EForbidden, "not in friend games")

	e.call("POST", "/api/games/"+ai.ID+"/resign", ai.Token, nil, http.StatusOK, nil)
	status, data = e.do("GET", "/api/games/"+ai.ID+"/hint", ai.Token, nil)
	wantError(t, "hint after the end", status, data, http.StatusConflict, app.EConflict, "over")
}
