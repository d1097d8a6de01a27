package server

import (
	"net/http"
	"strings"
	"time"

	"matombo/internal/app"
)

// The game review and the analysis board (docs/API.md): the reviews of
// finished games, started with POST and followed with GET while they run
// (the answer's done and total: the progress), and the analysis board's
// states, evaluated on request. Their searches run on the service's AI
// scheduler after the live games' AI turns (app's review_sched.go).

// The analysis's limits per client address a minute: reviews started (or
// asked for again), and the analysis board's evaluations; a request the
// service refuses does not count.
const (
	reviewsPerMinute     = 30
	evaluationsPerMinute = 300
)

// registerReview adds the review's and the analysis board's routes to m.
func (s *Server) registerReview(m *http.ServeMux) {
	reviews := newLimiter(reviewsPerMinute, time.Minute, "reviews started")
	evals := newLimiter(evaluationsPerMinute, time.Minute, "positions analysed")
	m.HandleFunc("POST /api/games/{id}/review", s.limited(reviews, "reviews asked", true, s.handleStartReview))
	m.HandleFunc("GET /api/games/{id}/review", s.handleReview)
	board := s.limited(evals, "analyses asked", true, s.handleBoard)
	m.HandleFunc("GET /api/analysis", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("eval") == "1" {
			board(w, r)
			return
		}
		s.handleBoard(w, r) // playing on the board searches nothing
	})
}

// reviewStatus is the HTTP status of a review's view: 202 while it runs.
func reviewStatus(v *app.ReviewView) int {
	if v.Status == "running" {
		return http.StatusAccepted
	}
	return http.StatusOK
}

func (s *Server) handleStartReview(w http.ResponseWriter, r *http.Request) {
	v, err := s.svc.StartReview(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, reviewStatus(v), v)
}

func (s *Server) handleReview(w http.ResponseWriter, r *http.Request) {
	v, err := s.svc.Review(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, reviewStatus(v), v)
}

// handleBoard answers GET /api/analysis?ruleset=…&pos=…&actions=a3,xd4…
// [&eval=1].
func (s *Server) handleBoard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	req := app.BoardRequest{Ruleset: q.Get("ruleset"), Position: q.Get("pos")}
	switch e := q.Get("eval"); e {
	case "", "0":
	case "1":
		req.Evaluate = true
	default:
		s.fail(w, r, app.Errorf(app.EInvalid, "eval %q is not allowed; eval is 1 (evaluate the position) or 0", printable(e)))
		return
	}
	if req.Ruleset == "" {
		s.fail(w, r, app.Errorf(app.EInvalid, "the analysis board needs a ruleset: /api/analysis?ruleset=tsoro&pos=…"))
		return
	}
	if a := q.Get("actions"); a != "" {
		req.Actions = strings.Split(a, ",")
		if len(req.Actions) > app.MaxBoardActions {
			s.fail(w, r, app.Errorf(app.EInvalid, "%d actions given; the analysis board plays at most %d from its position", len(req.Actions), app.MaxBoardActions))
			return
		}
	}
	v, err := s.svc.Board(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
