package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"matombo/mancala"
)

// Levels of play for the web app and the arena: 1 is a beginner who looks
// one decision ahead, misjudges by up to two stones and now and then plays
// at random; 8 is the strongest setting (alpha-beta with the tuned
// evaluation and a quiescence search over captures on both cores, and the
// endgame solver), at most 2 s a decision by default.
const (
	MinLevel = 1
	MaxLevel = 8
)

// LevelSpec is the configuration of one level.
type LevelSpec struct {
	Depth    int           // alpha-beta depth limit in decisions (0: none)
	Nodes    int           // node limit (0: none)
	MoveTime time.Duration // time limit (0: none)
	Noise    int           // root score noise, hundredths of a stone
	Blunder  float64       // probability of a random action
	Solver   bool          // use the endgame solver
	Quiesce  int           // decisions of capture-only search past the depth limit (0: none)
	// OpeningNodes is the node limit of the search of each joint opening
	// when the level chooses in the simultaneous Choro opening: it solves
	// the matrix game of its scores of the 64 joint openings and draws from
	// the equilibrium. It is a 64th of the level's nodes (level 8: of the
	// 4 million its 2 s are worth), so the 64 searches take the level's
	// usual budget; the level's time limit is shared out the same way. 0:
	// the level opens greedily instead (the best response, by the stones
	// right after the openings, to an opponent who opens at random).
	OpeningNodes int
}

// levelSpecs are the levels 1..8. Every level has a node or time limit, so
// each decision is bounded on any board. Levels 1 to 7 are limited by nodes
// (levels 5 to 7 four times as many as the level below, and level 7 adds
// level 8's quiescence search), so they play the same on a busy server as
// on a quiet one and their ladder does not depend on the machine; their
// time limits are only a safety net for the largest boards (level 7 takes
// 30 to 220 ms on the reference machine). Level 8 alone thinks for a time:
// its 2 s are some 4 million nodes on two cores, 16 times level 7's.
var levelSpecs = [MaxLevel + 1]LevelSpec{
	1: {Depth: 1, Nodes: 5_000, Noise: 200, Blunder: 0.25},
	2: {Depth: 2, Nodes: 20_000, Noise: 120, Blunder: 0.10},
	3: {Depth: 3, Nodes: 50_000, Noise: 60, Blunder: 0.04},
	4: {Depth: 4, Nodes: 100_000, Noise: 25, OpeningNodes: 100_000 / 64},
	5: {Nodes: 16_000, MoveTime: time.Second, OpeningNodes: 16_000 / 64},
	6: {Nodes: 64_000, MoveTime: 1500 * time.Millisecond, OpeningNodes: 64_000 / 64},
	7: {Nodes: 256_000, MoveTime: 2 * time.Second, Quiesce: 6, OpeningNodes: 256_000 / 64},
	8: {MoveTime: 2 * time.Second, Solver: true, Quiesce: 6, OpeningNodes: 4_000_000 / 64},
}

// Level returns the configuration of level k.
func Level(k int) (LevelSpec, error) {
	if k < MinLevel || k > MaxLevel {
		return LevelSpec{}, fmt.Errorf("search: level %d does not exist; levels are %d to %d", k, MinLevel, MaxLevel)
	}
	return levelSpecs[k], nil
}

// Limits returns the level's own limits.
func (l LevelSpec) Limits() Limits {
	return Limits{Depth: l.Depth, Nodes: l.Nodes, MoveTime: l.MoveTime}
}

// LevelPlayer plays at one level. The limits given to Choose tighten the
// level's own: each limit is the smaller of the two where both are set, so
// a level keeps its depth while an arena sets the time.
//
// In the simultaneous Choro opening a level never uses South's choice: it
// chooses from the position before it (mancala.State.BeforeOpeningChoice),
// so North's choice is the same, for a given seed, whatever South chose.
type LevelPlayer struct {
	level int
	spec  LevelSpec
	seed  uint64
	ab    *AlphaBeta
	p     Player
}

// EndgameStones is the most stones on the board for which level 8 calls the
// endgame solver first.
const EndgameStones = 12

// NewLevel returns a player of level k seeded with seed.
func NewLevel(k int, seed uint64) (*LevelPlayer, error) { return NewLevelOn(k, seed, 0) }

// NewLevelOn is NewLevel with the level's search on the given number of
// workers (goroutines searching at once; 0: the level's own, two), for
// callers that bound the cores a search may take, such as the web app's
// lab. The node budget is the same, so the level plays alike but not
// identically.
func NewLevelOn(k int, seed uint64, workers int) (*LevelPlayer, error) {
	spec, err := Level(k)
	if err != nil {
		return nil, err
	}
	cfg := DefaultAlphaBeta(seed)
	if workers > 0 {
		cfg.Workers = workers
	}
	cfg.Noise, cfg.Blunder, cfg.Limits, cfg.Quiesce = spec.Noise, spec.Blunder, spec.Limits(), spec.Quiesce
	switch { // smaller tables for the weaker levels: the web app keeps one player per level
	case spec.Depth > 0 && spec.Depth <= 4:
		cfg.TableBits = 16
	case !spec.Solver:
		cfg.TableBits = 18
	}
	ab, err := NewAlphaBeta(cfg)
	if err != nil {
		return nil, err
	}
	lp := &LevelPlayer{level: k, spec: spec, seed: seed, ab: ab, p: ab}
	if spec.Solver {
		sv, err := NewSolver(18)
		if err != nil {
			return nil, err
		}
		lp.p = &SolverPlayer{Solver: sv, Fallback: ab, MaxStones: EndgameStones, Share: 0.3}
	}
	return lp, nil
}

// Level returns the player's level.
func (lp *LevelPlayer) Level() int { return lp.level }

// Choose implements Player.
func (lp *LevelPlayer) Choose(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error) {
	if err := begin(s, lim); err != nil {
		return 0, err
	}
	total := tighten(lp.spec.Limits(), lim)
	if s.InSimultaneousOpening() {
		return lp.chooseOpening(ctx, s, total)
	}
	return lp.p.Choose(ctx, s, total)
}

// chooseOpening chooses in the simultaneous Choro opening: from level 4 by
// the matrix game of the level's scores of the joint openings, each searched
// within OpeningNodes (and a 64th of total's nodes), all within total's
// time; below, greedily, or at random as often as the level blunders.
func (lp *LevelPlayer) chooseOpening(ctx context.Context, s *mancala.State, total Limits) (mancala.Action, error) {
	if lp.spec.OpeningNodes > 0 {
		return lp.ab.chooseOpening(ctx, s, openingLimits(total, lp.spec.OpeningNodes), total.MoveTime)
	}
	rng := rand.New(rand.NewPCG(lp.seed, openingSeed(s)))
	if lp.spec.Blunder > 0 && rng.Float64() < lp.spec.Blunder {
		choices, err := openingChoices(s, s.ToMove())
		if err != nil {
			return 0, err
		}
		return choices[rng.IntN(len(choices))], nil
	}
	return greedyOpening(s, s.ToMove(), rng.IntN)
}

// LastOpening returns the last matrix game of the simultaneous Choro opening
// the level solved (a zero OpeningGame before any, and at levels 1 to 3,
// which open greedily).
func (lp *LevelPlayer) LastOpening() OpeningGame { return lp.ab.LastOpening() }

// tighten returns the smaller of each limit set in a or b.
func tighten(a, b Limits) Limits {
	pick := func(x, y int64) int64 {
		switch {
		case x == 0:
			return y
		case y == 0:
			return x
		}
		return min(x, y)
	}
	return Limits{
		MoveTime: time.Duration(pick(int64(a.MoveTime), int64(b.MoveTime))),
		Playouts: int(pick(int64(a.Playouts), int64(b.Playouts))),
		Nodes:    int(pick(int64(a.Nodes), int64(b.Nodes))),
		Depth:    int(pick(int64(a.Depth), int64(b.Depth))),
	}
}
