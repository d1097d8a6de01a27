package search

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"matombo/mancala"
)

// AlphaBetaConfig configures the alpha-beta player.
type AlphaBetaConfig struct {
	Seed      uint64    // seeds the noise and blunders of weak levels
	Workers   int       // root actions are shared among this many workers, 1 to 64
	TableBits int       // each worker's transposition table has 2^TableBits entries, 8 to 26
	Eval      Evaluator // scores the leaves; nil means Linear{DefaultWeights}
	Noise     int       // adds a uniform random -Noise..Noise to each root score (weak levels)
	Blunder   float64   // probability of playing a uniformly random action instead, 0 to 1
	Limits    Limits    // used when Choose gets zero limits
	// Quiesce is the most decisions of quiescence search beyond the depth
	// limit, 0 to MaxQuiesce: a leaf where the side to move can capture is
	// searched on over its capturing actions (with the static score as the
	// floor) instead of being scored as it stands. 0 turns it off.
	Quiesce int
}

// MaxQuiesce is the largest AlphaBetaConfig.Quiesce.
const MaxQuiesce = 16

// DefaultAlphaBeta returns the configuration of the full-strength
// alpha-beta player: two workers, tuned evaluation, one second a decision.
func DefaultAlphaBeta(seed uint64) AlphaBetaConfig {
	return AlphaBetaConfig{Seed: seed, Workers: 2, TableBits: 20, Eval: Linear{DefaultWeights}, Limits: Limits{MoveTime: time.Second}}
}

// Validate reports whether c is usable.
func (c AlphaBetaConfig) Validate() error {
	switch {
	case c.Workers < 1 || c.Workers > 64:
		return fmt.Errorf("search: alpha-beta workers %d out of range; use 1 to 64", c.Workers)
	case c.TableBits < 8 || c.TableBits > 26:
		return fmt.Errorf("search: table bits %d out of range; use 8 to 26", c.TableBits)
	case c.Noise < 0:
		return fmt.Errorf("search: noise %d is negative; use 0 or more", c.Noise)
	case !(c.Blunder >= 0 && c.Blunder <= 1):
		return fmt.Errorf("search: blunder rate %v out of range; use 0 to 1", c.Blunder)
	case c.Quiesce < 0 || c.Quiesce > MaxQuiesce:
		return fmt.Errorf("search: quiescence depth %d out of range; use 0 to %d", c.Quiesce, MaxQuiesce)
	}
	return c.Limits.Validate()
}

// AlphaBeta is a negamax player with iterative deepening, a transposition
// table, move ordering (table move, killers, history) and a linear
// evaluation. The root actions are shared among the workers in a fixed way
// and every worker has its own table, so a search with a node or depth limit
// gives the same result every time.
//
// In the simultaneous Choro opening it solves the matrix game of its scores
// of the joint openings, each searched within a 64th of the limits (the
// time shared out as the searches go), and
// draws its choice from the equilibrium with its seed; it chooses from the
// position before South's choice, so it never uses that choice.
type AlphaBeta struct {
	cfg     AlphaBetaConfig
	workers []*abWorker
	last    Stats
	opening openingCache
}

// NewAlphaBeta returns an alpha-beta player, or an error if cfg is invalid.
func NewAlphaBeta(cfg AlphaBetaConfig) (*AlphaBeta, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Eval == nil {
		cfg.Eval = Linear{DefaultWeights}
	}
	ab := &AlphaBeta{cfg: cfg}
	for range cfg.Workers {
		ab.workers = append(ab.workers, &abWorker{cfg: &ab.cfg, tt: newTable(cfg.TableBits)})
	}
	return ab, nil
}

// LastStats returns the statistics of the last Choose.
func (ab *AlphaBeta) LastStats() Stats { return ab.last }

type abWorker struct {
	cfg     *AlphaBetaConfig
	tt      *table
	states  []*mancala.State
	legal   [][]mancala.Action
	keys    [][]int32
	killers [MaxDepth + 2][2]mancala.Action
	history [2][1 << 11]int32
	scratch *mancala.State
	clk     *clock
	budget  int
	nodes   int
	leaves  int
	stop    bool
}

// rootScore is the result of one root action in one iteration.
type rootScore struct {
	action mancala.Action
	score  int
	exact  bool // score is the action's value, not only an upper bound
}

// Choose searches s and returns the best action found.
func (ab *AlphaBeta) Choose(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error) {
	if err := begin(s, lim); err != nil {
		return 0, err
	}
	if lim.MoveTime == 0 && lim.Nodes == 0 && lim.Depth == 0 { // none of the limits it knows
		lim = ab.cfg.Limits
	}
	start := time.Now()
	if s.InSimultaneousOpening() {
		a, err := ab.chooseOpening(ctx, s, openingLimits(lim, 0), lim.MoveTime)
		ab.last = Stats{Elapsed: time.Since(start)}
		return a, err
	}
	legal := s.Legal(nil)
	rng := rand.New(rand.NewPCG(ab.cfg.Seed, positionSeed(s)))
	if len(legal) == 1 {
		ab.last = Stats{Elapsed: time.Since(start)}
		return legal[0], nil
	}
	if ab.cfg.Blunder > 0 && rng.Float64() < ab.cfg.Blunder {
		ab.last = Stats{Elapsed: time.Since(start)}
		return legal[rng.IntN(len(legal))], nil
	}
	order, st := ab.deepen(ctx, s, legal, lim, start)
	best := order[0]
	choice := best.action
	if ab.cfg.Noise > 0 && st.Depth > 0 {
		top := -infinity
		for _, r := range order {
			v := r.score + rng.IntN(2*ab.cfg.Noise+1) - ab.cfg.Noise
			if v > top {
				top, choice = v, r.action
			}
		}
	}
	st.Score = best.score
	if best.score > winBound {
		st.Proven = 1
	} else if best.score < -winBound {
		st.Proven = -1
	}
	st.Elapsed = time.Since(start)
	ab.last = st
	return choice, nil
}

// deepen searches s by iterative deepening within lim and returns the root
// actions, best first, with the statistics of the search (Nodes, Depth).
func (ab *AlphaBeta) deepen(ctx context.Context, s *mancala.State, legal []mancala.Action, lim Limits, start time.Time) ([]rootScore, Stats) {
	clk := newClock(ctx, lim)
	for i, w := range ab.workers {
		w.prepare(s, &clk)
		w.budget = 0
		if lim.Nodes > 0 {
			w.budget = lim.Nodes / len(ab.workers)
			if i < lim.Nodes%len(ab.workers) {
				w.budget++
			}
			w.budget = max(w.budget, 1)
		}
	}
	order := ab.workers[0].initialOrder(s, legal)
	maxDepth := MaxDepth - 1
	if lim.Depth > 0 {
		maxDepth = lim.Depth
	}
	var st Stats
	best := order[0]
	for d := 1; d <= maxDepth; d++ {
		for _, w := range ab.workers {
			w.leaves = 0
		}
		done := ab.iterate(order, d)
		if !done {
			break
		}
		slices.SortStableFunc(order, func(a, b rootScore) int {
			if a.exact != b.exact {
				if a.exact {
					return -1
				}
				return 1
			}
			return cmp.Compare(b.score, a.score)
		})
		best = order[0]
		st.Depth = d
		leaves := 0
		for _, w := range ab.workers {
			leaves += w.leaves
		}
		if best.score > winBound || leaves == 0 || (order[len(order)-1].score < -winBound && best.score < -winBound) {
			break // a win found, every line ends within the horizon, or every action loses
		}
		if clk.timed && time.Since(start) > lim.MoveTime*2/5 && lim.MoveTime > 0 {
			break // the next iteration would not finish in time
		}
	}
	for _, w := range ab.workers {
		st.Nodes += w.nodes
	}
	return order, st
}

// value returns the alpha-beta score of s for its side to move, searched
// within lim: the best root action's score, or the static evaluation when
// not even the first iteration finished. A finished game scores ±WinScore
// or 0.
func (ab *AlphaBeta) value(ctx context.Context, s *mancala.State, lim Limits) int {
	if s.IsOver() {
		return outcomeFor(s, s.ToMove()) * WinScore
	}
	order, st := ab.deepen(ctx, s, s.Legal(nil), lim, time.Now())
	if st.Depth == 0 {
		return ab.cfg.Eval.Evaluate(s)
	}
	return order[0].score
}

// iterate searches every root action to depth d, updating order's scores,
// and reports whether the iteration completed. Worker 0 searches the first
// action with a full window; the others are then dealt round-robin and
// searched with a null window around each worker's best score so far.
// With Noise, every action gets an exact score.
func (ab *AlphaBeta) iterate(order []rootScore, d int) bool {
	ws := ab.workers
	next := make([]rootScore, len(order))
	copy(next, order)
	first := 0
	alpha0 := -infinity
	if ab.cfg.Noise == 0 {
		sc := ws[0].rootMove(order[0].action, d, -infinity, infinity)
		if ws[0].stop {
			return false
		}
		next[0] = rootScore{order[0].action, sc, true}
		alpha0, first = sc, 1
	}
	var wg sync.WaitGroup
	for k, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			alpha := alpha0
			for i := first + k; i < len(order); i += len(ws) {
				a := order[i].action
				var sc int
				if ab.cfg.Noise > 0 {
					sc = w.rootMove(a, d, -infinity, infinity)
					next[i] = rootScore{a, sc, true}
					continue
				}
				sc = w.rootMove(a, d, alpha, alpha+1)
				if sc > alpha && !w.stop {
					sc = w.rootMove(a, d, alpha, infinity)
				}
				if w.stop {
					return
				}
				next[i] = rootScore{a, sc, sc > alpha}
				alpha = max(alpha, sc)
			}
		}()
	}
	wg.Wait()
	for _, w := range ws {
		if w.stop {
			return false
		}
	}
	copy(order, next)
	return true
}

// prepare readies the worker for a new search from s.
func (w *abWorker) prepare(s *mancala.State, clk *clock) {
	if len(w.states) == 0 {
		w.states = make([]*mancala.State, MaxDepth+2+MaxQuiesce)
		w.legal = make([][]mancala.Action, MaxDepth+2+MaxQuiesce)
		w.keys = make([][]int32, MaxDepth+2+MaxQuiesce)
	}
	if w.states[0] == nil || w.states[0].Ruleset() != s.Ruleset() {
		for i := range w.states {
			w.states[i] = s.Clone()
		}
		w.scratch = s.Clone()
	}
	w.states[0].CopyFrom(s)
	w.tt.newGeneration()
	w.killers = [MaxDepth + 2][2]mancala.Action{}
	w.history = [2][1 << 11]int32{}
	w.clk, w.nodes, w.stop = clk, 0, false
}

// initialOrder orders the root actions by the stones they win at once.
func (w *abWorker) initialOrder(s *mancala.State, legal []mancala.Action) []rootScore {
	out := make([]rootScore, len(legal))
	me := s.ToMove()
	for i, a := range legal {
		w.scratch.CopyFrom(s)
		if err := w.scratch.Apply(a); err != nil {
			panic("search: Legal offered an illegal action: " + err.Error())
		}
		g := w.scratch.Stones(me) - w.scratch.Stones(me.Other())
		if w.scratch.IsOver() {
			g = outcomeFor(w.scratch, me) * WinScore
		}
		out[i] = rootScore{action: a, score: g}
	}
	slices.SortStableFunc(out, func(a, b rootScore) int { return cmp.Compare(b.score, a.score) })
	return out
}

// rootMove returns the score of root action a searched to depth d.
func (w *abWorker) rootMove(a mancala.Action, d, alpha, beta int) int {
	s, child := w.states[0], w.states[1]
	child.CopyFrom(s)
	if err := child.Apply(a); err != nil {
		panic("search: Legal offered an illegal action: " + err.Error())
	}
	take := takeOf(a)
	if child.ToMove() == s.ToMove() {
		return w.negamax(1, d-1, alpha, beta, take)
	}
	return -w.negamax(1, d-1, -beta, -alpha, take)
}

func takeOf(a mancala.Action) mancala.Action {
	if a.Kind() == mancala.KindTake {
		return a
	}
	return 0
}

// terminalScore scores a finished game for s.ToMove(), ply decisions from
// the root.
func terminalScore(s *mancala.State, ply int) int {
	return outcomeFor(s, s.ToMove()) * (WinScore - ply)
}

// negamax returns the score of states[ply] for its side to move. prevTake
// is the pick or removal that led here in the same turn, if any: picks and
// removals commute, so only those in increasing order are searched.
func (w *abWorker) negamax(ply, depth, alpha, beta int, prevTake mancala.Action) int {
	if w.tick() {
		return 0
	}
	s := w.states[ply]
	if s.IsOver() {
		return terminalScore(s, ply)
	}
	if depth <= 0 || ply >= MaxDepth {
		w.leaves++
		if w.cfg.Quiesce > 0 {
			return w.quiesce(ply, w.cfg.Quiesce, alpha, beta)
		}
		return w.leaf(s, ply)
	}
	key := s.Hash()
	var ttMove mancala.Action
	if e, ok := w.tt.probe(key); ok {
		ttMove = e.best
		if int(e.depth) >= depth {
			sc := fromTT(int(e.score), ply)
			if e.cuts(sc, alpha, beta) {
				return sc
			}
		}
	}
	legal := s.Legal(w.legal[ply][:0])
	if prevTake != 0 && legal[0].Kind() == mancala.KindTake {
		legal = slices.DeleteFunc(legal, func(a mancala.Action) bool { return a < prevTake })
		if len(legal) == 0 {
			return -infinity // not in increasing order: another line covers these takes
		}
	}
	w.legal[ply] = legal
	me := s.ToMove()
	keys := w.keys[ply][:0]
	for _, a := range legal {
		k := w.history[me][a&(1<<11-1)]
		if depth >= 2 {
			k += int32(w.gain(s, a)) << 16
		}
		switch a {
		case ttMove:
			k = 1 << 30
		case w.killers[ply][0]:
			k = 1 << 29
		case w.killers[ply][1]:
			k = 1<<29 - 1
		}
		keys = append(keys, k)
	}
	w.keys[ply] = keys
	sortByKeys(legal, keys)
	alphaOrig := alpha
	best, bestA := -infinity, legal[0]
	child := w.states[ply+1]
	for i, a := range legal {
		child.CopyFrom(s)
		if err := child.Apply(a); err != nil {
			panic("search: Legal offered an illegal action: " + err.Error())
		}
		var sc int
		if i == 0 {
			sc = w.childScore(ply, depth, alpha, beta, me, a)
		} else { // principal variation search: prove the rest worse with a null window
			sc = w.childScore(ply, depth, alpha, alpha+1, me, a)
			if sc > alpha && sc < beta && !w.stop {
				child.CopyFrom(s)
				if err := child.Apply(a); err != nil {
					panic("search: Legal offered an illegal action: " + err.Error())
				}
				sc = w.childScore(ply, depth, alpha, beta, me, a)
			}
		}
		if w.stop {
			return 0
		}
		if sc > best {
			best, bestA = sc, a
		}
		if sc > alpha {
			alpha = sc
		}
		if alpha >= beta {
			if a != w.killers[ply][0] {
				w.killers[ply][1], w.killers[ply][0] = w.killers[ply][0], a
			}
			w.history[me][a&(1<<11-1)] += int32(depth * depth)
			break
		}
	}
	w.tt.store(key, depth, toTT(best, ply), boundOf(best, alphaOrig, beta), bestA)
	return best
}

// tick counts a node and reports whether the search must stop: the node
// budget is spent or the time is up.
func (w *abWorker) tick() bool {
	w.nodes++
	if w.nodes&255 == 0 && ((w.budget > 0 && w.nodes >= w.budget) || w.clk.expired()) {
		w.stop = true
	}
	if w.budget > 0 && w.nodes >= w.budget {
		w.stop = true
	}
	return w.stop
}

// childScore searches states[ply+1], reached by a, for the side me to
// move at ply, within the window (alpha, beta) of me.
func (w *abWorker) childScore(ply, depth, alpha, beta int, me mancala.Player, a mancala.Action) int {
	if w.states[ply+1].ToMove() == me {
		return w.negamax(ply+1, depth-1, alpha, beta, takeOf(a))
	}
	return -w.negamax(ply+1, depth-1, -beta, -alpha, takeOf(a))
}

// gain returns the stones the side to move gains over the opponent by
// playing a (a win or loss counts as 1000 stones), for move ordering.
func (w *abWorker) gain(s *mancala.State, a mancala.Action) int {
	me := s.ToMove()
	sc := w.scratch
	sc.CopyFrom(s)
	if err := sc.Apply(a); err != nil {
		panic("search: Legal offered an illegal action: " + err.Error())
	}
	if sc.IsOver() {
		return outcomeFor(sc, me) * 1000
	}
	return (sc.Stones(me) - sc.Stones(me.Other())) - (s.Stones(me) - s.Stones(me.Other()))
}

// sortByKeys sorts actions by decreasing key (insertion sort: the lists are
// short), keeping the board order among equal keys.
func sortByKeys(actions []mancala.Action, keys []int32) {
	for i := 1; i < len(actions); i++ {
		a, k := actions[i], keys[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			actions[j], keys[j] = actions[j-1], keys[j-1]
		}
		actions[j], keys[j] = a, k
	}
}

// leaf evaluates s for its side to move. Pending picks and removals are
// first finished greedily (fullest hole first), since the evaluation cannot
// see stones about to be taken.
func (w *abWorker) leaf(s *mancala.State, ply int) int {
	me := s.ToMove()
	if !s.AtTurnStart() {
		buf := s.Legal(w.legal[ply][:0])
		if buf[0].Kind() == mancala.KindTake {
			sc := w.scratch
			sc.CopyFrom(s)
			for !sc.IsOver() && !sc.AtTurnStart() {
				buf = sc.Legal(buf[:0])
				if buf[0].Kind() != mancala.KindTake {
					break
				}
				if err := sc.Apply(fullest(sc, buf)); err != nil {
					panic("search: Legal offered an illegal action: " + err.Error())
				}
			}
			w.legal[ply] = buf
			if sc.IsOver() {
				return outcomeFor(sc, me) * (WinScore - ply - 1)
			}
			v := w.cfg.Eval.Evaluate(sc)
			if sc.ToMove() != me {
				v = -v
			}
			return v
		}
	}
	return w.cfg.Eval.Evaluate(s)
}

// fullest returns the pick among takes from the fullest hole.
func fullest(s *mancala.State, takes []mancala.Action) mancala.Action {
	best, most := takes[0], -1
	for _, a := range takes {
		if k := s.Count(a.Hole()); k > most {
			best, most = a, k
		}
	}
	return best
}

// quiesce returns the score of states[ply] for its side to move, searching
// on for at most q more decisions over the actions that capture. At the
// start of a turn the side to move may stand pat on the static score, so
// only its capturing actions (and those that go on with the turn, such as
// Choro's direction choices) are searched; inside a turn every choice is
// searched, since one must be made; pending picks and removals are finished
// greedily as at any leaf. The table is not used.
func (w *abWorker) quiesce(ply, q, alpha, beta int) int {
	s := w.states[ply]
	if s.IsOver() {
		return terminalScore(s, ply)
	}
	if q <= 0 || ply+1 >= len(w.states) {
		return w.leaf(s, ply)
	}
	legal := s.Legal(w.legal[ply][:0])
	w.legal[ply] = legal
	if legal[0].Kind() == mancala.KindTake {
		return w.leaf(s, ply)
	}
	me, opp := s.ToMove(), s.ToMove().Other()
	best := -infinity
	standPat := s.AtTurnStart()
	if standPat {
		best = w.cfg.Eval.Evaluate(s)
		if best >= beta {
			return best
		}
		alpha = max(alpha, best)
	}
	// Order the searched actions by the stones they win, dropping the quiet
	// ones where standing pat is allowed.
	child := w.states[ply+1]
	keys := w.keys[ply][:0]
	n := 0
	for _, a := range legal {
		child.CopyFrom(s)
		if err := child.Apply(a); err != nil {
			panic("search: Legal offered an illegal action: " + err.Error())
		}
		taken := s.Stones(opp) - child.Stones(opp)
		if standPat && taken <= 0 && !child.IsOver() && child.ToMove() != me {
			continue
		}
		legal[n] = a
		keys = append(keys, int32(taken))
		n++
	}
	legal = legal[:n]
	w.keys[ply] = keys
	sortByKeys(legal, keys)
	for _, a := range legal {
		if w.tick() {
			return 0
		}
		child.CopyFrom(s)
		if err := child.Apply(a); err != nil {
			panic("search: Legal offered an illegal action: " + err.Error())
		}
		var sc int
		if child.ToMove() == me {
			sc = w.quiesce(ply+1, q-1, alpha, beta)
		} else {
			sc = -w.quiesce(ply+1, q-1, -beta, -alpha)
		}
		if w.stop {
			return 0
		}
		if sc > best {
			best = sc
		}
		if sc > alpha {
			alpha = sc
			if alpha >= beta {
				break
			}
		}
	}
	return best
}
