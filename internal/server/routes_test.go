package server

import (
	"net/http"
	"strings"
	"testing"

	"matombo/internal/app"
)

// allow sends a request without a body and returns the status and the
// Allow header of the answer.
func (e *testEnv) allow(method, path string) (int, string) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.http.URL+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	resp, err := e.http.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Allow")
}

// TestMethodNotAllowed checks that a path with routes under other methods
// answers 405 with the methods in Allow (GET bringing HEAD), as JSON.
func TestMethodNotAllowed(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		method, path, allow string
	}{
		{"GET", "/api/games/x/actions", "POST"},
		{"PUT", "/api/games/x/actions", "POST"},
		{"DELETE", "/api/games", "GET, HEAD, POST"},
		{"PATCH", "/api/games", "GET, HEAD, POST"},
		{"DELETE", "/api/games/x", "GET, HEAD"},
		{"POST", "/api/games/x", "GET, HEAD"},
		{"GET", "/api/games/x/join", "POST"},
		{"GET", "/api/games/x/resign", "POST"},
		{"GET", "/api/games/x/rematch", "POST"},
		{"POST", "/api/games/x/record", "GET, HEAD"},
		{"POST", "/api/games/x/hint", "GET, HEAD"},
		{"POST", "/api/games/x/replay", "GET, HEAD"},
		{"POST", "/api/games/x/ws", "GET, HEAD"},
		{"GET", "/api/records", "POST"},
		{"POST", "/api/rulesets", "GET, HEAD"},
		{"OPTIONS", "/api/position", "GET, HEAD"},
	}
	for _, c := range cases {
		if _, allow := e.allow(c.method, c.path); allow != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, allow, c.allow)
		}
		status, data := e.do(c.method, c.path, "", nil)
		wantError(t, c.method+" "+c.path, status, data, http.StatusMethodNotAllowed, app.EMethodNotAllowed, c.method, c.allow)
	}

	// HEAD has no body: the status and Allow only.
	if status, allow := e.allow("HEAD", "/api/games/x/actions"); status != http.StatusMethodNotAllowed || allow != "POST" {
		t.Errorf("HEAD /api/games/x/actions: status %d Allow %q, want 405 POST", status, allow)
	}

	// The lab answers its own 405, in the same shape.
	status, data := e.do("DELETE", "/api/lab", "", nil)
	wantError(t, "DELETE /api/lab", status, data, http.StatusMethodNotAllowed, app.EMethodNotAllowed, "DELETE")
}

// TestNoRoute checks that a path no route matches, under any method, stays
// a 404.
func TestNoRoute(t *testing.T) {
	e := newEnv(t)
	cases := []struct{ method, path string }{
		{"GET", "/api/nothing"},
		{"DELETE", "/api/nothing"},
		{"GET", "/api/"},
		{"POST", "/api/"},
		{"GET", "/api/games/x/nothing"},
		{"POST", "/api/games/x/y/actions"},
		{"GET", "/api/lab/x"},
		{"PUT", "/api/records/x"},
	}
	for _, c := range cases {
		status, data := e.do(c.method, c.path, "", nil)
		wantError(t, c.method+" "+c.path, status, data, http.StatusNotFound, app.ENotFound, "no API route", c.method, c.path, "docs/API.md")
		if strings.Contains(string(data), "method_not_allowed") {
			t.Errorf("%s %s: %s", c.method, c.path, data)
		}
	}
}

// TestRightMethodStillRoutes checks that the requests with the right method
// still reach their handlers.
func TestRightMethodStillRoutes(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "tsoro size=6", Opponent: "local"})
	cases := []struct {
		method, path string
		body         any
		want         int
	}{
		{"GET", "/api/rulesets", nil, 200},
		{"HEAD", "/api/rulesets", nil, 200},
		{"GET", "/api/games", nil, 200},
		{"POST", "/api/games", app.CreateRequest{Ruleset: "tsoro", Opponent: "local"}, 201},
		{"GET", "/api/games/" + c.ID, nil, 200},
		{"HEAD", "/api/games/" + c.ID, nil, 200},
		{"GET", "/api/games/" + c.ID + "/record", nil, 200},
		{"GET", "/api/games/" + c.ID + "/replay", nil, 200},
		{"GET", "/api/position?ruleset=tsoro", nil, 200},
		{"GET", "/api/lab", nil, 200},
		// Routed to the handler, which refuses the request itself.
		{"GET", "/api/games/nosuchgame", nil, 404},
		{"POST", "/api/games/" + c.ID + "/actions", map[string]any{"action": "zz", "ply": 0}, 403},
		{"POST", "/api/games/" + c.ID + "/join", map[string]string{"invite": "nope"}, 403},
		{"POST", "/api/games/" + c.ID + "/rematch", nil, 403},
		{"GET", "/api/games/" + c.ID + "/hint", nil, 403},
		{"POST", "/api/records", "not a record", 400},
	}
	for _, tc := range cases {
		status, data := e.do(tc.method, tc.path, "", tc.body)
		if status != tc.want || strings.Contains(string(data), "no API route") || strings.Contains(string(data), "method_not_allowed") {
			t.Errorf("%s %s: status %d, want %d; body %.200s", tc.method, tc.path, status, tc.want, data)
		}
	}
}
