package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"matombo/internal/app"
	"matombo/internal/jsonmsg"
	"matombo/lab"
	"matombo/mancala"
	"matombo/search"
)

// LabOptions bounds what one request to the lab's API may cost. Zero fields
// take the defaults shown.
type LabOptions struct {
	MaxGames      int           // games per request over all rulesets, random players (20,000)
	MaxLevelGames int           // the same for level players (200)
	MaxRulesets   int           // rulesets per request (8)
	MaxTime       time.Duration // wall-clock time per request; the games finished by then are reported (10 s)
	Workers       int           // games played at once, and the workers of each level player's search (0: one game per core, the levels' own search)
}

func (o LabOptions) withDefaults() LabOptions {
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

// LabRequest is the body of POST /api/lab.
type LabRequest struct {
	Rulesets []string `json:"rulesets"`
	Games    int      `json:"games"`  // per ruleset
	Player   string   `json:"player"` // "random" (default) or "level:K"
	Seed     *uint64  `json:"seed"`   // default 1
}

// LabResponse is the answer of POST /api/lab: the report, as
// `matombo lab --json` prints it, and the charts as SVG documents keyed
// "game-length" and "first-player".
type LabResponse struct {
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
	Rulesets        []lab.Summary     `json:"rulesets"`
	Plots           map[string]string `json:"plots"` // none when no game finished; a ruleset without a finished game is left out
}

// LabLimits is the answer of GET /api/lab: the bounds of a request and the
// players accepted.
type LabLimits struct {
	MaxGames      int      `json:"max_games"`
	MaxLevelGames int      `json:"max_level_games"`
	MaxRulesets   int      `json:"max_rulesets"`
	MaxSeconds    float64  `json:"max_seconds"`
	Players       []string `json:"players"`
	Presets       []string `json:"presets"`
}

// labHandler serves the lab's API; see newLabHandler.
type labHandler struct {
	opts LabOptions
	log  *slog.Logger
	busy chan struct{} // holds a token while an experiment runs
}

// newLabHandler returns the lab's JSON API (package lab runs the
// experiments), mounted at /api/lab:
//
//	GET  /api/lab  -> LabLimits
//	POST /api/lab  LabRequest -> LabResponse
//
// A request may play at most opts.MaxGames games in all (opts.MaxLevelGames
// for level players) and runs at most opts.MaxTime; only one experiment
// runs at a time, and a request that comes meanwhile is answered 429.
// Errors are the API's (docs/API.md): JSON {"error": "...", "code": "..."},
// internal ones logged to log and not shown.
func newLabHandler(opts LabOptions, log *slog.Logger) *labHandler {
	return &labHandler{opts: opts.withDefaults(), log: log, busy: make(chan struct{}, 1)}
}

func (h *labHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		writeJSON(w, http.StatusOK, h.limits())
	case http.MethodPost:
		h.run(w, r)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		writeError(w, h.log, r, app.Errorf(app.EMethodNotAllowed, "lab: method %s is not allowed; use GET for the limits or POST to run an experiment", r.Method))
	}
}

func (h *labHandler) limits() LabLimits {
	l := LabLimits{
		MaxGames:      h.opts.MaxGames,
		MaxLevelGames: h.opts.MaxLevelGames,
		MaxRulesets:   h.opts.MaxRulesets,
		MaxSeconds:    h.opts.MaxTime.Seconds(),
		Players:       []string{"random"},
	}
	for k := search.MinLevel; k <= search.MaxLevel; k++ {
		l.Players = append(l.Players, lab.Player{Level: k}.String())
	}
	for _, rs := range mancala.Presets() {
		l.Presets = append(l.Presets, rs.String())
	}
	return l
}

// labInvalid is the EInvalid error of a lab request.
func labInvalid(format string, args ...any) error {
	return app.Errorf(app.EInvalid, "lab: "+format, args...)
}

// parseRequest reads and checks the body, and returns the experiment. The
// whole body is read, so a body over maxJSONBody is refused (ETooLarge)
// even if its first JSON value ends within the limit.
func (h *labHandler) parseRequest(w http.ResponseWriter, r *http.Request) (lab.Config, error) {
	var req LabRequest
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return lab.Config{}, app.Errorf(app.ETooLarge, "lab: the request body is larger than %d bytes", maxJSONBody)
	case err != nil:
		return lab.Config{}, labInvalid("cannot read the request body: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return lab.Config{}, labInvalid("the body is not a JSON request such as {\"rulesets\":[\"tsoro size=8\"],\"games\":1000,\"player\":\"random\"} (at most %d bytes): %s", maxJSONBody, jsonmsg.Describe(err, &req))
	}
	if dec.More() {
		return lab.Config{}, labInvalid("data after the JSON request; send one object such as {\"rulesets\":[\"tsoro size=8\"],\"games\":1000}")
	}
	if len(req.Rulesets) == 0 || len(req.Rulesets) > h.opts.MaxRulesets {
		return lab.Config{}, labInvalid("%d rulesets; give 1 to %d", len(req.Rulesets), h.opts.MaxRulesets)
	}
	cfg := lab.Config{Games: req.Games, Seed: 1, Workers: h.opts.Workers, SearchWorkers: h.opts.Workers}
	if req.Seed != nil {
		cfg.Seed = *req.Seed
	}
	for _, text := range req.Rulesets {
		rs, err := mancala.ParseRuleset(text)
		if err != nil {
			return lab.Config{}, labInvalid("bad ruleset %q: %s", text, mancala.Message(err))
		}
		cfg.Rulesets = append(cfg.Rulesets, rs)
	}
	if req.Player == "" {
		req.Player = "random"
	}
	if cfg.Player, err = lab.ParsePlayer(req.Player); err != nil {
		return lab.Config{}, app.Errorf(app.EInvalid, "%v", err)
	}
	limit := h.opts.MaxGames
	if cfg.Player.Level != 0 {
		limit = h.opts.MaxLevelGames
		cfg.Opening = lab.DefaultOpening
	}
	if req.Games < 1 || req.Games*len(cfg.Rulesets) > limit {
		return lab.Config{}, labInvalid("%d games per ruleset for %d rulesets; a request may play 1 to %d games in all with %s players",
			req.Games, len(cfg.Rulesets), limit, cfg.Player)
	}
	if err := cfg.Validate(); err != nil {
		return lab.Config{}, app.Errorf(app.EInvalid, "%v", err)
	}
	return cfg, nil
}

func (h *labHandler) run(w http.ResponseWriter, r *http.Request) {
	cfg, err := h.parseRequest(w, r)
	if err != nil {
		writeError(w, h.log, r, err)
		return
	}
	select {
	case h.busy <- struct{}{}:
		defer func() { <-h.busy }()
	default:
		writeError(w, h.log, r, app.Errorf(app.ERateLimited, "lab: another experiment is running; only one runs at a time, try again when it ends"))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.MaxTime)
	defer cancel()
	rep, err := lab.Run(ctx, cfg)
	if err != nil {
		writeError(w, h.log, r, fmt.Errorf("lab: run: %w", err))
		return
	}
	plots, err := lab.SVGPlots(rep)
	if err != nil {
		writeError(w, h.log, r, fmt.Errorf("lab: plots: %w", err))
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
	resp := LabResponse{
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
	}
	body, err := json.Marshal(resp) // before the status is sent
	if err != nil {
		writeError(w, h.log, r, fmt.Errorf("lab: the report cannot be written as JSON: %w", err))
		return
	}
	writeJSON(w, http.StatusOK, json.RawMessage(body))
}
