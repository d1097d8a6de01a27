package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"matombo/internal/jsonmsg"
	"matombo/mancala"
	"matombo/search"
)

// HTTPOptions bounds what one request to the lab's HTTP handler may cost.
// Zero fields take the defaults shown.
type HTTPOptions struct {
	MaxGames      int           // games per request over all rulesets, random players (20,000)
	MaxLevelGames int           // the same for level players (200)
	MaxRulesets   int           // rulesets per request (8)
	MaxTime       time.Duration // wall-clock time per request; the games finished by then are reported (10 s)
	Workers       int           // games played at once (0: one per core)
}

func (o HTTPOptions) withDefaults() HTTPOptions {
	if o.MaxGames <= 0 {
		o.MaxGames = 20_000
	}
	if o.MaxLevelGames <= 0 {
		o.MaxLevelGames = 200
	}
	if o.MaxRulesets <= 0 {
		o.MaxRulesets = 8
	}
	if o.MaxTime <= 0 {
		o.MaxTime = 10 * time.Second
	}
	return o
}

// HTTPRequest is the body of POST /api/lab.
type HTTPRequest struct {
	Rulesets []string `json:"rulesets"`
	Games    int      `json:"games"`  // per ruleset
	Player   string   `json:"player"` // "random" (default) or "level:K"
	Seed     *uint64  `json:"seed"`   // default 1
}

// HTTPResponse is the answer of POST /api/lab: the report, as
// `matombo lab --json` prints it, and the charts as SVG documents keyed
// "game-length" and "first-player".
type HTTPResponse struct {
	Player          string            `json:"player"`
	Seed            uint64            `json:"seed"`
	Opening         int               `json:"opening_turns"`
	GamesPerRuleset int               `json:"games_per_ruleset"`
	Complete        bool              `json:"complete"`       // false: stopped early (see Stopped)
	GamesAsked      int64             `json:"games_asked"`    // over all rulesets
	GamesFinished   int64             `json:"games_finished"` // over all rulesets; each ruleset's are its games
	Stopped         string            `json:"stopped"`        // why it stopped early: "time" (the request's time budget, max_seconds, ran out) or "cancelled"; "" when complete
	MaxSeconds      float64           `json:"max_seconds"`    // the time budget of a request
	ElapsedMS       int64             `json:"elapsed_ms"`
	Rulesets        []Summary         `json:"rulesets"`
	Plots           map[string]string `json:"plots"` // none when no game finished; a ruleset without a finished game is left out
}

// HTTPLimits is the answer of GET /api/lab: the bounds of a request and
// the players accepted.
type HTTPLimits struct {
	MaxGames      int      `json:"max_games"`
	MaxLevelGames int      `json:"max_level_games"`
	MaxRulesets   int      `json:"max_rulesets"`
	MaxSeconds    float64  `json:"max_seconds"`
	Players       []string `json:"players"`
	Presets       []string `json:"presets"`
}

// maxBody bounds the request body.
const maxBody = 16 << 10

// handler serves the lab's API; see NewHTTPHandler.
type handler struct {
	opts HTTPOptions
	busy chan struct{} // holds a token while an experiment runs
}

// NewHTTPHandler returns the lab's JSON API for the web app, meant to be
// mounted at /api/lab:
//
//	GET  /api/lab  -> HTTPLimits
//	POST /api/lab  HTTPRequest -> HTTPResponse
//
// A request may play at most opts.MaxGames games in all (opts.MaxLevelGames
// for level players) and runs at most opts.MaxTime; only one experiment
// runs at a time, and a request that comes meanwhile is answered 429.
// Errors are JSON {"error": "...", "code": "..."} as in the rest of the API.
func NewHTTPHandler(opts HTTPOptions) http.Handler {
	return &handler{opts: opts.withDefaults(), busy: make(chan struct{}, 1)}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		writeJSON(w, http.StatusOK, h.limits())
	case http.MethodPost:
		h.run(w, r)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", fmt.Sprintf("lab: method %s is not allowed; use GET for the limits or POST to run an experiment", r.Method))
	}
}

func (h *handler) limits() HTTPLimits {
	l := HTTPLimits{
		MaxGames:      h.opts.MaxGames,
		MaxLevelGames: h.opts.MaxLevelGames,
		MaxRulesets:   h.opts.MaxRulesets,
		MaxSeconds:    h.opts.MaxTime.Seconds(),
		Players:       []string{"random"},
	}
	for k := search.MinLevel; k <= search.MaxLevel; k++ {
		l.Players = append(l.Players, Player{Level: k}.String())
	}
	for _, rs := range mancala.Presets() {
		l.Presets = append(l.Presets, rs.String())
	}
	return l
}

// errTooLarge refuses a body over maxBody: 413 too_large, as in the rest of
// the API.
var errTooLarge = fmt.Errorf("lab: the request body is larger than %d bytes", maxBody)

// parseRequest reads and checks the body, and returns the experiment. The
// whole body is read, so a body over maxBody is refused (errTooLarge) even
// if its first JSON value ends within the limit.
func (h *handler) parseRequest(w http.ResponseWriter, r *http.Request) (Config, error) {
	var req HTTPRequest
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return Config{}, errTooLarge
	case err != nil:
		return Config{}, fmt.Errorf("lab: cannot read the request body: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return Config{}, fmt.Errorf("lab: the body is not a JSON request such as {\"rulesets\":[\"tsoro size=8\"],\"games\":1000,\"player\":\"random\"} (at most %d bytes): %s", maxBody, jsonmsg.Describe(err, &req))
	}
	if dec.More() {
		return Config{}, fmt.Errorf("lab: data after the JSON request; send one object such as {\"rulesets\":[\"tsoro size=8\"],\"games\":1000}")
	}
	if len(req.Rulesets) == 0 || len(req.Rulesets) > h.opts.MaxRulesets {
		return Config{}, fmt.Errorf("lab: %d rulesets; give 1 to %d", len(req.Rulesets), h.opts.MaxRulesets)
	}
	cfg := Config{Games: req.Games, Seed: 1, Workers: h.opts.Workers}
	if req.Seed != nil {
		cfg.Seed = *req.Seed
	}
	for _, text := range req.Rulesets {
		rs, err := mancala.ParseRuleset(text)
		if err != nil {
			return Config{}, fmt.Errorf("lab: bad ruleset %q: %s", text, mancala.Message(err))
		}
		cfg.Rulesets = append(cfg.Rulesets, rs)
	}
	if req.Player == "" {
		req.Player = "random"
	}
	if cfg.Player, err = ParsePlayer(req.Player); err != nil {
		return Config{}, err
	}
	limit := h.opts.MaxGames
	if cfg.Player.Level != 0 {
		limit = h.opts.MaxLevelGames
		cfg.Opening = DefaultOpening
	}
	if req.Games < 1 || req.Games*len(cfg.Rulesets) > limit {
		return Config{}, fmt.Errorf("lab: %d games per ruleset for %d rulesets; a request may play 1 to %d games in all with %s players",
			req.Games, len(cfg.Rulesets), limit, cfg.Player)
	}
	return cfg, cfg.Validate()
}

func (h *handler) run(w http.ResponseWriter, r *http.Request) {
	cfg, err := h.parseRequest(w, r)
	switch {
	case err == errTooLarge:
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", err.Error())
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	select {
	case h.busy <- struct{}{}:
		defer func() { <-h.busy }()
	default:
		writeError(w, http.StatusTooManyRequests, "rate_limited", "lab: another experiment is running; only one runs at a time, try again when it ends")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.MaxTime)
	defer cancel()
	rep, err := Run(ctx, cfg)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	plots, err := SVGPlots(rep)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	var finished int64
	for _, s := range rep.Rulesets {
		finished += s.Games
	}
	stopped := ""
	if !rep.Complete {
		stopped = "time"
		if r.Context().Err() != nil {
			stopped = "cancelled"
		}
	}
	writeJSON(w, http.StatusOK, HTTPResponse{
		Player:          rep.Player,
		Seed:            rep.Seed,
		Opening:         rep.Opening,
		GamesPerRuleset: rep.Games,
		Complete:        rep.Complete,
		GamesAsked:      int64(rep.Games) * int64(len(rep.Rulesets)),
		GamesFinished:   finished,
		Stopped:         stopped,
		MaxSeconds:      h.opts.MaxTime.Seconds(),
		ElapsedMS:       rep.Elapsed.Milliseconds(),
		Rulesets:        rep.Rulesets,
		Plots:           plots,
	})
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"error":"lab: the report cannot be written as JSON","code":"internal"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// writeError answers an error in the API's shape.
func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}{msg, code})
}
