package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/store/sqlite"
	"matombo/mancala"
	"matombo/search"
)

// gateMover is the AI of the secrecy tests: it plays a scripted choice for
// South's opening (else the first legal action), and at the AI's level it
// waits until the test opens the gate, so that the test reads the game while
// the computer is to move, at a moment of its choosing. (It ignores ctx on
// purpose: the AI then plays late, which the service allows.)
type gateMover struct {
	south string        // South's opening choice
	gate  chan struct{} // closed: decide
	once  sync.Once
}

func (m *gateMover) open() { m.once.Do(func() { close(m.gate) }) }

// levels returns the AI's levels, each playing through the gate.
func (m *gateMover) levels() search.Levels {
	var l search.Levels
	for k := app.MinLevel; k <= app.MaxLevel; k++ {
		l[k] = levelGate{m, k}
	}
	return l
}

// levelGate is one level of a gateMover.
type levelGate struct {
	m     *gateMover
	level int
}

func (g levelGate) Choose(_ context.Context, st *mancala.State, _ search.Limits) (mancala.Action, error) {
	return g.m.choose(st, g.level)
}

func (m *gateMover) choose(st *mancala.State, level int) (mancala.Action, error) {
	if level != app.HintLevel {
		select {
		case <-m.gate:
		case <-time.After(20 * time.Second):
		}
	}
	if a, err := mancala.ParseAction(m.south); err == nil && st.InSimultaneousOpening() && st.ToMove() == mancala.South && st.Clone().Apply(a) == nil {
		return a, nil
	}
	return st.Legal(nil)[0], nil
}

// newGatedEnv is newEnv with a gateMover as the AI.
func newGatedEnv(t *testing.T, m *gateMover) *testEnv {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := app.NewService(app.Config{Store: store, AI: m.levels(), Workers: 2})
	srv := New(svc, Options{})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		m.open()
		srv.Shutdown()
		hs.Close()
		svc.Close()
		store.Close()
	})
	return &testEnv{t: t, srv: srv, http: hs, store: store}
}

// recvRaw returns the next message of c as sent.
func (c *wsClient) recvRaw() []byte {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, data, err := c.conn.Read(ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return data
}

// secretMode is a way to play Choro's simultaneous opening.
type secretMode struct {
	name     string
	opponent string
	side     string // the creator's side
}

var secretModes = []secretMode{
	{"friend", "friend", "S"},
	{"local", "local", "S"},
	{"computer plays North", "ai", "S"},
	{"computer plays South", "ai", "N"},
}

// transcript is what a scenario's players and spectators received, each
// part labelled, with ids, secrets and times written as placeholders.
type transcript struct {
	parts   []string
	secrets []string
}

// choroFacts returns the JSON of Choro's rule facts as the views carry them:
// the special holes and the sides.
func choroFacts() []string {
	st, err := mancala.NewGame(mancala.MustParseRuleset("choro"))
	if err != nil {
		panic(err)
	}
	f := app.RuleFactsOf(st)
	special, _ := json.Marshal(f.SpecialHoles)
	sides, _ := json.Marshal(f.Sides)
	return []string{`"special_holes":` + string(special), `"sides":` + string(sides)}
}

var timeRE = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)

func (tr *transcript) add(label string, data []byte) {
	s := string(data)
	// The rule facts of Choro name every hole (its loops, its special
	// holes) in every view, the same whatever anyone chose: exactly those
	// are written as placeholders, so that a hole named anywhere else shows.
	for _, f := range choroFacts() {
		s = strings.ReplaceAll(s, f, "<rule facts>")
	}
	for i, x := range tr.secrets {
		if x != "" {
			s = strings.ReplaceAll(s, x, fmt.Sprintf("<secret%d>", i))
		}
	}
	tr.parts = append(tr.parts, label+": "+timeRE.ReplaceAllString(s, "<time>"))
}

// maskChoice checks that data, a game view or a message holding one, gives
// South's own choice as opening_choice when want is not "" and none
// otherwise, and returns data with the choice masked.
func maskChoice(t *testing.T, label string, data []byte, want string) []byte {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %s: %v", label, data, err)
	}
	view := data
	if g := raw["game"]; len(g) > 0 && g[0] == '{' { // an action's answer or a message
		view = g
	}
	var v app.GameView
	if err := json.Unmarshal(view, &v); err != nil {
		t.Fatalf("%s: %s: %v", label, data, err)
	}
	got := v.OpeningChoice
	if got != want {
		t.Errorf("%s: opening_choice %q, want %q", label, got, want)
	}
	if want == "" {
		return data
	}
	return []byte(strings.ReplaceAll(string(data), `"opening_choice":"`+want+`"`, `"opening_choice":"<south's own>"`))
}

// secretScenario plays South's opening choice in a game of mode and
// returns everything sent to anyone until North has chosen (South's own
// choice masked where South may see it), then, after North's choice d3,
// the record (North chose d3, or the computer for it).
func secretScenario(t *testing.T, mode secretMode, choice string) (before transcript, after string) {
	m := &gateMover{south: choice, gate: make(chan struct{})}
	e := newGatedEnv(t, m)
	c := e.create(app.CreateRequest{Ruleset: "choro", Opponent: mode.opponent, Side: mode.side, Level: app.MaxLevel})
	var sTok, nTok string
	switch {
	case mode.opponent == "local":
		sTok, nTok = c.Tokens["S"], c.Tokens["N"]
	case mode.opponent == "friend":
		sTok = c.Token
		var j app.Joined
		e.call("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": c.Invite[strings.LastIndex(c.Invite, "/")+1:]}, 200, &j)
		nTok = j.Token
	case mode.side == "S":
		sTok = c.Token
	default:
		nTok = c.Token
	}
	before.secrets = []string{c.ID, sTok, nTok, c.Invite, c.TeamInvite}
	if c.Invite != "" {
		before.secrets = append(before.secrets, c.Invite[strings.LastIndex(c.Invite, "/")+1:], c.TeamInvite[strings.LastIndex(c.TeamInvite, "/")+1:])
	}
	// South sees its own choice, but not on one device.
	ownChoice := choice
	if mode.opponent == "local" {
		ownChoice = ""
	}

	dial := func(token string) *wsClient {
		cl, err := e.dial(c.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		cl.send(map[string]any{"type": "hello", "token": token, "ply": 0})
		cl.recvRaw() // the state before South's choice
		return cl
	}
	spec := dial("")
	var north, south *wsClient
	if nTok != "" {
		north = dial(nTok)
	}
	if sTok != "" {
		south = dial(sTok)
	}

	// South chooses.
	if sTok != "" {
		status, data := e.do("POST", "/api/games/"+c.ID+"/actions", sTok, map[string]any{"action": choice, "ply": 0})
		if status != 200 {
			t.Fatalf("South's choice: %d %s", status, data)
		}
		before.add("South's action answer", maskChoice(t, "South's action answer", data, ownChoice))
	} else {
		m.open() // the computer chooses for South
	}
	e.waitFor(c.ID, "", func(v app.GameView) bool { return v.Ply == 1 })

	before.add("spectator's update", spec.recvRaw())
	if north != nil {
		before.add("North's update", north.recvRaw())
	}
	if south != nil {
		before.add("South's update", maskChoice(t, "South's update", south.recvRaw(), ownChoice))
	}
	// Reconnecting clients that saw ply 0 catch up.
	before.add("spectator's catch-up", dial2(t, e, c.ID, ""))
	if nTok != "" {
		before.add("North's catch-up", dial2(t, e, c.ID, nTok))
	}
	if sTok != "" {
		before.add("South's catch-up", maskChoice(t, "South's catch-up", dial2(t, e, c.ID, sTok), ownChoice))
	}
	get := func(label, path, token string) []byte {
		_, data := e.do("GET", path, token, nil)
		before.add(label, data)
		return data
	}
	get("spectator's view", "/api/games/"+c.ID, "")
	if nTok != "" {
		get("North's view", "/api/games/"+c.ID, nTok)
		get("North's hint", "/api/games/"+c.ID+"/hint", nTok)
		// North's refused actions.
		for _, body := range []map[string]any{{"action": "a1", "ply": 1}, {"action": "d1", "ply": 0}} {
			_, data := e.do("POST", "/api/games/"+c.ID+"/actions", nTok, body)
			before.add(fmt.Sprintf("North's refused action %v", body), data)
		}
	}
	if sTok != "" {
		_, data := e.do("GET", "/api/games/"+c.ID, sTok, nil)
		before.add("South's view", maskChoice(t, "South's view", data, ownChoice))
		get("South's hint", "/api/games/"+c.ID+"/hint", sTok)
	}
	get("record", "/api/games/"+c.ID+"/record", "")
	get("replay", "/api/games/"+c.ID+"/replay", "")
	get("archive", "/api/games", "")
	get("archive of games in play", "/api/games?status=playing", "")

	// North chooses: everything shows both choices.
	if nTok != "" {
		status, data := e.do("POST", "/api/games/"+c.ID+"/actions", nTok, map[string]any{"action": "d3", "ply": 1})
		if status != 200 {
			t.Fatalf("North's choice: %d %s", status, data)
		}
	} else {
		m.open()
	}
	e.waitFor(c.ID, "", func(v app.GameView) bool { return v.Ply >= 2 })
	_, data := e.do("GET", "/api/games/"+c.ID+"/record", "", nil)
	return before, string(data)
}

// dial2 connects a new client that saw ply 0 and returns its state message.
func dial2(t *testing.T, e *testEnv, id, token string) []byte {
	cl, err := e.dial(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl.send(map[string]any{"type": "hello", "token": token, "ply": 0})
	data := cl.recvRaw()
	cl.conn.CloseNow()
	return data
}

// TestOpeningChoiceSecret plays South's choice of the simultaneous Choro
// opening in every mode, once a6 and once a3, and compares everything that
// players other than South and spectators receive before North has chosen
// (views, updates, catch-up events, hint, refusals, record, replay,
// archive): it must be the same whatever South chose, byte for byte once
// ids, secrets and times are masked, and name neither hole. South's own
// view shows its choice (not on one device). After North's choice, the
// record differs: the check can see a difference.
func TestOpeningChoiceSecret(t *testing.T) {
	for _, mode := range secretModes {
		t.Run(mode.name, func(t *testing.T) {
			a, afterA := secretScenario(t, mode, "a6")
			b, afterB := secretScenario(t, mode, "a3")
			if len(a.parts) != len(b.parts) {
				t.Fatalf("%d parts sent after a6, %d after a3", len(a.parts), len(b.parts))
			}
			for i := range a.parts {
				if a.parts[i] != b.parts[i] {
					t.Errorf("South's choice shows:\n a6: %s\n a3: %s", a.parts[i], b.parts[i])
				}
				for _, form := range []string{`"a6"`, `"a3"`, "a6|", "a3|", ". a6", ". a3", "a6,", "a3,"} {
					if strings.Contains(a.parts[i], form) || strings.Contains(b.parts[i], form) {
						t.Errorf("%q sent: %s", form, a.parts[i])
					}
				}
			}
			if !strings.Contains(afterA, "1. a6|d") || !strings.Contains(afterB, "1. a3|d") {
				t.Errorf("after North's choice the records are\n%s\n%s", afterA, afterB)
			}
			if testing.Verbose() {
				for _, p := range a.parts {
					t.Log(p)
				}
			}
		})
	}
}
