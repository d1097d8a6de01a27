package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/store/sqlite"
	"matombo/mancala"
	"matombo/search"
)

// testEnv is a server on a fresh SQLite database, with the fast built-in AI.
type testEnv struct {
	t     *testing.T
	srv   *Server
	http  *httptest.Server
	store app.Store
}

func newEnv(t *testing.T) *testEnv {
	t.Helper()
	return newEnvWith(t, Options{})
}

// newEnvWith is newEnv with the server's options o.
func newEnvWith(t *testing.T, o Options) *testEnv {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := app.NewService(app.Config{Store: store, AI: search.NewGreedyLevels(7), Workers: 2})
	if o.Puzzles == nil {
		o.Puzzles = store
	}
	srv := New(svc, o)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Shutdown()
		hs.Close()
		svc.Close()
		store.Close()
	})
	return &testEnv{t: t, srv: srv, http: hs, store: store}
}

// do sends a request and returns the status and body.
func (e *testEnv) do(method, path, token string, body any) (int, []byte) {
	e.t.Helper()
	status, _, data := e.doHeader(method, path, token, body)
	return status, data
}

// doHeader sends a request and returns the status, headers and body.
func (e *testEnv) doHeader(method, path, token string, body any) (int, http.Header, []byte) {
	e.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, e.http.URL+path, r)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Seat "+token)
	}
	if r != nil { // as the front-end sends them: records as text, the rest JSON
		req.Header.Set("Content-Type", "application/json")
		if path == "/api/records" {
			req.Header.Set("Content-Type", "text/plain; charset=utf-8")
		}
	}
	resp, err := e.http.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, data
}

// call sends a request, checks the status and decodes the JSON answer into out.
func (e *testEnv) call(method, path, token string, body any, want int, out any) {
	e.t.Helper()
	status, data := e.do(method, path, token, body)
	if status != want {
		e.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, status, want, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			e.t.Fatalf("%s %s: bad JSON %s: %v", method, path, data, err)
		}
	}
}

func (e *testEnv) create(req app.CreateRequest) app.Created {
	e.t.Helper()
	var c app.Created
	e.call("POST", "/api/games", "", req, http.StatusCreated, &c)
	return c
}

func (e *testEnv) view(id, token string) app.GameView {
	e.t.Helper()
	var v app.GameView
	e.call("GET", "/api/games/"+id, token, nil, http.StatusOK, &v)
	return v
}

// waitFor polls the game until cond holds.
func (e *testEnv) waitFor(id, token string, cond func(app.GameView) bool) app.GameView {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := e.view(id, token)
		if cond(v) {
			return v
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("game %s: condition not reached; last view ply %d to_move %s thinking %v", id, v.Ply, v.ToMove, v.Thinking)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wantError checks an error answer's status and code and that its message
// contains each of words.
func wantError(t *testing.T, what string, status int, data []byte, wantStatus int, code app.Code, words ...string) {
	t.Helper()
	var body errorBody
	if err := json.Unmarshal(data, &body); err != nil {
		t.Fatalf("%s: error body %q is not JSON: %v", what, data, err)
	}
	if status != wantStatus || body.Code != code {
		t.Fatalf("%s: status %d code %q (%s), want %d %q", what, status, body.Code, body.Error, wantStatus, code)
	}
	for _, w := range words {
		if !strings.Contains(body.Error, w) {
			t.Errorf("%s: message %q does not mention %q", what, body.Error, w)
		}
	}
}

// mirror is the test's own copy of a game, to choose actions and check the
// server's board.
type mirror struct {
	s *mancala.State
	m search.Player
}

func newMirror(t *testing.T, ruleset string) *mirror {
	rs, err := mancala.ParseRuleset(ruleset)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mancala.NewGame(rs)
	if err != nil {
		t.Fatal(err)
	}
	return &mirror{s: s, m: search.NewGreedyLevels(3)[app.MaxLevel]}
}

// next returns the mirror's choice (greedy, so games end fast).
func (m *mirror) next(t *testing.T) string {
	a, err := m.m.Choose(context.Background(), m.s, search.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return a.String()
}

func (m *mirror) apply(t *testing.T, action string) {
	t.Helper()
	a, err := mancala.ParseAction(action)
	if err == nil {
		err = m.s.Apply(a)
	}
	if err != nil {
		t.Fatalf("mirror: %s: %v", action, err)
	}
}
