package durability

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/app"
	"matombo/internal/store/postgres"
)

// clockView is the part of a GameView the clocks' test reads.
type clockView struct {
	Status string `json:"status"`
	ToMove string `json:"to_move"`
	Ply    int    `json:"ply"`
	Result string `json:"result"`
	Reason string `json:"reason"`
	Legal  []string
	Clock  struct {
		Control string           `json:"control"`
		Left    map[string]int64 `json:"left_ms"`
		Running string           `json:"running"`
		Due     *time.Time       `json:"deadline"`
		Started bool             `json:"started"`
	} `json:"clock"`
}

func getClock(t *testing.T, base, id string) clockView {
	t.Helper()
	var v clockView
	if _, err := call("GET", base+"/api/games/"+id, "", nil, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// playTurnOn plays the side to move's whole turn of local game c through
// the instance at base.
func playTurnOn(t *testing.T, base string, c app.Created) {
	t.Helper()
	v := getClock(t, base, c.ID)
	side := v.ToMove
	for v.Status == "playing" && v.ToMove == side {
		var a struct{ Game clockView }
		if _, err := call("POST", base+"/api/games/"+c.ID+"/actions", c.Tokens[side], map[string]any{"action": v.Legal[0], "ply": v.Ply}, &a); err != nil {
			t.Fatal(err)
		}
		v = a.Game
	}
}

// testClocks runs two `matombo serve` processes on one PostgreSQL
// database: both show the same clocks (stored with each action, and read
// back the same after a restart); flags fall with nobody connected, each
// game ended once, by one instance, and seen live on the other.
func testClocks(t *testing.T, bin, dsn string) {
	a, b := start(t, bin, dsn, "--verbose"), start(t, bin, dsn, "--verbose")
	var c app.Created
	if _, err := call("POST", a.url+"/api/games", "", map[string]string{"ruleset": "nsolo", "opponent": "local", "time_control": "3+2"}, &c); err != nil {
		t.Fatal(err)
	}
	playTurnOn(t, a.url, c) // the first turns: untimed
	playTurnOn(t, b.url, c)
	playTurnOn(t, a.url, c) // South's first timed turn, through A
	same := func(what string) clockView {
		t.Helper()
		va, vb := getClock(t, a.url, c.ID), getClock(t, b.url, c.ID)
		if va.Clock.Running != vb.Clock.Running || va.Clock.Due == nil || vb.Clock.Due == nil || !va.Clock.Due.Equal(*vb.Clock.Due) {
			t.Fatalf("%s: A's clock %+v, B's %+v", what, va.Clock, vb.Clock)
		}
		waiting := "S"
		if va.Clock.Running == "S" {
			waiting = "N"
		}
		if va.Clock.Left[waiting] != vb.Clock.Left[waiting] {
			t.Fatalf("%s: the waiting side's clock: %d ms on A, %d on B", what, va.Clock.Left[waiting], vb.Clock.Left[waiting])
		}
		return va
	}
	v := same("after South's turn through A")
	if v.Clock.Running != "N" || !v.Clock.Started || v.Clock.Left["S"] > 182000 || v.Clock.Left["S"] < 170000 {
		t.Fatalf("after South's timed turn: %+v", v.Clock)
	}
	playTurnOn(t, b.url, c) // North, through B
	before := same("after North's turn through B")
	// A restart reads the same clocks from the store.
	a.kill()
	a = start(t, bin, dsn, "--verbose")
	if after := same("after A's restart"); after.Clock.Left["N"] != before.Clock.Left["N"] || !after.Clock.Due.Equal(*before.Clock.Due) {
		t.Fatalf("after a restart: %+v, before %+v", after.Clock, before.Clock)
	}

	// Flags: games whose deadline has passed (set in the database, as the
	// passing of their time would) end once each, by one instance's
	// sweeper, with nobody connected but a spectator on B.
	st, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const n = 12
	var ids []string
	toMove := map[string]string{}
	for i := range n {
		via := []*server{a, b}[i%2]
		var g app.Created
		if _, err := call("POST", via.url+"/api/games", "", map[string]string{"ruleset": "nsolo", "opponent": "local", "time_control": "1+0"}, &g); err != nil {
			t.Fatal(err)
		}
		playTurnOn(t, via.url, g)
		playTurnOn(t, via.url, g)
		ids = append(ids, g.ID)
		toMove[g.ID] = getClock(t, via.url, g.ID).ToMove
	}
	spec := watchOver(t, b.url, ids[0])
	if _, err := st.Pool().Exec(context.Background(), `UPDATE games SET deadline = now() - interval '1 second' WHERE id = ANY($1)`, ids); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, id := range ids {
		for {
			va, vb := getClock(t, a.url, id), getClock(t, b.url, id)
			if va.Status == "over" && vb.Status == "over" {
				winner := map[string]string{"S": "N", "N": "S"}[toMove[id]]
				if va.Result != winner || va.Reason != app.ReasonTime || vb.Result != va.Result || vb.Reason != va.Reason {
					t.Fatalf("game %s: %s (%s) on A, %s (%s) on B; %s was to move", id, va.Result, va.Reason, vb.Result, vb.Reason, toMove[id])
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("game %s not ended by the flag in 30 s: %s on A, %s on B", id, va.Status, vb.Status)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if err := <-spec; err != nil {
		t.Fatal(err)
	}
	// Each game was ended once, by one of the two instances.
	byA, byB := 0, 0
	for _, id := range ids {
		inA, inB := endedIn(a, id), endedIn(b, id)
		if inA+inB != 1 {
			t.Errorf("game %s ended %d times on A and %d on B, want once in all", id, inA, inB)
		}
		byA, byB = byA+inA, byB+inB
	}
	t.Logf("%d flags: %d ended by A, %d by B", n, byA, byB)
}

// endedIn counts the log lines in which s says it ended game id by its time.
func endedIn(s *server, id string) int {
	n := 0
	for _, line := range strings.Split(s.logText(), "\n") {
		if strings.Contains(line, "clock: a game ended by its time") && strings.Contains(line, "game="+id) {
			n++
		}
	}
	return n
}

// watchOver opens a spectator socket on the instance at base for game id
// and reports on the channel whether an update of the game over came.
func watchOver(t *testing.T, base, id string) <-chan error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/games/"+id+"/ws", nil)
	if err != nil {
		cancel()
		t.Fatalf("open the socket: %v", err)
	}
	conn.SetReadLimit(4 << 20)
	hello, _ := json.Marshal(map[string]any{"type": "hello", "token": "", "ply": 0})
	if err := conn.Write(ctx, websocket.MessageText, hello); err != nil {
		cancel()
		t.Fatalf("hello: %v", err)
	}
	out := make(chan error, 1)
	go func() {
		defer cancel()
		defer conn.CloseNow()
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				out <- fmt.Errorf("the spectator on B saw no end of game %s: %v", id, err)
				return
			}
			var m struct {
				Type string    `json:"type"`
				Game clockView `json:"game"`
			}
			if json.Unmarshal(data, &m) == nil && m.Type == "update" && m.Game.Status == "over" {
				out <- nil
				return
			}
		}
	}()
	return out
}
