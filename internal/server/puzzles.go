package server

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/mancala"
	"matombo/puzzles"
)

// puzzleProvers is how many puzzle moves the solver checks at once (one
// core at most: the games' AI keeps the others); the others wait for a
// prover (at most puzzleWait, then 503). puzzleMoves bounds the moves one
// address may send a minute.
const (
	puzzleProvers = 1
	puzzleWait    = 10 * time.Second
	puzzleMoves   = 120
	// puzzleResults bounds the results one address may send a minute.
	puzzleResults = 30
	// puzzleDeviation is the deviation a puzzle's shipped rating is taken
	// to have: its live rating starts there.
	puzzleDeviation = 80
)

// puzzleRoutes serves the puzzles (/api/puzzles...): the shipped sets,
// read at the first request that needs them, and the provers that check
// moves off the main lines.
type puzzleRoutes struct {
	moves   *limiter // the moves sent, per address
	results *limiter // the results sent, per address
	// ratings keeps the puzzles' live ratings; nil: the shipped ones,
	// never updated.
	ratings accounts.PuzzleStore
	once    sync.Once
	sets    map[string]*puzzles.Set
	rules   map[string]mancala.Ruleset
	order   []string
	provers chan *puzzles.Prover
	err     error // why some sets could not be read, if they could not
}

// load reads the shipped sets and makes the provers, once.
func (pr *puzzleRoutes) load() *puzzleRoutes {
	pr.once.Do(func() {
		pr.sets, pr.rules = map[string]*puzzles.Set{}, map[string]mancala.Ruleset{}
		pr.provers = make(chan *puzzles.Prover, puzzleProvers)
		for _, name := range puzzles.Presets() {
			st, err := puzzles.Load(name)
			if err == nil {
				var rs mancala.Ruleset
				if rs, err = mancala.ParseRuleset(st.Ruleset); err == nil {
					pr.sets[name], pr.rules[name] = st, rs
					pr.order = append(pr.order, name)
					continue
				}
			}
			pr.err = errors.Join(pr.err, err)
		}
		for range puzzleProvers {
			pr.provers <- puzzles.NewProver(puzzles.DefaultBudget)
		}
	})
	return pr
}

func (s *Server) registerPuzzles(m *http.ServeMux) {
	m.HandleFunc("GET /api/puzzles", s.handlePuzzleSets)
	m.HandleFunc("GET /api/puzzles/{preset}", s.handlePuzzleList)
	m.HandleFunc("GET /api/puzzles/{preset}/{id}", s.handlePuzzle)
	m.HandleFunc("GET /api/puzzles/{preset}/{id}/solution", s.handlePuzzleSolution)
	m.HandleFunc("POST /api/puzzles/{preset}/{id}/moves", s.jsonOnly(s.limited(s.puzzles.moves, "puzzle moves", false, s.handlePuzzleMove)))
	m.HandleFunc("POST /api/puzzles/{preset}/{id}/result", s.jsonOnly(s.limited(s.puzzles.results, "puzzle results", false, s.handlePuzzleResult)))
}

// puzzleSetInfo is one preset's line of GET /api/puzzles.
type puzzleSetInfo struct {
	Preset  string `json:"preset"`
	Ruleset string `json:"ruleset"`
	Puzzles int    `json:"puzzles"`
}

// puzzleInfo is a puzzle as the list shows it: no solution. Rating and
// RD are its live rating, rounded; Attempts and Solved count the results
// in it.
type puzzleInfo struct {
	ID       string   `json:"id"`
	Rating   int      `json:"rating"`
	RD       int      `json:"rd"`
	Attempts int      `json:"attempts"`
	Solved   int      `json:"solved"`
	Kind     string   `json:"kind"`
	Themes   []string `json:"themes"`
}

func (s *Server) handlePuzzleSets(w http.ResponseWriter, r *http.Request) {
	pr := s.puzzles.load()
	if pr.err != nil {
		s.log.Warn("some puzzles are not served", "err", pr.err)
	}
	out := []puzzleSetInfo{}
	for _, name := range pr.order {
		st := pr.sets[name]
		out = append(out, puzzleSetInfo{Preset: name, Ruleset: st.Ruleset, Puzzles: len(st.Puzzles)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"sets": out})
}

// puzzleSet returns the set the path's preset names.
func (s *Server) puzzleSet(r *http.Request) (*puzzles.Set, mancala.Ruleset, error) {
	pr := s.puzzles.load()
	name := r.PathValue("preset")
	st, ok := pr.sets[name]
	if !ok {
		return nil, mancala.Ruleset{}, app.Errorf(app.ENotFound, "no puzzles for %q; the presets with puzzles are %v", name, pr.order)
	}
	return st, pr.rules[name], nil
}

// puzzleOf returns the puzzle the path names.
func (s *Server) puzzleOf(r *http.Request) (puzzles.Puzzle, mancala.Ruleset, error) {
	st, rs, err := s.puzzleSet(r)
	if err != nil {
		return puzzles.Puzzle{}, rs, err
	}
	p, ok := st.Find(r.PathValue("id"))
	if !ok {
		return p, rs, app.Errorf(app.ENotFound, "no puzzle %q in %s", r.PathValue("id"), st.Preset)
	}
	return p, rs, nil
}

func (s *Server) handlePuzzleList(w http.ResponseWriter, r *http.Request) {
	st, _, err := s.puzzleSet(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	live, err := s.liveRatings(r.Context(), st.Preset)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := make([]puzzleInfo, len(st.Puzzles))
	for i, p := range st.Puzzles {
		out[i] = infoOf(p, live)
	}
	writeJSON(w, http.StatusOK, map[string]any{"preset": st.Preset, "ruleset": st.Ruleset, "puzzles": out})
}

func themesOf(p puzzles.Puzzle) []string {
	if p.Themes == nil {
		return []string{}
	}
	return p.Themes
}

// puzzleView is a puzzle to play: its position's view, no solution.
type puzzleView struct {
	puzzleInfo
	Preset   string        `json:"preset"`
	Position string        `json:"position"`
	Legal    int           `json:"legal"`
	View     *app.GameView `json:"view"`
}

func (s *Server) handlePuzzle(w http.ResponseWriter, r *http.Request) {
	p, rs, err := s.puzzleOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	live, err := s.liveRatings(r.Context(), r.PathValue("preset"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	st, err := mancala.NewGame(rs)
	if err == nil {
		err = st.SetPosition(p.Position)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, puzzleView{
		puzzleInfo: infoOf(p, live),
		Preset:     rs.Game.String(), Position: p.Position, Legal: p.Legal, View: app.StateView(st),
	})
}

// puzzleMoveRequest is the body of POST .../moves: every action so far
// from the puzzle's position, ending with the player's new one.
type puzzleMoveRequest struct {
	Actions []string `json:"actions"`
}

// puzzleMoveAnswer answers it. Line (the main line) and Best (the action
// that would have kept the win) come once the puzzle is over.
type puzzleMoveAnswer struct {
	Status  string        `json:"status"` // playing, solved or failed
	Replies []string      `json:"replies"`
	Checked bool          `json:"checked"`
	Best    string        `json:"best,omitempty"`
	Line    []string      `json:"line,omitempty"`
	View    *app.GameView `json:"view"`
	// Events are what the player's action, then each reply, did on the
	// board: the game view's events, one list per action.
	Events [][]app.EventView `json:"events"`
}

func (s *Server) handlePuzzleMove(w http.ResponseWriter, r *http.Request) {
	p, rs, err := s.puzzleOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var req puzzleMoveRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), puzzleWait)
	defer cancel()
	var pv *puzzles.Prover
	select {
	case pv = <-s.puzzles.load().provers:
		defer func() { s.puzzles.provers <- pv }()
	case <-ctx.Done():
		s.fail(w, r, app.Errorf(app.EUnavailable, "the puzzle solver is busy; try again in a moment"))
		return
	}
	ans, err := puzzles.Play(ctx, rs, p, req.Actions, pv)
	var pe *puzzles.PlayError
	switch {
	case errors.As(err, &pe):
		s.fail(w, r, app.Errorf(app.EInvalid, "%s", pe.Reason))
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	out := puzzleMoveAnswer{Status: ans.Status, Replies: []string{}, Checked: ans.Checked, View: app.StateView(ans.State), Events: [][]app.EventView{}}
	for _, a := range ans.Replies {
		out.Replies = append(out.Replies, a.String())
	}
	for i, evs := range ans.Events {
		a, by := ans.Action, ans.Player
		if i > 0 {
			a, by = ans.Replies[i-1], ans.Player.Other()
		}
		out.Events = append(out.Events, app.EventViewsOf(evs, a, by))
	}
	if ans.Status != puzzles.StatusPlaying {
		out.Line = p.Line
		if ans.Best != 0 {
			out.Best = ans.Best.String()
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// handlePuzzleSolution answers the puzzle's main line: the player gave up.
func (s *Server) handlePuzzleSolution(w http.ResponseWriter, r *http.Request) {
	p, _, err := s.puzzleOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": p.ID, "action": p.Action, "line": p.Line})
}
