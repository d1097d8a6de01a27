package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"

	"matombo/mancala"
	"matombo/search"
)

// The review of finished games (search.ReviewGame), run in the background
// on the AI's scheduler (review_sched.go) with every position's
// evaluation kept (review_cache.go): a second review of a game searches
// nothing.

const (
	// maxReviews bounds the reviews running at once; one more is refused
	// (ERateLimited) until one ends.
	maxReviews = 32
	// keptReviews bounds the finished reviews kept whole; an older one is
	// made again from the kept evaluations when asked for.
	keptReviews = 256
)

// ChanceView is how a position stands for South, as reviews and the
// analysis board show it.
type ChanceView struct {
	South  float64  `json:"south"`           // South's winning chance, percent, a draw counting half
	Proven bool     `json:"proven"`          // proven by the exact solver, or the game is over
	Score  *float64 `json:"score,omitempty"` // the search's score for South, stones (unproven only)
	Text   string   `json:"text"`            // for people: "57.3%" or "South wins: proven"
}

func chanceView(c search.Chance) ChanceView {
	v := ChanceView{South: math.Round(c.South*1000) / 10, Proven: c.Proven, Text: c.String()}
	if !c.Proven {
		sc := float64(c.Score) / 100
		v.Score = &sc
	}
	return v
}

// ReviewTurn is the review of one turn of a game (docs/API.md).
type ReviewTurn struct {
	Turn      int        `json:"turn"`   // the turn's index in the record, from 1
	Number    string     `json:"number"` // its move number as written: "12." or "12..."
	Side      string     `json:"side"`   // "S", "N", or "both" for the simultaneous Choro opening
	Actions   string     `json:"actions"`
	Position  string     `json:"position"` // the position the turn starts from
	Before    ChanceView `json:"before"`   // with best play
	After     ChanceView `json:"after"`    // once the turn was played
	Best      string     `json:"best"`     // the best turn from Position
	PV        string     `json:"pv"`       // the line the search expects, from Best
	Drop      float64    `json:"drop"`     // points of the mover's chance lost (negative: gained)
	Judgement string     `json:"judgement"`
	Note      string     `json:"note,omitempty"`
}

// ReviewView is the review of a finished game, while it runs and once
// done (docs/API.md).
type ReviewView struct {
	Game    string       `json:"game"`
	Ruleset string       `json:"ruleset"`
	Status  string       `json:"status"` // "running", "done" or "failed"
	Done    int          `json:"done"`   // positions evaluated
	Total   int          `json:"total"`  // positions to evaluate
	Limits  string       `json:"limits"`
	Error   string       `json:"error,omitempty"` // why it failed
	Turns   []ReviewTurn `json:"turns"`           // once done
	// Thresholds are the drops, in points, from which a turn is an
	// inaccuracy, a mistake and a blunder.
	Thresholds map[string]int `json:"thresholds"`
}

// ReviewStore keeps finished reviews beyond the process, shared by the
// instances of a server; a Store may implement it (the SQLite and
// PostgreSQL stores do). A review is kept by its game and the search it
// was made with (ReviewView.Limits), as the JSON of its turns.
type ReviewStore interface {
	// StoredReview returns the review of game made with limits; nil, and
	// no error, if there is none.
	StoredReview(ctx context.Context, game, limits string) ([]byte, error)
	// PutReview stores the review of game made with limits, replacing
	// one stored before.
	PutReview(ctx context.Context, game, limits string, body []byte) error
}

// reviews are the reviews running and the finished ones kept.
type reviews struct {
	as      *analysts
	store   ReviewStore // nil: the reviews are kept in memory only
	mu      sync.Mutex
	jobs    map[string]*reviewJob
	done    []string // the games of the finished reviews, oldest first
	running int
	wg      sync.WaitGroup
}

// reviewJob is the review of one game; reviews.mu guards it.
type reviewJob struct {
	view ReviewView
}

func newReviews(as *analysts, store Store) *reviews {
	r := &reviews{as: as, jobs: map[string]*reviewJob{}}
	r.store, _ = store.(ReviewStore)
	return r
}

// wait waits for the reviews running (the scheduler is closed: they end).
func (r *reviews) wait() { r.wg.Wait() }

// StartReview starts the review of finished game id, or returns the
// review already running or done (a failed one starts again).
func (s *Service) StartReview(ctx context.Context, id string) (*ReviewView, error) {
	r := s.reviews
	r.mu.Lock()
	if j, ok := r.jobs[id]; ok && j.view.Status != "failed" {
		v := j.snapshot()
		r.mu.Unlock()
		return v, nil
	}
	r.mu.Unlock()
	p, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if !p.g.Over() {
		return nil, Errorf(EConflict, "game %s is in play; a game is reviewed once it is over", id)
	}
	rec, _ := p.record()
	limits := limitsText(r.as.limits())
	var stored []ReviewTurn
	if r.store != nil {
		body, err := r.store.StoredReview(ctx, id, limits)
		if err == nil && body != nil {
			err = json.Unmarshal(body, &stored)
		}
		if err != nil {
			s.log.Warn("review: read a stored review; it is made again", "game", id, "err", err)
			stored = nil
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if j, ok := r.jobs[id]; ok && j.view.Status != "failed" { // started meanwhile
		return j.snapshot(), nil
	}
	if r.running >= maxReviews {
		return nil, Errorf(ERateLimited, "%d reviews are running already; ask again in a moment", maxReviews)
	}
	j := &reviewJob{view: ReviewView{Game: id, Ruleset: rec.Ruleset.String(), Status: "running", Total: search.ReviewPositions(rec),
		Limits: limits, Turns: []ReviewTurn{}, Thresholds: thresholds()}}
	r.jobs[id] = j
	if stored != nil {
		j.view.Status, j.view.Done, j.view.Turns = "done", j.view.Total, stored
		r.kept(id)
		return j.snapshot(), nil
	}
	r.running++
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.run(s.sched.ctx, s.log, j, rec)
	}()
	return j.snapshot(), nil
}

// Review returns the review of game id, running or done.
func (s *Service) Review(ctx context.Context, id string) (*ReviewView, error) {
	r := s.reviews
	r.mu.Lock()
	defer r.mu.Unlock()
	j, ok := r.jobs[id]
	if !ok {
		return nil, Errorf(ENotFound, "game %s has no review; start one with POST /api/games/%s/review", id, id)
	}
	return j.snapshot(), nil
}

// run reviews rec for j.
func (r *reviews) run(ctx context.Context, log *slog.Logger, j *reviewJob, rec *mancala.Record) {
	ev := evaluator{as: r.as, progress: func() {
		r.mu.Lock()
		j.view.Done = min(j.view.Done+1, j.view.Total)
		r.mu.Unlock()
	}}
	rev, err := search.ReviewGame(ctx, rec, ev, r.as.limits())
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running--
	if err != nil {
		j.view.Status, j.view.Error = "failed", fmt.Sprintf("the review stopped: %v", err)
		return
	}
	j.view.Status, j.view.Done, j.view.Turns = "done", j.view.Total, reviewTurns(rec, rev)
	r.kept(j.view.Game)
	if r.store != nil {
		body, err := json.Marshal(j.view.Turns)
		if err == nil {
			err = r.store.PutReview(context.WithoutCancel(ctx), j.view.Game, j.view.Limits, body)
		}
		if err != nil { // kept in memory; made again after a restart
			log.Warn("review: store a review", "game", j.view.Game, "err", err)
		}
	}
}

// kept counts the review of game as finished, forgetting the oldest
// finished one beyond keptReviews. Call it with mu held.
func (r *reviews) kept(game string) {
	r.done = append(r.done, game)
	for len(r.done) > keptReviews {
		delete(r.jobs, r.done[0])
		r.done = r.done[1:]
	}
}

// snapshot copies the view (the turns are not changed once set).
func (j *reviewJob) snapshot() *ReviewView {
	v := j.view
	return &v
}

// reviewTurns turns rev, the review of rec, into views.
func reviewTurns(rec *mancala.Record, rev *search.GameReview) []ReviewTurn {
	out := make([]ReviewTurn, 0, len(rev.Turns))
	s, err := rec.Start()
	if err != nil {
		return out
	}
	for i, tr := range rev.Turns {
		side := tr.Side.String()
		if tr.Simultaneous {
			side = "both"
		}
		t := ReviewTurn{Turn: tr.Turn, Number: tr.Number, Side: side, Actions: search.FormatTurn(tr.Actions, tr.Simultaneous),
			Position: s.Position(), Before: chanceView(tr.Before), After: chanceView(tr.After),
			Best: search.FormatTurn(tr.Best, tr.Simultaneous), PV: search.FormatLine(tr.Number, tr.Side, tr.PV),
			Drop: math.Round(tr.Drop*10)/10 + 0, Judgement: string(tr.Judgement), Note: tr.Note}
		if tr.Opening != nil {
			t.Before.Score = nil // a matrix game's value, not a search's score
		}
		out = append(out, t)
		if i < len(rec.Turns) {
			for _, a := range rec.Turns[i] {
				if s.Apply(a) != nil {
					return out
				}
			}
		}
	}
	return out
}

// thresholds are the judgements' drops, for the views.
func thresholds() map[string]int {
	return map[string]int{"inaccuracy": search.InaccuracyDrop, "mistake": search.MistakeDrop, "blunder": search.BlunderDrop}
}

// limitsText describes the search of a position: "depth 6, 64,000 nodes".
func limitsText(lim search.Limits) string {
	var parts []string
	if lim.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", lim.Depth))
	}
	if lim.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("%d nodes", lim.Nodes))
	}
	if lim.MoveTime > 0 {
		parts = append(parts, lim.MoveTime.String())
	}
	return fmt.Sprintf("level %d (%s)", search.AnalysisLevel, strings.Join(parts, ", "))
}
