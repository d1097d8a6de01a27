package search

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"matombo/mancala"
)

// Policy chooses the actions of a Monte Carlo playout.
type Policy uint8

// The playout policies.
const (
	// PolicyUniform plays uniformly random actions.
	PolicyUniform Policy = iota
	// PolicyGreedy is epsilon-greedy on a one-step look-ahead: it plays the
	// action that gains the most stones (captures, relays into captures,
	// the biggest picks), a random one with probability Epsilon.
	PolicyGreedy
)

// MCTSConfig configures the Monte Carlo tree search.
type MCTSConfig struct {
	Seed        uint64  // seeds every random choice
	Workers     int     // trees searched in parallel (root parallelism), 1 to 64
	Exploration float64 // UCT exploration constant, above 0
	Solver      bool    // prove wins and losses in the tree (MCTS-Solver)
	Policy      Policy  // playout policy
	Epsilon     float64 // PolicyGreedy: probability of a random action, 0 to 1
	Sample      int     // PolicyGreedy: look at most this many actions (0: all)
	MaxPlayout  int     // decisions in a playout before it is scored by stones, 1 or more
	MaxNodes    int     // tree nodes per worker; the tree stops growing there
	Limits      Limits  // used when Choose gets zero limits
}

// DefaultMCTS returns the configuration of the strong tree search: two
// workers, the solver and the greedy playout policy.
func DefaultMCTS(seed uint64) MCTSConfig {
	return MCTSConfig{
		Seed: seed, Workers: 2, Exploration: 0.7, Solver: true,
		Policy: PolicyGreedy, Epsilon: 0.25, Sample: 8, MaxPlayout: 400,
		MaxNodes: 1 << 20, Limits: Limits{MoveTime: time.Second},
	}
}

// PlainUCT returns plain UCT: uniform playouts, no solver (the arena's "uct").
func PlainUCT(seed uint64) MCTSConfig {
	c := DefaultMCTS(seed)
	c.Solver, c.Policy, c.Exploration = false, PolicyUniform, 1.0
	return c
}

// Validate reports whether c is usable.
func (c MCTSConfig) Validate() error {
	switch {
	case c.Workers < 1 || c.Workers > 64:
		return fmt.Errorf("search: mcts workers %d out of range; use 1 to 64", c.Workers)
	case !(c.Exploration > 0) || math.IsInf(c.Exploration, 0):
		return fmt.Errorf("search: mcts exploration %v must be a positive number", c.Exploration)
	case c.Policy > PolicyGreedy:
		return fmt.Errorf("search: unknown playout policy %d; use uniform or greedy", c.Policy)
	case !(c.Epsilon >= 0 && c.Epsilon <= 1):
		return fmt.Errorf("search: mcts epsilon %v out of range; use 0 to 1", c.Epsilon)
	case c.Sample < 0:
		return fmt.Errorf("search: mcts sample %d is negative; use 0 (all actions) or more", c.Sample)
	case c.MaxPlayout < 1:
		return fmt.Errorf("search: mcts playout length %d must be at least 1", c.MaxPlayout)
	case c.MaxNodes < 16:
		return fmt.Errorf("search: mcts node limit %d too small; use 16 or more", c.MaxNodes)
	}
	return c.Limits.Validate()
}

// MCTS is a Monte Carlo tree search player. In the simultaneous Choro
// opening it solves the matrix game of its expected scores of the joint
// openings (each searched with a 64th of the playouts, the time shared out
// as the searches go) and draws from the equilibrium with its seed; it
// chooses from the position before South's choice, so it never uses it.
type MCTS struct {
	cfg     MCTSConfig
	last    Stats
	opening openingCache
}

// Stats describes the last search.
type Stats struct {
	Playouts int           // playouts (MCTS)
	Nodes    int           // nodes visited (alpha-beta) or created (MCTS)
	Depth    int           // depth of the last completed iteration (alpha-beta)
	Score    int           // alpha-beta score of the choice, for the side to move
	Value    float64       // MCTS mean reward of the choice, 0 to 1
	Proven   int           // +1 proven win, -1 proven loss, 0 not proven
	Elapsed  time.Duration // time spent
}

// NewMCTS returns a tree search player, or an error if cfg is invalid.
func NewMCTS(cfg MCTSConfig) (*MCTS, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &MCTS{cfg: cfg}, nil
}

// LastStats returns the statistics of the last Choose.
func (m *MCTS) LastStats() Stats { return m.last }

// Proof values of a node, for the player who chose the action into it.
const (
	unproven int8 = iota
	provenWin
	provenDraw
	provenLoss
)

type mnode struct {
	action mancala.Action
	mover  mancala.Player // the player who chose action
	toMove mancala.Player // the player to move at this node (valid once expanded)
	first  int32          // first child, -1 until expanded
	count  int32          // children
	visits int32
	reward float64 // sum of the mover's rewards (1 win, 0.5 draw, 0 loss)
	proof  int8
}

type worker struct {
	cfg      *MCTSConfig
	rng      *rand.Rand
	nodes    []mnode
	st       *mancala.State
	scratch  *mancala.State
	legal    []mancala.Action
	path     []int32
	playouts int
}

// Choose runs the tree search and returns the most visited action, or a
// proven win when one is found.
func (m *MCTS) Choose(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error) {
	if err := begin(s, lim); err != nil {
		return 0, err
	}
	if lim.MoveTime == 0 && lim.Playouts == 0 { // none of the limits it knows
		lim = m.cfg.Limits
	}
	start := time.Now()
	if s.InSimultaneousOpening() { // a tree of sequential decisions would see South's choice
		a, err := m.chooseOpening(ctx, s, lim)
		m.last = Stats{Elapsed: time.Since(start)}
		return a, err
	}
	legal := s.Legal(nil)
	if len(legal) == 1 {
		m.last = Stats{Elapsed: time.Since(start)}
		return legal[0], nil
	}
	clk := newClock(ctx, lim)
	nw := m.cfg.Workers
	workers := make([]*worker, nw)
	var wg sync.WaitGroup
	for i := range workers {
		budget := 0
		if lim.Playouts > 0 {
			budget = lim.Playouts / nw
			if i < lim.Playouts%nw {
				budget++
			}
			if budget == 0 {
				continue
			}
		}
		w := &worker{
			cfg: &m.cfg, rng: rand.New(rand.NewPCG(m.cfg.Seed, positionSeed(s)+uint64(i)*0x632be59bd9b4e019)),
			st: s.Clone(), scratch: s.Clone(),
		}
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.search(s, budget, &clk)
		}()
	}
	wg.Wait()
	a, st := merge(workers, legal)
	st.Elapsed = time.Since(start)
	m.last = st
	return a, nil
}

// chooseOpening chooses the side to move's opening hole at s, in the
// simultaneous opening, within lim.
func (m *MCTS) chooseOpening(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error) {
	el := Limits{MoveTime: lim.MoveTime}
	if lim.Playouts > 0 {
		el.Playouts = max(lim.Playouts/openingEntries, 1)
	}
	g, err := m.opening.get(ctx, s, el, lim.MoveTime, func(ctx context.Context, st *mancala.State) int { return m.value(ctx, st, el) })
	if err != nil {
		return 0, err
	}
	return drawOpening(g, s, m.cfg.Seed), nil
}

// LastOpening returns the last opening game the player solved in the
// simultaneous Choro opening (a zero OpeningGame before any).
func (m *MCTS) LastOpening() OpeningGame { return m.opening.game }

// value returns the tree search's score of s for its side to move, within
// lim: its expected score of the chosen action (0 to 1) mapped to -1000 to
// 1000, or ±WinScore when proven.
func (m *MCTS) value(ctx context.Context, s *mancala.State, lim Limits) int {
	if s.IsOver() {
		return outcomeFor(s, s.ToMove()) * WinScore
	}
	if _, err := m.Choose(ctx, s, lim); err != nil {
		return 0
	}
	switch st := m.last; {
	case st.Proven == 1:
		return WinScore
	case st.Proven == -1:
		return -WinScore
	case st.Playouts == 0: // a single legal action, not searched
		return 0
	default:
		return int(math.Round((2*st.Value - 1) * 1000))
	}
}

// merge combines the root children of every worker's tree.
func merge(workers []*worker, legal []mancala.Action) (mancala.Action, Stats) {
	type agg struct {
		visits int
		reward float64
		win    bool
		loss   bool
	}
	byAction := make(map[mancala.Action]*agg, len(legal))
	for _, a := range legal {
		byAction[a] = &agg{}
	}
	var st Stats
	for _, w := range workers {
		if w == nil || len(w.nodes) == 0 {
			continue
		}
		st.Playouts += w.playouts
		st.Nodes += len(w.nodes)
		root := &w.nodes[0]
		for c := root.first; c >= 0 && c < root.first+root.count; c++ {
			n := &w.nodes[c]
			g := byAction[n.action]
			g.visits += int(n.visits)
			g.reward += n.reward
			g.win = g.win || n.proof == provenWin
			g.loss = g.loss || n.proof == provenLoss
		}
	}
	best, bestKey := legal[0], math.Inf(-1)
	for _, a := range legal { // legal order breaks ties, so the choice is reproducible
		g := byAction[a]
		key := float64(g.visits)
		switch {
		case g.win:
			key = math.Inf(1)
		case g.loss:
			key = -1e18 + float64(g.visits)
		}
		if key > bestKey {
			best, bestKey = a, key
			st.Proven = 0
			if g.win {
				st.Proven = 1
			} else if g.loss {
				st.Proven = -1
			}
			st.Value = 0
			if g.visits > 0 {
				st.Value = g.reward / float64(g.visits)
			}
		}
	}
	return best, st
}

// search grows the worker's tree from root until the budget of playouts
// (0: none) is spent, the clock runs out or the root is proven.
func (w *worker) search(root *mancala.State, budget int, clk *clock) {
	w.nodes = append(w.nodes[:0], mnode{first: -1, mover: root.ToMove().Other()})
	for budget == 0 || w.playouts < budget {
		if clk.expired() || w.nodes[0].proof != unproven {
			return
		}
		w.playout(root)
		w.playouts++
		if budget == 0 && !clk.timed && w.playouts >= 1<<22 {
			return // no limit at all: stop somewhere
		}
	}
}

// playout runs one selection, expansion, simulation and backup.
func (w *worker) playout(root *mancala.State) {
	st := w.st
	st.CopyFrom(root)
	w.path = append(w.path[:0], 0)
	n := int32(0)
	for !st.IsOver() {
		nd := &w.nodes[n]
		if nd.first < 0 {
			if (n != 0 && nd.visits == 0) || !w.expand(n, st) {
				break
			}
		}
		n = w.selectChild(n)
		if err := st.Apply(w.nodes[n].action); err != nil {
			panic("search: the tree holds an illegal action: " + err.Error())
		}
		w.path = append(w.path, n)
	}
	var winner int // +1 South won, -1 North won, 0 draw
	if st.IsOver() {
		winner = outcomeFor(st, mancala.South)
		if w.cfg.Solver && n != 0 {
			leaf := &w.nodes[n]
			leaf.proof = proofFor(outcomeFor(st, leaf.mover))
		}
	} else {
		winner = w.simulate(st)
	}
	w.backup(winner)
}

func proofFor(v int) int8 {
	switch v {
	case 1:
		return provenWin
	case -1:
		return provenLoss
	}
	return provenDraw
}

// expand adds the children of node n (whose state is st) in a random order;
// it reports false when the tree is full.
func (w *worker) expand(n int32, st *mancala.State) bool {
	w.legal = st.Legal(w.legal[:0])
	if len(w.nodes)+len(w.legal) > w.cfg.MaxNodes {
		return false
	}
	w.rng.Shuffle(len(w.legal), func(i, j int) { w.legal[i], w.legal[j] = w.legal[j], w.legal[i] })
	first := int32(len(w.nodes))
	p := st.ToMove()
	for _, a := range w.legal {
		w.nodes = append(w.nodes, mnode{action: a, mover: p, first: -1})
	}
	nd := &w.nodes[n]
	nd.first, nd.count, nd.toMove = first, int32(len(w.legal)), p
	return true
}

// selectChild picks the child of n to descend into: an unvisited one first,
// a proven win at once, never a proven loss while another child remains,
// else the highest UCT value.
func (w *worker) selectChild(n int32) int32 {
	nd := &w.nodes[n]
	logN := math.Log(float64(nd.visits) + 1)
	best, bestV := int32(-1), math.Inf(-1)
	fallback := nd.first
	for c := nd.first; c < nd.first+nd.count; c++ {
		ch := &w.nodes[c]
		var v float64
		switch {
		case ch.proof == provenWin:
			return c
		case ch.proof == provenLoss:
			if ch.visits > w.nodes[fallback].visits {
				fallback = c
			}
			continue
		case ch.visits == 0:
			return c
		case ch.proof == provenDraw:
			v = 0.5 + w.cfg.Exploration*math.Sqrt(logN/float64(ch.visits))
		default:
			v = ch.reward/float64(ch.visits) + w.cfg.Exploration*math.Sqrt(logN/float64(ch.visits))
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	if best < 0 {
		return fallback
	}
	return best
}

// backup adds the playout's result along the path and propagates proofs.
func (w *worker) backup(winner int) {
	for i := len(w.path) - 1; i >= 0; i-- {
		nd := &w.nodes[w.path[i]]
		nd.visits++
		r := 0.5
		if winner != 0 {
			if (winner > 0) == (nd.mover == mancala.South) {
				r = 1
			} else {
				r = 0
			}
		}
		nd.reward += r
	}
	if !w.cfg.Solver {
		return
	}
	for i := len(w.path) - 2; i >= 0; i-- {
		if !w.prove(w.path[i]) {
			return
		}
	}
}

// prove tries to prove node n from its children and reports whether it did.
func (w *worker) prove(n int32) bool {
	nd := &w.nodes[n]
	if nd.proof != unproven {
		return true
	}
	if nd.first < 0 {
		return false
	}
	best := provenLoss // the best proven value for the player to move
	open := false
	for c := nd.first; c < nd.first+nd.count && best != provenWin; c++ {
		switch w.nodes[c].proof {
		case provenWin:
			best = provenWin
		case provenDraw:
			best = provenDraw
		case unproven:
			open = true
		}
	}
	if open && best != provenWin {
		return false
	}
	if nd.toMove != nd.mover {
		switch best {
		case provenWin:
			best = provenLoss
		case provenLoss:
			best = provenWin
		}
	}
	nd.proof = best
	return true
}
