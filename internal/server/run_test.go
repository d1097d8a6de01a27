package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// TestRunEndToEnd starts the real Run on a free loopback port, plays a whole
// local game through the API, checks it is stored, and shuts down.
func TestRunEndToEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e2e.db")
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Addr: "127.0.0.1:0", Store: store, AI: search.NewGreedyLevels(1), Ready: func(u string) { ready <- u }})
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not start")
	}
	client := &http.Client{Timeout: 10 * time.Second}
	post := func(path, token string, body any, out any) int {
		data, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Seat "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if out != nil && json.Unmarshal(raw, out) != nil {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, raw)
		}
		return resp.StatusCode
	}
	var c app.Created
	if st := post("/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "local"}, &c); st != 201 {
		t.Fatalf("create: %d", st)
	}
	m := newMirror(t, "nsolo")
	ply := 0
	var last app.GameView
	for !m.s.IsOver() {
		a := m.next(t)
		var res app.ActResult
		if st := post("/api/games/"+c.ID+"/actions", c.Tokens[m.s.ToMove().String()], map[string]any{"action": a, "ply": ply}, &res); st != 200 {
			t.Fatalf("ply %d %s: status %d", ply, a, st)
		}
		m.apply(t, a)
		ply++
		last = *res.Game
		if last.Position != m.s.Position() {
			t.Fatalf("ply %d: position %s, mirror %s", ply, last.Position, m.s.Position())
		}
	}
	if last.Status != "over" || last.Result != m.s.Outcome().Result.String() {
		t.Fatalf("final view %s %s, mirror %s", last.Status, last.Result, m.s.Outcome().Result)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run after shutdown: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not shut down")
	}
	g, err := store.Game(context.Background(), c.ID)
	if err != nil || len(g.Actions) != ply || g.Result != last.Result {
		t.Fatalf("stored: %d actions result %s (%v); want %d %s", len(g.Actions), g.Result, err, ply, last.Result)
	}
	if _, err := client.Get(base + "/healthz"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}
