package server

import (
	"context"
	"crypto/subtle"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"matombo/internal/app"
)

// actionBuckets are the upper bounds, in seconds, of the action latency
// histogram: from a millisecond to ten seconds.
var actionBuckets = [...]float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// metrics counts what /metrics reports, in the Prometheus text format. The
// counters are atomics, so counting costs no lock on the action path.
type metrics struct {
	start   time.Time
	actions [2][2]atomic.Uint64 // [via: http, ws][ok, refused]
	buckets [len(actionBuckets) + 1]atomic.Uint64
	sumNs   atomic.Uint64
}

var (
	viaNames    = [2]string{"http", "ws"}
	resultNames = [2]string{"ok", "refused"}
)

const (
	viaHTTP = 0
	viaWS   = 1
)

// act runs the service's Act and counts it with its latency.
func (s *Server) act(ctx context.Context, via int, id, token, action string, ply int) (*app.ActResult, error) {
	start := time.Now()
	res, err := s.svc.Act(ctx, id, token, action, ply)
	s.metrics.observe(via, err == nil, time.Since(start))
	return res, err
}

func (m *metrics) observe(via int, ok bool, d time.Duration) {
	result := 0
	if !ok {
		result = 1
	}
	m.actions[via][result].Add(1)
	i := 0
	for i < len(actionBuckets) && d.Seconds() > actionBuckets[i] {
		i++
	}
	m.buckets[i].Add(1)
	m.sumNs.Add(uint64(d.Nanoseconds()))
}

// handleMetrics serves the metrics in the Prometheus text exposition format.
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	if s.metricsToken != "" {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(got), []byte(s.metricsToken)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="matombo metrics"`)
			writeError(w, s.log, r, app.Errorf(app.EUnauthorized, "/metrics needs the operator's token: Authorization: Bearer <token> (the server's --metrics-token or MATOMBO_METRICS_TOKEN)"))
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	games, sockets := s.hub.counts()
	s.metrics.write(w, games, sockets)
	writeAI(w, s.svc.AIStats())
}

func (m *metrics) write(w io.Writer, games, sockets int) {
	gauge := func(name, help string, v float64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n%s %s\n", name, help, name, name, formatFloat(v))
	}
	gauge("matombo_games_in_progress", "Games being played here: games with at least one live connection to this instance.", float64(games))
	gauge("matombo_websockets", "Open WebSocket connections.", float64(sockets))
	gauge("matombo_goroutines", "Goroutines of the process.", float64(runtime.NumGoroutine()))
	gauge("matombo_uptime_seconds", "Seconds since the server started.", time.Since(m.start).Seconds())

	fmt.Fprintf(w, "# HELP matombo_actions_total Actions received, by transport and by result (refused: illegal, stale, unauthorised or failed); rate() gives actions per second.\n# TYPE matombo_actions_total counter\n")
	for via := range viaNames {
		for result := range resultNames {
			fmt.Fprintf(w, "matombo_actions_total{via=%q,result=%q} %d\n", viaNames[via], resultNames[result], m.actions[via][result].Load())
		}
	}

	fmt.Fprintf(w, "# HELP matombo_action_seconds Time to check, store and acknowledge an action.\n# TYPE matombo_action_seconds histogram\n")
	var cumulative uint64
	for i := range m.buckets {
		cumulative += m.buckets[i].Load()
		le := "+Inf"
		if i < len(actionBuckets) {
			le = formatFloat(actionBuckets[i])
		}
		fmt.Fprintf(w, "matombo_action_seconds_bucket{le=%q} %d\n", le, cumulative)
	}
	fmt.Fprintf(w, "matombo_action_seconds_sum %s\n", formatFloat(float64(m.sumNs.Load())/1e9))
	fmt.Fprintf(w, "matombo_action_seconds_count %d\n", cumulative)
}

// writeAI writes the AI's scheduling metrics (app.AIStats).
func writeAI(w io.Writer, st app.AIStats) {
	metric := func(name, kind, help string, v float64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, kind, name, formatFloat(v))
	}
	metric("matombo_ai_thinkers", "gauge", "AI turns thought at once at their level.", float64(st.Thinkers))
	metric("matombo_ai_thinking", "gauge", "AI turns being thought at their level now.", float64(st.Thinking))
	metric("matombo_ai_queued", "gauge", "AI turns waiting for a thinker or a quick worker now.", float64(st.Queued))
	metric("matombo_ai_turns_total", "counter", "AI turns played by a thinker at their level.", float64(st.Turns))
	metric("matombo_ai_downgraded_total", "counter", "AI turns played at a cheaper level (app.QuickLevel) because no thinker was free within the wait (app.DefaultAIWait).", float64(st.Downgraded))
	metric("matombo_ai_search_failures_total", "counter", "AI searches that failed (searched again at a cheaper level, or the game waits for its next visit).", float64(st.Failures))
	metric("matombo_ai_background_thinking", "gauge", "Searches of game reviews and of the analysis board holding a thinker now (after the AI turns, at most half the thinkers).", float64(st.BackgroundThinking))
	metric("matombo_ai_background_searches_total", "counter", "Searches of game reviews and of the analysis board given a thinker.", float64(st.Background))
	metric("matombo_ai_refused_total", "counter", "AI turns not queued because the queue was full (the game goes on at its next visit).", float64(st.Refused))

	fmt.Fprintf(w, "# HELP matombo_ai_wait_seconds Wait of an AI turn from queued to its search's start.\n# TYPE matombo_ai_wait_seconds histogram\n")
	var cumulative uint64
	for i := range st.Waits {
		cumulative += st.Waits[i]
		le := "+Inf"
		if i < len(app.AIWaitBounds) {
			le = formatFloat(app.AIWaitBounds[i].Seconds())
		}
		fmt.Fprintf(w, "matombo_ai_wait_seconds_bucket{le=%q} %d\n", le, cumulative)
	}
	fmt.Fprintf(w, "matombo_ai_wait_seconds_sum %s\n", formatFloat(st.WaitSum.Seconds()))
	fmt.Fprintf(w, "matombo_ai_wait_seconds_count %d\n", cumulative)
}

func formatFloat(v float64) string {
	if math.IsInf(v, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
