package server

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"matombo/internal/app"
)

// TestMetrics plays one action and refuses one, then reads /metrics in the
// Prometheus text format: the action counters, the latency histogram and
// the gauges.
func TestMetrics(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Side: "S"})
	path := "/api/games/" + c.ID + "/actions"
	if status, data := e.do("POST", path, c.Token, `{"action":"a1","ply":0}`); status != 200 {
		t.Fatalf("action: %d %s", status, data)
	}
	if status, _ := e.do("POST", path, c.Token, `{"action":"a1","ply":0}`); status != 409 {
		t.Fatalf("stale action: status %d", status)
	}
	status, body := e.do("GET", "/metrics", "", nil)
	if status != 200 {
		t.Fatalf("metrics: status %d", status)
	}
	text := string(body)
	for _, want := range []string{
		"# TYPE matombo_actions_total counter",
		`matombo_actions_total{via="http",result="ok"} 1`,
		`matombo_actions_total{via="http",result="refused"} 1`,
		`matombo_actions_total{via="ws",result="ok"} 0`,
		"# TYPE matombo_action_seconds histogram",
		`matombo_action_seconds_bucket{le="+Inf"} 2`,
		"matombo_action_seconds_count 2",
		"# TYPE matombo_games_in_progress gauge",
		"matombo_games_in_progress 0",
		"matombo_websockets 0",
		"# TYPE matombo_ai_thinkers gauge",
		"matombo_ai_thinkers 2",
		"# TYPE matombo_ai_downgraded_total counter",
		"matombo_ai_downgraded_total 0",
		"# TYPE matombo_ai_wait_seconds histogram",
		`matombo_ai_wait_seconds_bucket{le="0.01"} 0`,
		"matombo_ai_wait_seconds_count 0",
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("metrics lack %q:\n%s", want, text)
		}
	}
	// Buckets are cumulative: never decreasing, ending at the count.
	last := -1
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "matombo_action_seconds_bucket") {
			continue
		}
		var n int
		if _, err := fmt.Sscan(line[strings.LastIndex(line, " ")+1:], &n); err != nil || n < last {
			t.Fatalf("bucket line %q after %d", line, last)
		}
		last = n
	}
}

// TestMetricsToken: with a token set, /metrics answers only a request that
// bears it, and tells the others what it needs.
func TestMetricsToken(t *testing.T) {
	e := newEnv(t)
	e.srv.SetMetricsToken("s3cret")
	for _, auth := range []string{"", "Bearer wrong", "Seat s3cret", "Basic czNjcmV0", "Bearer s3cret2"} {
		req, _ := http.NewRequest("GET", e.http.URL+"/metrics", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := e.http.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		wantError(t, "metrics with "+auth, resp.StatusCode, data, http.StatusUnauthorized, app.EUnauthorized, "Bearer", "--metrics-token")
		if h := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(h, "Bearer") {
			t.Errorf("WWW-Authenticate %q", h)
		}
	}
	req, _ := http.NewRequest("GET", e.http.URL+"/metrics", nil)
	req.Header.Set("Authorization", "bearer s3cret") // the scheme's case does not matter
	resp, err := e.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(data), "matombo_websockets") {
		t.Errorf("metrics with the token: %d %.80s", resp.StatusCode, data)
	}
}
