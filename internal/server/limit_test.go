package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"matombo/internal/app"
)

// wantLimited checks a 429 refusal: Retry-After (the seconds until the
// window resets) and a message that names what was refused and when to
// retry.
func wantLimited(t *testing.T, what string, status int, h http.Header, data []byte, words ...string) {
	t.Helper()
	var out errorBody
	json.Unmarshal(data, &out)
	if status != http.StatusTooManyRequests || out.Code != app.ERateLimited {
		t.Fatalf("%s over the limit: %d %s", what, status, data)
	}
	secs, err := strconv.Atoi(h.Get("Retry-After"))
	if err != nil || secs < 1 || secs > 60 {
		t.Errorf("%s: Retry-After %q, want 1 to 60 seconds", what, h.Get("Retry-After"))
	}
	for _, w := range append(words, "retry in "+strconv.Itoa(secs)+" s") {
		if !strings.Contains(out.Error, w) {
			t.Errorf("%s: message %q does not name %q", what, out.Error, w)
		}
	}
}

// TestRateLimit: creation and import share one bucket per address, which
// only accepted requests consume: a bad import, a game refused or a body
// of the wrong type leave it as it was.
func TestRateLimit(t *testing.T) {
	e := newEnvWith(t, Options{Limits: Limits{Creates: 2}})
	e.create(app.CreateRequest{Ruleset: "tsoro size=6", Opponent: "local"})
	for range 5 {
		if status, _ := e.do("POST", "/api/records", "", "not a record"); status != http.StatusBadRequest {
			t.Fatalf("a bad import: status %d, want 400", status)
		}
		if status, _ := e.do("POST", "/api/games", "", `{"ruleset":"no such game"}`); status != http.StatusBadRequest {
			t.Fatalf("a bad creation: status %d, want 400", status)
		}
	}
	e.create(app.CreateRequest{Ruleset: "tsoro size=6", Opponent: "local"}) // the second accepted: the last the bucket holds
	for _, tc := range []struct{ path, body, what string }{
		{"/api/records", "not a record", "records imported"},
		{"/api/games", `{"ruleset":"tsoro size=6","opponent":"local"}`, "games created"},
	} {
		status, h, data := e.doHeader("POST", tc.path, "", tc.body)
		wantLimited(t, "POST "+tc.path, status, h, data, tc.what, "count together")
	}
}

// TestJoinHintLabLimits: joins (wrong invite codes included), hints and lab
// experiments are limited per address, each on its own.
func TestJoinHintLabLimits(t *testing.T) {
	e := newEnvWith(t, Options{Limits: Limits{Joins: 2, Hints: 2, Lab: 1}})
	c := e.create(app.CreateRequest{Ruleset: "tsoro size=6", Opponent: "friend"})
	for range 2 {
		status, data := e.do("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": "wrong"})
		wantError(t, "join with a wrong invite", status, data, http.StatusForbidden, app.EForbidden)
	}
	status, h, data := e.doHeader("POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": c.Invite})
	wantLimited(t, "the third join", status, h, data, "joins", "wrong invite code")

	l := e.create(app.CreateRequest{Ruleset: "tsoro size=6", Opponent: "local"})
	for range 2 {
		e.call("GET", "/api/games/"+l.ID+"/hint", l.Token, nil, http.StatusOK, nil)
	}
	status, h, data = e.doHeader("GET", "/api/games/"+l.ID+"/hint", l.Token, nil)
	wantLimited(t, "the third hint", status, h, data, "hints asked")

	lab := map[string]any{"rulesets": []string{"tsoro size=6"}, "games": 1}
	e.call("POST", "/api/lab", "", lab, http.StatusOK, nil)
	status, h, data = e.doHeader("POST", "/api/lab", "", lab)
	wantLimited(t, "the second experiment", status, h, data, "lab experiments")
	// The lab's limits are still read.
	e.call("GET", "/api/lab", "", nil, http.StatusOK, nil)
}

func TestLimiterWindow(t *testing.T) {
	l := newLimiter(1, time.Minute, "tests")
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ok, _, b := l.allow("a", t0)
	if !ok {
		t.Fatal("first request refused")
	}
	for _, tc := range []struct {
		after time.Duration
		retry time.Duration
	}{{time.Second, 59 * time.Second}, {59*time.Second + time.Millisecond, 999 * time.Millisecond}} {
		ok, retry, _ := l.allow("a", t0.Add(tc.after))
		if ok || retry != tc.retry {
			t.Errorf("after %v: allowed %v, retry %v; want refused, retry %v", tc.after, ok, retry, tc.retry)
		}
	}
	if ok, _, _ := l.allow("b", t0.Add(time.Second)); !ok {
		t.Error("another address refused")
	}
	// A refund gives the request back.
	l.refund("a", b)
	if ok, _, _ := l.allow("a", t0.Add(2*time.Second)); !ok {
		t.Error("refused after a refund")
	}
	ok, _, b = l.allow("a", t0.Add(time.Minute))
	if !ok {
		t.Error("refused when the window is over")
	}
	// A refund of an old window does not touch the new one.
	l.refund("a", &bucket{count: 1})
	if ok, _, _ := l.allow("a", t0.Add(time.Minute+time.Second)); ok {
		t.Error("a stale refund freed the new window")
	}
	_ = b
}

// TestClientAddr: IPv4 addresses count alone, IPv6 ones by their /64.
func TestClientAddr(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7:5000":              "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:5000": "2001:db8:1:2::/64",
		"[2001:db8:1:2::9]:1":         "2001:db8:1:2::/64",
		"[::ffff:192.0.2.7]:5000":     "::ffff:192.0.2.7",
		"garbage":                     "garbage",
	} {
		if got := clientAddr(&http.Request{RemoteAddr: in}); got != want {
			t.Errorf("clientAddr(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDefaultSockets: the default bound of sockets leaves file descriptors
// to the rest of the server.
func TestDefaultSockets(t *testing.T) {
	for _, tc := range []struct {
		nofile uint64
		want   int
	}{{0, 768}, {100, 50}, {256, 128}, {1024, 768}, {4096, 3072}, {1 << 20, maxDefaultSockets}, {^uint64(0), maxDefaultSockets}} {
		got := DefaultSockets(tc.nofile)
		if got != tc.want {
			t.Errorf("DefaultSockets(%d) = %d, want %d", tc.nofile, got, tc.want)
		}
		if tc.nofile > 0 && uint64(got)+min(socketReserve, tc.nofile/2) > tc.nofile {
			t.Errorf("DefaultSockets(%d) = %d leaves too few descriptors", tc.nofile, got)
		}
	}
}
