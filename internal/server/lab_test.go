package server

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

func labPost(t *testing.T, h http.Handler, body string) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/lab", strings.NewReader(body)))
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("answer %d is not JSON: %v\n%s", rec.Code, err, rec.Body.String())
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
	return rec, out
}

func TestLabRun(t *testing.T) {
	h := newLabHandler(LabOptions{}, slog.New(slog.DiscardHandler))
	rec, out := labPost(t, h, `{"rulesets":["tsoro size=8","nsolo"],"games":100,"player":"random","seed":9}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	var resp LabResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	if !resp.Complete || resp.Seed != 9 || resp.GamesPerRuleset != 100 || len(resp.Rulesets) != 2 || resp.Rulesets[1].Games != 100 {
		t.Errorf("response %+v", out)
	}
	if resp.GamesAsked != 200 || resp.GamesFinished != 200 || resp.Stopped != "" || resp.MaxSeconds != 10 {
		t.Errorf("asked %d, finished %d, stopped %q, budget %v s", resp.GamesAsked, resp.GamesFinished, resp.Stopped, resp.MaxSeconds)
	}
	for _, name := range []string{"game-length", "first-player"} {
		svg := resp.Plots[name]
		if !strings.HasPrefix(svg, "<svg") || xml.Unmarshal([]byte(svg), new(struct{})) != nil {
			t.Errorf("plot %s is not an SVG document: %.80q", name, svg)
		}
		if strings.Contains(svg, "style") {
			t.Errorf("plot %s uses styles, which the pages' CSP refuses", name)
		}
	}
}

func TestLabErrors(t *testing.T) {
	h := newLabHandler(LabOptions{MaxGames: 1000, MaxRulesets: 2}, slog.New(slog.DiscardHandler))
	cases := map[string]string{
		"not JSON":       `rulesets=tsoro`,
		"unknown field":  `{"rulesets":["tsoro"],"games":10,"gmaes":3}`,
		"no ruleset":     `{"rulesets":[],"games":10}`,
		"too many sets":  `{"rulesets":["tsoro","nsolo","choro"],"games":10}`,
		"bad ruleset":    `{"rulesets":["tsoro size=99"],"games":10}`,
		"too many games": `{"rulesets":["tsoro","nsolo"],"games":501}`,
		"no games":       `{"rulesets":["tsoro"],"games":0}`,
		"bad player":     `{"rulesets":["tsoro"],"games":10,"player":"level:12"}`,
		"trailing data":  `{"rulesets":["tsoro"],"games":10} {"games":20}`,
	}
	for name, body := range cases {
		rec, out := labPost(t, h, body)
		msg, _ := out["error"].(string)
		if rec.Code != http.StatusBadRequest || out["code"] != "bad_request" || !strings.HasPrefix(msg, "lab: ") {
			t.Errorf("%s: %d %v", name, rec.Code, out)
		}
	}
	// An oversized body is 413 too_large, as in the rest of the API, also
	// when its first JSON value ends within the limit.
	for name, body := range map[string]string{
		"too large a value":    `{"rulesets":["` + strings.Repeat("x", maxJSONBody) + `"],"games":10}`,
		"too large with space": `{"rulesets":["tsoro"],"games":10}` + strings.Repeat(" ", maxJSONBody),
	} {
		rec, out := labPost(t, h, body)
		msg, _ := out["error"].(string)
		if rec.Code != http.StatusRequestEntityTooLarge || out["code"] != "too_large" || msg != fmt.Sprintf("lab: the request body is larger than %d bytes", maxJSONBody) {
			t.Errorf("%s: %d %v", name, rec.Code, out)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodDelete, "/api/lab", nil))
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") == "" {
		t.Errorf("DELETE: %d, Allow %q", rec.Code, rec.Header().Get("Allow"))
	}
}

// TestHTTPOneAtATime checks that a request made while an experiment runs is
// refused, and that the next one after it runs.
func TestLabOneAtATime(t *testing.T) {
	h := newLabHandler(LabOptions{}, slog.New(slog.DiscardHandler))
	h.busy <- struct{}{} // an experiment is running
	rec, out := labPost(t, h, `{"rulesets":["tsoro"],"games":10}`)
	if rec.Code != http.StatusTooManyRequests || out["code"] != "rate_limited" {
		t.Errorf("while busy: %d %v", rec.Code, out)
	}
	<-h.busy
	if rec, _ := labPost(t, h, `{"rulesets":["tsoro"],"games":10}`); rec.Code != http.StatusOK {
		t.Errorf("after: %d", rec.Code)
	}
}

// TestHTTPTimeBudget checks that a request stops at its time budget and
// reports the games finished.
func TestLabTimeBudget(t *testing.T) {
	h := newLabHandler(LabOptions{MaxTime: 50 * time.Millisecond, MaxGames: 1_000_000}, slog.New(slog.DiscardHandler))
	start := time.Now()
	rec, out := labPost(t, h, `{"rulesets":["tsoro size=21 heads=none bonus=0"],"games":1000000}`)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v with a 50 ms budget", took)
	}
	if rec.Code != http.StatusOK || out["complete"] != false {
		t.Errorf("%d complete=%v", rec.Code, out["complete"])
	}
	if out["stopped"] != "time" || out["games_asked"] != 1e6 || out["games_finished"].(float64) >= 1e6 {
		t.Errorf("stopped %v, asked %v, finished %v", out["stopped"], out["games_asked"], out["games_finished"])
	}
}

// TestHTTPLevelsStopped checks what a request of level players says when
// its time budget ends before any game does: the games asked and finished
// (none), the reason, the rulesets with no games, and no charts to draw.
func TestLabLevelsStopped(t *testing.T) {
	h := newLabHandler(LabOptions{MaxTime: 300 * time.Millisecond}, slog.New(slog.DiscardHandler))
	rec, _ := labPost(t, h, `{"rulesets":["tsoro","nsolo size=36"],"games":2,"player":"level:8"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	var resp LabResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Complete || resp.Stopped != "time" || resp.GamesAsked != 4 || resp.GamesFinished != 0 || resp.MaxSeconds != 0.3 {
		t.Errorf("complete %v, stopped %q, asked %d, finished %d, budget %v s", resp.Complete, resp.Stopped, resp.GamesAsked, resp.GamesFinished, resp.MaxSeconds)
	}
	if len(resp.Rulesets) != 2 || resp.Rulesets[0].Games != 0 || resp.Rulesets[1].Games != 0 {
		t.Errorf("rulesets %+v", resp.Rulesets)
	}
	if len(resp.Plots) != 0 {
		t.Errorf("charts drawn of no game: %v", slices.Collect(maps.Keys(resp.Plots)))
	}
}

func TestLabLimits(t *testing.T) {
	h := newLabHandler(LabOptions{}, slog.New(slog.DiscardHandler))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/lab", nil))
	body, _ := io.ReadAll(rec.Body)
	var l LabLimits
	if err := json.Unmarshal(body, &l); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %v %s", rec.Code, err, body)
	}
	if l.MaxGames != 20_000 || l.MaxSeconds != 10 || l.MaxRulesets != 8 || len(l.Players) != 9 || l.Players[4] != "level:4" || len(l.Presets) != 5 {
		t.Errorf("limits %+v", l)
	}
}
