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

// TestRateLimit: creation and import share one bucket per address; a
// refusal is 429 with Retry-After (the seconds until the window resets) and
// a message that names what was refused and when to retry.
func TestRateLimit(t *testing.T) {
	e := newEnv(t)
	e.srv.limiter = newLimiter(2, time.Minute)
	e.create(app.CreateRequest{Ruleset: "tsoro size=6", Opponent: "local"})
	if status, _ := e.do("POST", "/api/records", "", "not a record"); status != http.StatusBadRequest {
		t.Fatalf("second request (a bad import, counted): status %d, want 400", status)
	}
	for _, tc := range []struct{ path, body, what string }{
		{"/api/records", "not a record", "records imported"},
		{"/api/games", `{"ruleset":"tsoro size=6","opponent":"local"}`, "games created"},
	} {
		status, h, data := e.doHeader("POST", tc.path, "", tc.body)
		var out errorBody
		json.Unmarshal(data, &out)
		if status != http.StatusTooManyRequests || out.Code != app.ERateLimited {
			t.Fatalf("POST %s over the limit: %d %s", tc.path, status, data)
		}
		secs, err := strconv.Atoi(h.Get("Retry-After"))
		if err != nil || secs < 1 || secs > 60 {
			t.Errorf("POST %s: Retry-After %q, want 1 to 60 seconds", tc.path, h.Get("Retry-After"))
		}
		if !strings.Contains(out.Error, tc.what) || !strings.Contains(out.Error, "retry in "+strconv.Itoa(secs)+" s") {
			t.Errorf("POST %s: message %q, want it to name %q and the %d s to wait", tc.path, out.Error, tc.what, secs)
		}
	}
}

func TestLimiterWindow(t *testing.T) {
	l := newLimiter(1, time.Minute)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if ok, _ := l.allow("a", t0); !ok {
		t.Fatal("first request refused")
	}
	for _, tc := range []struct {
		after time.Duration
		retry time.Duration
	}{{time.Second, 59 * time.Second}, {59*time.Second + time.Millisecond, 999 * time.Millisecond}} {
		ok, retry := l.allow("a", t0.Add(tc.after))
		if ok || retry != tc.retry {
			t.Errorf("after %v: allowed %v, retry %v; want refused, retry %v", tc.after, ok, retry, tc.retry)
		}
	}
	if ok, _ := l.allow("b", t0.Add(time.Second)); !ok {
		t.Error("another address refused")
	}
	if ok, _ := l.allow("a", t0.Add(time.Minute)); !ok {
		t.Error("refused when the window is over")
	}
}
