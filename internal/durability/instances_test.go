package durability

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/app"
	"matombo/mancala"
)

// spectator is a WebSocket without a seat on one instance.
type spectator struct {
	conn *websocket.Conn
	name string
}

// watch opens a spectator socket on the instance at base for game id and
// reads its first state.
func watch(t *testing.T, base, id, name string) *spectator {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/games/"+id+"/ws", nil)
	if err != nil {
		t.Fatalf("%s: open the socket: %v", name, err)
	}
	conn.SetReadLimit(4 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	hello, _ := json.Marshal(map[string]any{"type": "hello", "token": "", "ply": 0})
	if err := conn.Write(ctx, websocket.MessageText, hello); err != nil {
		t.Fatalf("%s: hello: %v", name, err)
	}
	sp := &spectator{conn: conn, name: name}
	if _, typ := sp.next(t, ctx); typ != "state" {
		t.Fatalf("%s: first message %q, want state", name, typ)
	}
	return sp
}

// next returns the ply of the next message and its type.
func (sp *spectator) next(t *testing.T, ctx context.Context) (int, string) {
	t.Helper()
	_, data, err := sp.conn.Read(ctx)
	if err != nil {
		t.Fatalf("%s: read: %v", sp.name, err)
	}
	var m struct {
		Type   string `json:"type"`
		Game   view   `json:"game"`
		Events []any  `json:"events"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: bad message: %v", sp.name, err)
	}
	return m.Game.Ply, m.Type
}

// waitPly waits up to 5 s for an update of ply on sp.
func (sp *spectator) waitPly(t *testing.T, ply int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		got, typ := sp.next(t, ctx)
		if typ == "update" && got >= ply {
			if got != ply {
				t.Fatalf("%s: update of ply %d, want %d", sp.name, got, ply)
			}
			return
		}
	}
}

// testInstances runs two `matombo serve` processes on one PostgreSQL
// database: every action sent to either reaches the WebSocket spectators
// of both, and two actions of one ply sent at once, one to each, never both
// apply; the game then replays legally.
func testInstances(t *testing.T, bin, dsn string) {
	a, b := start(t, bin, dsn), start(t, bin, dsn)
	defer a.kill()
	defer b.kill()
	var c app.Created
	if _, err := call("POST", a.url+"/api/games", "", map[string]string{"ruleset": "tsoro size=8", "opponent": "local"}, &c); err != nil {
		t.Fatal(err)
	}
	spA, spB := watch(t, a.url, c.ID, "spectator on A"), watch(t, b.url, c.ID, "spectator on B")
	rng := rand.New(rand.NewPCG(1, 2))
	current := func() view {
		t.Helper()
		var v view
		if _, err := call("GET", b.url+"/api/games/"+c.ID, "", nil, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}

	// Actions through A and B in turn reach both spectators.
	for i := range 12 {
		v := current()
		if v.Status != "playing" {
			break
		}
		via := []*server{a, b}[i%2]
		act := v.Legal[rng.IntN(len(v.Legal))]
		if _, err := call("POST", via.url+"/api/games/"+c.ID+"/actions", c.Tokens[v.ToMove], map[string]any{"action": act, "ply": v.Ply}, nil); err != nil {
			t.Fatalf("action %d: %v", i, err)
		}
		spA.waitPly(t, v.Ply+1)
		spB.waitPly(t, v.Ply+1)
	}

	// Races: the same ply sent to both instances at once.
	races, won := 0, 0
	for range 15 {
		v := current()
		if v.Status != "playing" {
			break
		}
		races++
		statuses := make([]int, 2)
		var wg sync.WaitGroup
		for k, srv := range []*server{a, b} {
			act := v.Legal[rng.IntN(len(v.Legal))]
			wg.Go(func() {
				statuses[k], _ = call("POST", srv.url+"/api/games/"+c.ID+"/actions", c.Tokens[v.ToMove], map[string]any{"action": act, "ply": v.Ply}, nil)
			})
		}
		wg.Wait()
		ok := 0
		for _, st := range statuses {
			switch st {
			case 200:
				ok++
			case 409:
			default:
				t.Fatalf("race at ply %d: statuses %v, want one 200 and one 409", v.Ply, statuses)
			}
		}
		if ok != 1 {
			t.Fatalf("race at ply %d: statuses %v, want exactly one success", v.Ply, statuses)
		}
		won++
		if got := current().Ply; got != v.Ply+1 {
			t.Fatalf("race at ply %d: the game is at ply %d, want %d", v.Ply, got, v.Ply+1)
		}
	}
	if races == 0 {
		t.Fatal("the game ended before any race")
	}

	var text string
	if _, err := call("GET", a.url+"/api/games/"+c.ID+"/record", "", nil, &text); err != nil {
		t.Fatal(err)
	}
	rec, err := mancala.ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("the game played through two instances does not replay: %v\n%s", err, text)
	}
	t.Logf("%d races, one winner each; updates reached both instances", won)
}
