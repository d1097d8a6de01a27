package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/internal/lobby"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// newLobbyEnv is a server with accounts and the lobby on a fresh SQLite
// database; grace is the lobby's (0: the default).
func newLobbyEnv(t *testing.T, grace time.Duration) *accountEnv {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := app.NewService(app.Config{Store: store, AI: search.NewGreedyLevels(7), Workers: 2})
	acc := accounts.New(accounts.Config{Store: store, Games: store, Params: testParams})
	srv := New(svc, Options{Accounts: acc, Lobby: store, LobbyGrace: grace})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Shutdown()
		hs.Close()
		svc.Close()
		store.Close()
	})
	return &accountEnv{testEnv: &testEnv{t: t, srv: srv, http: hs, store: store}, sq: store}
}

// lobbyClient is a test lobby socket; seen keeps every message's text.
type lobbySocket struct {
	t    *testing.T
	conn *websocket.Conn
	seen *strings.Builder
}

// lobbySocket opens the browser's lobby socket and says hello with keys;
// it returns the socket and the list it got.
func (b *browser) lobbySocket(keys ...string) (*lobbySocket, []lobby.View) {
	b.e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(b.e.http.URL, "http") + "/api/lobby/ws"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: b.client})
	if err != nil {
		b.e.t.Fatalf("dial the lobby: %v", err)
	}
	b.e.t.Cleanup(func() { conn.CloseNow() })
	ls := &lobbySocket{t: b.e.t, conn: conn, seen: &strings.Builder{}}
	ls.hello(keys...)
	m := ls.next("lobby")
	return ls, m.Challenges
}

func (ls *lobbySocket) hello(keys ...string) {
	ls.t.Helper()
	data, _ := json.Marshal(map[string]any{"type": "hello", "keys": append([]string{}, keys...)})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ls.conn.Write(ctx, websocket.MessageText, data); err != nil {
		ls.t.Fatal(err)
	}
}

// next reads messages until one of type typ, within 10 s.
func (ls *lobbySocket) next(typ string) lobbyMsg {
	ls.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, data, err := ls.conn.Read(ctx)
		if err != nil {
			ls.t.Fatalf("lobby socket: waiting for %s: %v", typ, err)
		}
		ls.seen.Write(data)
		var m lobbyMsg
		if err := json.Unmarshal(data, &m); err != nil {
			ls.t.Fatalf("bad lobby message %s: %v", data, err)
		}
		if m.Type == typ {
			return m
		}
	}
}

// post posts a challenge and returns it with its key.
func (b *browser) post(req lobby.PostRequest) lobby.Posted {
	b.e.t.Helper()
	var p lobby.Posted
	b.call("POST", "/api/lobby/challenges", "", req, http.StatusCreated, &p)
	if p.Key == "" || !p.Challenge.Mine || p.Challenge.Status != lobby.StatusOpen {
		b.e.t.Fatalf("posted %+v", p)
	}
	return p
}

// TestLobbyAnonymous: an anonymous player posts a casual challenge, a
// second one sees it live and accepts it; the creator hears "matched" and
// plays with its key, the acceptor with its own token, and nothing the
// acceptor got (answers, lobby messages) holds the creator's key.
func TestLobbyAnonymous(t *testing.T) {
	e := newLobbyEnv(t, 0)
	ada, bo := e.browser(), e.browser()
	bs, list := bo.lobbySocket()
	if len(list) != 0 {
		t.Fatalf("an empty lobby lists %+v", list)
	}
	p := ada.post(lobby.PostRequest{Ruleset: "tsoro size=8", TimeControl: "3+2", Side: "S"})
	as, _ := ada.lobbySocket(p.Key)
	m := bs.next("challenge")
	if c := m.Challenge; c.ID != p.Challenge.ID || c.Name != lobby.AnonymousName || c.Mine || c.TimeControl != "3+2" || c.Side != "S" || c.Rated {
		t.Fatalf("bo sees %+v", m.Challenge)
	}
	// Rated needs accounts on both sides.
	status, data := ada.do("POST", "/api/lobby/challenges", "", lobby.PostRequest{Ruleset: "tsoro", Rated: true})
	wantError(t, "an anonymous rated challenge", status, data, http.StatusUnauthorized, app.EUnauthorized, "log in")
	var acc lobby.Accepted
	bo.call("POST", "/api/lobby/challenges/"+p.Challenge.ID+"/accept", "", nil, http.StatusOK, &acc)
	if acc.Seat != "N" || acc.Token == "" || acc.Game == "" {
		t.Fatalf("accepted %+v", acc)
	}
	if got := as.next("matched"); got.Game != acc.Game || got.ID != p.Challenge.ID {
		t.Fatalf("ada heard %+v, want the game %s", got, acc.Game)
	}
	if got := bs.next("gone"); got.ID != p.Challenge.ID || got.Why != lobby.StatusAccepted {
		t.Fatalf("bo heard %+v", got)
	}
	// The creator's key is its seat; the acceptor's token its own.
	if v := e.view(acc.Game, p.Key); v.You != "S" || v.Mode != app.ModeFriend || !v.Seated["S"] || !v.Seated["N"] {
		t.Fatalf("the creator's view: you %q mode %s seated %v", v.You, v.Mode, v.Seated)
	}
	v := e.view(acc.Game, acc.Token)
	if v.You != "N" {
		t.Fatalf("the acceptor's view: you %q", v.You)
	}
	if v.Clock == nil || v.Clock.Control != "3+2" {
		t.Errorf("the game's clock %+v, want the challenge's 3+2", v.Clock)
	}
	e.call("POST", "/api/games/"+acc.Game+"/actions", p.Key, map[string]any{"action": v.Legal[0], "ply": 0}, http.StatusOK, nil)
	// A second acceptance is refused.
	status, data = ada.do("POST", "/api/lobby/challenges/"+p.Challenge.ID+"/accept", "", nil)
	wantError(t, "accept twice", status, data, http.StatusConflict, app.EConflict, "accepted")
	if strings.Contains(bo.seen.String(), p.Key) || strings.Contains(bs.seen.String(), p.Key) {
		t.Error("the acceptor saw the creator's key (its seat token)")
	}
	if strings.Contains(as.seen.String(), acc.Token) {
		t.Error("the creator's lobby socket saw the acceptor's seat token")
	}
}

// TestLobbyCancelAndExpiry: only the creator cancels; a challenge whose
// creator's socket closes goes after the grace, one whose socket stays
// open stays.
func TestLobbyCancelAndExpiry(t *testing.T) {
	grace := 500 * time.Millisecond
	e := newLobbyEnv(t, grace)
	ada, bo := e.browser(), e.browser()
	p1 := ada.post(lobby.PostRequest{Ruleset: "nsolo"})
	p2 := ada.post(lobby.PostRequest{Ruleset: "tsoro"})
	as, _ := ada.lobbySocket(p1.Key, p2.Key)
	bs, list := bo.lobbySocket()
	if len(list) != 2 || list[0].ID != p1.Challenge.ID || list[0].Mine {
		t.Fatalf("bo's list %+v", list)
	}
	status, data := bo.do("POST", "/api/lobby/challenges/"+p1.Challenge.ID+"/cancel", p2.Key, nil)
	wantError(t, "cancel with another challenge's key", status, data, http.StatusForbidden, app.EForbidden, "not yours")
	ada.call("POST", "/api/lobby/challenges/"+p1.Challenge.ID+"/cancel", p1.Key, nil, http.StatusOK, nil)
	if m := bs.next("gone"); m.ID != p1.Challenge.ID || m.Why != lobby.StatusCancelled {
		t.Fatalf("bo heard %+v", m)
	}
	// Several graces with the creator's socket open: p2 stays.
	time.Sleep(4 * grace)
	var got struct{ Challenges []lobby.View }
	bo.call("GET", "/api/lobby", "", nil, http.StatusOK, &got)
	if len(got.Challenges) != 1 || got.Challenges[0].ID != p2.Challenge.ID {
		t.Fatalf("with its creator connected the lobby lists %+v", got.Challenges)
	}
	as.conn.Close(websocket.StatusNormalClosure, "leaving")
	if m := bs.next("gone"); m.ID != p2.Challenge.ID || m.Why != lobby.StatusExpired {
		t.Fatalf("bo heard %+v, want p2 expired", m)
	}
	// Coming back tells the creator its challenge expired.
	as2, _ := ada.lobbySocket(p2.Key)
	if m := as2.next("gone"); m.ID != p2.Challenge.ID || m.Why != lobby.StatusExpired {
		t.Fatalf("ada back heard %+v", m)
	}
}

// TestLobbyAccounts: rated and direct challenges between accounts.
func TestLobbyAccounts(t *testing.T) {
	e := newLobbyEnv(t, 0)
	ada, bo, cy, anon := e.browser(), e.browser(), e.browser(), e.browser()
	ada.signUp("Ada")
	bo.signUp("Bob")
	cy.signUp("Cyd")
	rated := ada.post(lobby.PostRequest{Ruleset: "tsoro", Rated: true, Side: "N", TimeControl: "10+5"})
	if rated.Challenge.Name != "Ada" || !rated.Challenge.Account {
		t.Fatalf("posted %+v", rated.Challenge)
	}
	status, data := anon.do("POST", "/api/lobby/challenges/"+rated.Challenge.ID+"/accept", "", nil)
	wantError(t, "an anonymous player accepts a rated challenge", status, data, http.StatusUnauthorized, app.EUnauthorized, "log in")
	status, data = ada.do("POST", "/api/lobby/challenges/"+rated.Challenge.ID+"/accept", "", nil)
	wantError(t, "accept one's own", status, data, http.StatusConflict, app.EConflict, "yours")
	var acc lobby.Accepted
	bo.call("POST", "/api/lobby/challenges/"+rated.Challenge.ID+"/accept", "", nil, http.StatusOK, &acc)
	if acc.Seat != "S" {
		t.Fatalf("bo's seat %s, want S (Ada took N)", acc.Seat)
	}
	key, ok, err := e.sq.RatedKey(context.Background(), acc.Game)
	if err != nil || !ok || key.Ruleset != "tsoro" || key.Category != app.CategoryRapid {
		t.Fatalf("the game's rating key %+v %v %v", key, ok, err)
	}
	// Both accounts hold their seats, in any browser.
	var seat accounts.Seat
	ada.call("POST", "/api/account/games/"+acc.Game+"/seat", "", nil, http.StatusOK, &seat)
	if seat.Seat != "N" {
		t.Errorf("ada's account seat %+v", seat)
	}
	bo.call("POST", "/api/account/games/"+acc.Game+"/seat", "", nil, http.StatusOK, &seat)
	if seat.Seat != "S" {
		t.Errorf("bo's account seat %+v", seat)
	}

	// A direct challenge: seen by Bo and Ada only, accepted by Bo only.
	status, data = anon.do("POST", "/api/lobby/challenges", "", lobby.PostRequest{Ruleset: "tsoro", To: "Bob"})
	wantError(t, "an anonymous direct challenge", status, data, http.StatusUnauthorized, app.EUnauthorized, "log in")
	status, data = ada.do("POST", "/api/lobby/challenges", "", lobby.PostRequest{Ruleset: "tsoro", To: "nobody-here"})
	wantError(t, "a challenge to nobody", status, data, http.StatusNotFound, app.ENotFound, "nobody-here")
	bs, _ := bo.lobbySocket()
	cs, _ := cy.lobbySocket()
	d := ada.post(lobby.PostRequest{Ruleset: "choro", To: "bob"})
	if d.Challenge.Kind != lobby.KindDirect || d.Challenge.To != "Bob" {
		t.Fatalf("direct %+v", d.Challenge)
	}
	if m := bs.next("challenge"); m.Challenge.ID != d.Challenge.ID || !m.Challenge.ForYou {
		t.Fatalf("bo heard %+v", m.Challenge)
	}
	var list struct{ Challenges []lobby.View }
	cy.call("GET", "/api/lobby", "", nil, http.StatusOK, &list)
	if len(list.Challenges) != 0 {
		t.Errorf("cy sees %+v", list.Challenges)
	}
	status, data = cy.do("POST", "/api/lobby/challenges/"+d.Challenge.ID+"/accept", "", nil)
	wantError(t, "another player accepts a direct challenge", status, data, http.StatusForbidden, app.EForbidden, "Bob")
	bo.call("POST", "/api/lobby/challenges/"+d.Challenge.ID+"/accept", "", nil, http.StatusOK, &acc)
	bs.next("gone")
	// Cy heard nothing of it: the next thing Cy hears is a new open challenge.
	o := ada.post(lobby.PostRequest{Ruleset: "nsolo"})
	if m := cs.next("challenge"); m.Challenge.ID != o.Challenge.ID {
		t.Errorf("cy heard %+v before the open challenge", m)
	}
	if strings.Contains(cs.seen.String(), d.Challenge.ID) {
		t.Error("cy's socket heard of the direct challenge to bo")
	}
}

// TestLobbyQuick: the second seek of a preset and control pairs with the
// first; another control or one's own seek does not.
func TestLobbyQuick(t *testing.T) {
	e := newLobbyEnv(t, 0)
	ada, bo := e.browser(), e.browser()
	var q lobby.Quick
	ada.call("POST", "/api/lobby/quick", "", map[string]any{"ruleset": "tsoro", "time_control": "3+2"}, http.StatusCreated, &q)
	if q.Posted == nil || q.Posted.Challenge.Kind != lobby.KindQuick {
		t.Fatalf("the first seek %+v", q)
	}
	key := q.Posted.Key
	as, _ := ada.lobbySocket(key)
	q = lobby.Quick{}
	ada.call("POST", "/api/lobby/quick", "", map[string]any{"ruleset": "tsoro", "time_control": "3+2", "keys": []string{key}}, http.StatusCreated, &q)
	if q.Posted == nil {
		t.Fatalf("ada was paired with her own seek: %+v", q)
	}
	as.hello(key, q.Posted.Key)
	q = lobby.Quick{}
	bo.call("POST", "/api/lobby/quick", "", map[string]any{"ruleset": "tsoro", "time_control": "5+0"}, http.StatusCreated, &q)
	if q.Posted == nil {
		t.Fatalf("another control paired: %+v", q)
	}
	q = lobby.Quick{}
	bo.call("POST", "/api/lobby/quick", "", map[string]any{"ruleset": "tsoro", "time_control": "3+2"}, http.StatusOK, &q)
	if q.Accepted == nil {
		t.Fatalf("no pairing: %+v", q)
	}
	if m := as.next("matched"); m.Game != q.Accepted.Game || m.ID != "" && m.ID != strings.TrimSpace(m.ID) {
		t.Fatalf("ada heard %+v", m)
	}
	status, data := bo.do("POST", "/api/lobby/quick", "", map[string]any{"ruleset": "tsoro size=9"})
	wantError(t, "quick pairing off the presets", status, data, http.StatusBadRequest, app.EInvalid, "preset")
	status, data = bo.do("POST", "/api/lobby/quick", "", map[string]any{"ruleset": "tsoro", "time_control": "soon"})
	wantError(t, "a bad time control", status, data, http.StatusBadRequest, app.EInvalid, "3+2", "corr:")
}

// TestLobbyQuickRace: two players seek the same pairing at the same moment,
// round after round: each round ends in one game and no seek left waiting.
func TestLobbyQuickRace(t *testing.T) {
	e := newLobbyEnv(t, 0)
	ada, bo := e.browser(), e.browser()
	for round := range 8 {
		tc := strconv.Itoa(round+1) + "+0"
		var qs [2]lobby.Quick
		var wg sync.WaitGroup
		for i, b := range []*browser{ada, bo} {
			wg.Go(func() {
				status, data := b.do("POST", "/api/lobby/quick", "", map[string]any{"ruleset": "nsolo", "time_control": tc})
				if status != http.StatusOK && status != http.StatusCreated {
					t.Errorf("round %d: quick: %d %s", round, status, data)
					return
				}
				json.Unmarshal(data, &qs[i])
			})
		}
		wg.Wait()
		games := 0
		for _, q := range qs {
			if q.Accepted != nil {
				games++
			}
		}
		var list struct{ Challenges []lobby.View }
		ada.call("GET", "/api/lobby", "", nil, http.StatusOK, &list)
		waiting := 0
		for _, c := range list.Challenges {
			if c.TimeControl == tc {
				waiting++
			}
		}
		if games != 1 || waiting != 0 {
			t.Errorf("round %d: %d games, %d seeks left waiting; want 1 and 0", round, games, waiting)
		}
	}
}
