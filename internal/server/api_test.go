package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"matombo/internal/app"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

func TestHealthzAndHeaders(t *testing.T) {
	e := newEnv(t)
	resp, err := e.http.Client().Get(e.http.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("healthz status %d", resp.StatusCode)
	}
	h := resp.Header
	csp := h.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q", csp)
	}
	for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"} {
		if h.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, h.Get(k), v)
		}
	}
}

// TestHealthzChecksTheDatabase: an instance whose database does not answer
// says so with 503, so that a load balancer stops sending players to it.
func TestHealthzChecksTheDatabase(t *testing.T) {
	e := newEnv(t)
	if status, body := e.do("GET", "/healthz", "", nil); status != 200 || string(body) != "ok\n" {
		t.Fatalf("healthy: %d %q", status, body)
	}
	e.store.Close()
	status, body := e.do("GET", "/healthz", "", nil)
	if status != 503 || !strings.HasPrefix(string(body), "unhealthy: the database does not answer") {
		t.Errorf("database closed: %d %q, want 503 unhealthy", status, body)
	}
}

func TestPagesServeTheFrontEnd(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"/", "/game/abc", "/replay/abc", "/position", "/rules/tsoro", "/rules/nsolo", "/rules/choro", "/archive", "/join/abc/code"} {
		status, body := e.do("GET", p, "", nil)
		if status != 200 || !strings.Contains(strings.ToLower(string(body)), "<!doctype html>") {
			t.Errorf("GET %s: status %d, body starts %.40q", p, status, body)
		}
	}
	if status, _ := e.do("GET", "/no/such/page", "", nil); status != 404 {
		t.Errorf("unknown page: status %d, want 404", status)
	}
	if status, body := e.do("GET", "/api/lab", "", nil); status != 200 || !strings.Contains(string(body), "presets") {
		t.Errorf("GET /api/lab: status %d body %.80s", status, body)
	}
	status, data := e.do("GET", "/api/nothing", "", nil)
	wantError(t, "unknown API route", status, data, 404, app.ENotFound, "no API route")
}

func TestRulesets(t *testing.T) {
	e := newEnv(t)
	var out struct{ Presets []app.Preset }
	e.call("GET", "/api/rulesets", "", nil, 200, &out)
	games := map[string]app.Preset{}
	for _, p := range out.Presets {
		games[p.Game] = p
	}
	ts, ok := games["tsoro"]
	if len(out.Presets) != 5 || !ok || ts.Size != 21 || ts.Title != "Tsoro" || ts.Description == "" {
		t.Fatalf("presets %+v", out.Presets)
	}
	if len(ts.Options) != 3 || !reflect.DeepEqual(ts.Options[0], app.Option{Key: "size", Allowed: "a whole number from 6 to 21", Min: 6, Max: 21, Default: "21"}) {
		t.Errorf("tsoro options %+v", ts.Options)
	}
	if ch := games["choro"]; len(ch.Options) != 4 || !reflect.DeepEqual(ch.Options[1].Values, []string{"simultaneous", "sequential"}) || ch.Options[1].Default != "simultaneous" {
		t.Errorf("choro options %+v", ch.Options)
	}
}

func TestCreateValidates(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name  string
		body  string
		words []string
	}{
		{"bad JSON", `{"ruleset":`, []string{"bad JSON"}},
		{"not an object", `[1,2]`, []string{"bad JSON"}},
		{"unknown field", `{"ruleset":"tsoro","opponent":"ai","colour":"red"}`, []string{"colour"}},
		{"trailing data", `{"ruleset":"tsoro","opponent":"ai"} {}`, []string{"after"}},
		{"unknown ruleset", `{"ruleset":"chess","opponent":"ai"}`, []string{"chess"}},
		{"bad option", `{"ruleset":"tsoro size=99","opponent":"ai"}`, []string{"size"}},
		{"bad opponent", `{"ruleset":"tsoro","opponent":"robot"}`, []string{"robot", "ai, friend or local"}},
		{"bad level", `{"ruleset":"tsoro","opponent":"ai","level":9}`, []string{"level 9", "1 to 8"}},
		{"bad side", `{"ruleset":"tsoro","opponent":"ai","side":"E"}`, []string{"side", "random"}},
	}
	for _, tc := range cases {
		status, data := e.do("POST", "/api/games", "", tc.body)
		wantError(t, tc.name, status, data, 400, app.EInvalid, tc.words...)
	}
	status, data := e.do("POST", "/api/games", "", `{"ruleset":"`+strings.Repeat("x", maxJSONBody)+`"}`)
	wantError(t, "too large", status, data, 413, app.ETooLarge, "larger than")
}

func TestUnknownGame(t *testing.T) {
	e := newEnv(t)
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/api/games/nosuchgame", ""},
		{"GET", "/api/games/nosuchgame/record", ""},
		{"GET", "/api/games/nosuchgame/replay", ""},
		{"POST", "/api/games/nosuchgame/actions", `{"action":"a1","ply":0}`},
		{"POST", "/api/games/nosuchgame/resign", ""},
		{"POST", "/api/games/nosuchgame/rematch", ""},
		{"POST", "/api/games/nosuchgame/join", `{"invite":"x"}`},
	} {
		status, data := e.do(r.method, r.path, "sometoken", r.body)
		wantError(t, r.method+" "+r.path, status, data, 404, app.ENotFound, "nosuchgame")
	}
}

// TestPlayAgainstAI creates a game where the AI moves first, waits for its
// turn, plays, and checks the AI answers and everything is stored.
func TestPlayAgainstAI(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "tsoro size=8", Opponent: "ai", Level: 2, Side: "N"})
	if c.Seat != "N" || len(c.Token) < 26 || c.URL != "/game/"+c.ID+"#seat="+c.Token || c.Invite != "" || c.Tokens != nil {
		t.Fatalf("created %+v", c)
	}
	v := e.waitFor(c.ID, c.Token, func(v app.GameView) bool { return v.ToMove == "N" && !v.Thinking })
	if v.You != "N" || v.Ply == 0 || len(v.Turns) != 1 || v.Players["S"].Kind != "ai" || v.Players["S"].Level != 2 || v.Players["N"].Kind != "human" {
		t.Fatalf("after the AI's first turn: %+v", v)
	}
	m := newMirror(t, v.Ruleset)
	for _, turn := range v.Turns {
		for _, a := range turn {
			m.apply(t, a)
		}
	}
	if v.Position != m.s.Position() {
		t.Fatalf("position %s, mirror %s", v.Position, m.s.Position())
	}
	a := v.Legal[0]
	var res app.ActResult
	e.call("POST", "/api/games/"+c.ID+"/actions", c.Token, map[string]any{"action": a, "ply": v.Ply}, 200, &res)
	if res.Game.Ply != v.Ply+1 || len(res.Events) == 0 || res.Events[0].Kind != "sow" || res.Events[0].From != a || res.Events[0].By != "N" || res.Events[0].Action != a {
		t.Fatalf("action answer: ply %d events %+v", res.Game.Ply, res.Events)
	}
	m.apply(t, a)
	if res.Game.Position != m.s.Position() || res.Game.You != "N" {
		t.Fatalf("after %s: position %s you %q, mirror %s", a, res.Game.Position, res.Game.You, m.s.Position())
	}
	// The AI answers when the turn is over.
	e.waitFor(c.ID, c.Token, func(v app.GameView) bool {
		return v.Status == "over" || (v.ToMove == "N" && !v.Thinking && len(v.Turns) >= 3)
	})
	g, err := e.store.Game(t.Context(), c.ID)
	if err != nil || len(g.Actions) < 3 || g.Actions[v.Ply].Action != a {
		t.Fatalf("stored game %+v, %v", g, err)
	}
}

func TestActionErrors(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Side: "S"})
	path := "/api/games/" + c.ID + "/actions"
	cases := []struct {
		name   string
		token  string
		body   string
		status int
		code   app.Code
		words  []string
	}{
		{"no token", "", `{"action":"a1","ply":0}`, 403, app.EForbidden, []string{"seat token"}},
		{"wrong token", "not-a-token", `{"action":"a1","ply":0}`, 403, app.EForbidden, []string{"seat token"}},
		{"bad JSON", c.Token, `{"action":a1}`, 400, app.EInvalid, []string{"bad JSON"}},
		{"no ply", c.Token, `{"action":"a1"}`, 400, app.EInvalid, []string{"ply"}},
		{"stale ply", c.Token, `{"action":"a1","ply":3}`, 409, app.EConflict, []string{"stale ply 3", "ply 0"}},
		{"not an action", c.Token, `{"action":"z9","ply":0}`, 400, app.EInvalid, []string{"z9"}},
		{"illegal action", c.Token, `{"action":"c1","ply":0}`, 400, app.EInvalid, []string{"c1"}},
		{"off the board", c.Token, `{"action":"a30","ply":0}`, 400, app.EInvalid, []string{"columns 1 to 8"}},
		{"too large", c.Token, `{"action":"` + strings.Repeat("a", 20000) + `","ply":0}`, 413, app.ETooLarge, nil},
	}
	for _, tc := range cases {
		status, data := e.do("POST", path, tc.token, tc.body)
		wantError(t, tc.name, status, data, tc.status, tc.code, tc.words...)
	}
	if v := e.view(c.ID, ""); v.Ply != 0 {
		t.Fatalf("refused actions changed the game: ply %d", v.Ply)
	}
	// North's invite gives a seat that cannot act on South's decision.
	var j app.Joined
	e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": c.Invite[strings.LastIndex(c.Invite, "/")+1:]}, 200, &j)
	status, data := e.do("POST", path, j.Token, `{"action":"d1","ply":0}`)
	wantError(t, "acting for the other side", status, data, 403, app.EForbidden, "South's decision", "North")
}

// TestConcurrentActions sends the same ply twice at once: one wins, the other
// is told the game moved on.
func TestConcurrentActions(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	var wg sync.WaitGroup
	statuses := make([]int, 6)
	for i := range statuses {
		wg.Go(func() {
			statuses[i], _ = e.do("POST", "/api/games/"+c.ID+"/actions", c.Tokens["S"], fmt.Sprintf(`{"action":"a%d","ply":0}`, i+1))
		})
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		switch s {
		case 200:
			ok++
		case 409:
		default:
			t.Errorf("status %d, want 200 or 409", s)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of the concurrent actions at ply 0 succeeded (%v), want 1", ok, statuses)
	}
	if v := e.view(c.ID, ""); v.Ply != 1 {
		t.Fatalf("ply %d after the race, want 1", v.Ply)
	}
}

// playLocal plays a local game to its end through the API with greedy
// choices, checking each answer against a mirror, and returns the last view.
func playLocal(t *testing.T, e *testEnv, ruleset string) (app.Created, app.GameView) {
	t.Helper()
	c := e.create(app.CreateRequest{Ruleset: ruleset, Opponent: "local", Side: "random"})
	if len(c.Tokens) != 2 || c.Tokens[c.Seat] != c.Token {
		t.Fatalf("local game tokens %+v", c)
	}
	v := e.view(c.ID, "")
	m := newMirror(t, v.Ruleset)
	for v.Status == "playing" {
		a := m.next(t)
		var res app.ActResult
		e.call("POST", "/api/games/"+c.ID+"/actions", c.Tokens[v.ToMove], map[string]any{"action": a, "ply": v.Ply}, 200, &res)
		m.apply(t, a)
		v = *res.Game
		if v.Position != m.s.Position() {
			t.Fatalf("ply %d: position %s, mirror %s", v.Ply, v.Position, m.s.Position())
		}
		if v.Ply > 1000 {
			t.Fatal("game too long")
		}
	}
	o := m.s.Outcome()
	if v.Result != o.Result.String() || v.Reason != o.Reason.String() || v.Decision != "over" || len(v.Legal) != 0 {
		t.Fatalf("end: result %s (%s) decision %s legal %v; mirror %s (%s)", v.Result, v.Reason, v.Decision, v.Legal, o.Result, o.Reason)
	}
	return c, v
}

// refusingStore is a store whose writes can be made to fail while its reads
// still answer, as a full disk or a read-only replica would.
type refusingStore struct {
	app.Store
	refuse atomic.Bool
}

func (s *refusingStore) CheckWrite(ctx context.Context) error {
	if s.refuse.Load() {
		return errors.New("database or disk is full")
	}
	return s.Store.CheckWrite(ctx)
}

// TestHealthzChecksWrites: an instance whose database answers reads but
// takes no writes is unhealthy too, with the reason.
func TestHealthzChecksWrites(t *testing.T) {
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rs := &refusingStore{Store: store}
	svc := app.NewService(app.Config{Store: rs, AI: search.NewGreedyLevels(1)})
	defer svc.Close()
	hs := httptest.NewServer(New(svc, Options{}))
	defer hs.Close()
	get := func() (int, string) {
		resp, err := hs.Client().Get(hs.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	if status, body := get(); status != 200 || body != "ok\n" {
		t.Fatalf("healthy: %d %q", status, body)
	}
	rs.refuse.Store(true)
	if status, body := get(); status != 503 || body != "unhealthy: the database does not take writes: database or disk is full\n" {
		t.Errorf("writes refused: %d %q, want 503 with the reason", status, body)
	}
	rs.refuse.Store(false)
	if status, _ := get(); status != 200 {
		t.Errorf("writes back: %d", status)
	}
}

// TestBadJSONMessages: a 400 for a malformed body names the field and the
// kind of value expected, never a Go type, on the API, the lab and the
// WebSocket.
func TestBadJSONMessages(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	for _, tc := range []struct{ path, body, want string }{
		{"/api/games/" + c.ID + "/actions", `{"action":"a1","ply":"0"}`, `bad JSON body: field "ply" must be a whole number in range, not a string`},
		{"/api/games/" + c.ID + "/actions", `{"action":1,"ply":0}`, `bad JSON body: field "action" must be a string, not a number`},
		{"/api/games/" + c.ID + "/actions", `{"move":"a1"}`, `bad JSON body: unknown field "move"; the fields are action, ply`},
		{"/api/games/" + c.ID + "/actions", `[1]`, `bad JSON body: the body must be a JSON object, not a list`},
		{"/api/games", `{"ruleset":"nsolo","level":"3"}`, `bad JSON body: field "level" must be a whole number in range, not a string`},
		{"/api/games/" + c.ID + "/join", `{"invite":["x"]}`, `bad JSON body: field "invite" must be a string, not a list`},
		{"/api/lab", `{"rulesets":"nsolo","games":1}`, `field "rulesets" must be a list of strings, not a string`},
		{"/api/lab", `{"rulesets":["nsolo"],"games":"1"}`, `field "games" must be a whole number in range, not a string`},
	} {
		status, data := e.do("POST", tc.path, c.Token, tc.body)
		wantError(t, tc.path+" "+tc.body, status, data, 400, app.EInvalid, tc.want)
		for _, goWord := range []string{"Go ", "struct", "int ", "float64", "json:", "app.", "lab."} {
			if strings.Contains(string(data), goWord) {
				t.Errorf("%s %s: %s names a Go type (%q)", tc.path, tc.body, data, goWord)
			}
		}
	}
	cl, err := e.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl.sendRaw(`{"type":"hello","ply":"0"}`)
	if r := cl.recv(); r.Type != "error" || r.Error != `bad JSON body: field "ply" must be a whole number in range, not a string` {
		t.Errorf("WebSocket: %+v", r)
	}
}
