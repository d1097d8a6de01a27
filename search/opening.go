package search

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"matombo/mancala"
)

// The simultaneous Choro opening (RULES.md §3.4, opening=simultaneous) is a
// decision of both players at once: South and North each name an outer hole
// without seeing the other's. It is a matrix game, South choosing a row and
// North a column, whose entries are the values of the positions after the
// joint openings; a player chooses by drawing from an equilibrium strategy
// of that game. A player choosing for North never looks at the state that
// holds South's choice: it works from BeforeOpeningChoice, so its choice is
// the same whatever South chose.

// JointOpenings returns the choices of the simultaneous opening at s, South's
// (the rows) and North's (the columns), and the position after each pair:
// after[i][j] follows South's south[i] and North's north[j]. s is taken as
// it was before South's choice (BeforeOpeningChoice), so the result does not
// depend on a choice s may hold. It is an error when s is not in the
// simultaneous opening.
func JointOpenings(s *mancala.State) (south, north []mancala.Action, after [][]*mancala.State, err error) {
	if s == nil || !s.InSimultaneousOpening() {
		return nil, nil, nil, errors.New("search: the position is not at the simultaneous Choro opening")
	}
	before := s.BeforeOpeningChoice()
	south = before.Legal(nil)
	mid := before.Clone()
	if err := mid.Apply(south[0]); err != nil {
		return nil, nil, nil, fmt.Errorf("search: South's opening %s: %w", south[0], err)
	}
	north = mid.Legal(nil) // North's outer holes: the same whatever South chose
	after = make([][]*mancala.State, len(south))
	for i, a := range south {
		after[i] = make([]*mancala.State, len(north))
		for j, b := range north {
			c := before.Clone()
			if err := c.Apply(a); err != nil {
				return nil, nil, nil, fmt.Errorf("search: South's opening %s: %w", a, err)
			}
			if err := c.Apply(b); err != nil {
				return nil, nil, nil, fmt.Errorf("search: North's opening %s after South's %s: %w", b, a, err)
			}
			after[i][j] = c
		}
	}
	return south, north, after, nil
}

// OpeningGame is the simultaneous opening as a matrix game, as a player
// solved it: Payoff[i][j] is the player's value, for South, of the position
// after South's South[i] and North's North[j]; the equilibrium's Row is
// South's mix and Col North's.
type OpeningGame struct {
	South  []mancala.Action
	North  []mancala.Action
	Payoff [][]float64
	Equilibrium
}

// Mix returns the equilibrium strategy of p: South's Row or North's Col.
func (g OpeningGame) Mix(p mancala.Player) []float64 {
	if p == mancala.South {
		return g.Row
	}
	return g.Col
}

// Choices returns p's choices: South's rows or North's columns.
func (g OpeningGame) Choices(p mancala.Player) []mancala.Action {
	if p == mancala.South {
		return g.South
	}
	return g.North
}

// greedyOpening is the opening game of the stone balance right after the
// joint openings (South's stones less North's; a finished game counts
// ±1000 stones), for the players that open simply: each plays its best
// response to a uniformly random opponent, ties broken by pick (a number
// from 0 to k-1 for k ties). It returns p's choice.
func greedyOpening(s *mancala.State, p mancala.Player, pick func(k int) int) (mancala.Action, error) {
	south, north, after, err := JointOpenings(s)
	if err != nil {
		return 0, err
	}
	score := func(i, j int) int { // for South
		st := after[i][j]
		if st.IsOver() {
			return outcomeFor(st, mancala.South) * 1000
		}
		return st.Stones(mancala.South) - st.Stones(mancala.North)
	}
	choices := south
	if p == mancala.North {
		choices = north
	}
	best, ties, bestSum := 0, 0, 0
	for c := range choices {
		sum := 0
		if p == mancala.South {
			for j := range north {
				sum += score(c, j)
			}
		} else {
			for i := range south {
				sum -= score(i, c)
			}
		}
		switch {
		case ties == 0 || sum > bestSum:
			best, bestSum, ties = c, sum, 1
		case sum == bestSum:
			ties++
			if pick(ties) == 0 {
				best = c
			}
		}
	}
	return choices[best], nil
}

// openingChoices returns p's choices of the simultaneous opening at s, which
// do not depend on a choice s may hold.
func openingChoices(s *mancala.State, p mancala.Player) ([]mancala.Action, error) {
	if s == nil || !s.InSimultaneousOpening() {
		return nil, errors.New("search: the position is not at the simultaneous Choro opening")
	}
	before := s.BeforeOpeningChoice()
	south := before.Legal(nil)
	if p == mancala.South {
		return south, nil
	}
	if err := before.Apply(south[0]); err != nil {
		return nil, fmt.Errorf("search: South's opening %s: %w", south[0], err)
	}
	return before.Legal(nil), nil
}

// openingSeed seeds a player's draw in the simultaneous opening: it mixes the
// position before South's choice with the side choosing, so that it is the
// same whatever South chose and differs between the two sides.
func openingSeed(s *mancala.State) uint64 {
	return positionSeed(s.BeforeOpeningChoice()) ^ uint64(s.ToMove()+1)*0x2545f4914f6cdd1d
}

// openingEntries is the most joint openings: eight outer holes each.
const openingEntries = 64

// openingLimits returns the limits of the search of each joint opening: a
// 64th of total's nodes, and at most nodes nodes when nodes is positive;
// total's depth; and no time limit, since time is shared out by
// solveOpeningGame (a time limit would also make a search stop deepening
// early by the clock, and so give different values on a busy machine).
func openingLimits(total Limits, nodes int) Limits {
	el := Limits{Depth: total.Depth, Nodes: nodes}
	if total.Nodes > 0 {
		share := max(total.Nodes/openingEntries, 1)
		if el.Nodes == 0 || share < el.Nodes {
			el.Nodes = share
		}
	}
	return el
}

// solveOpeningGame returns the opening game at s whose entries are value's
// scores (for the side to move of each position after the joint openings,
// as alpha-beta scores them), turned to South's point of view, with every
// win or loss counted as ±WinScore whatever its distance; and its
// equilibrium. With a positive budget, each search must end by its share of
// the time left (the time left over the entries left), so the whole takes
// at most budget.
func solveOpeningGame(ctx context.Context, s *mancala.State, budget time.Duration, value func(context.Context, *mancala.State) int) (OpeningGame, error) {
	south, north, after, err := JointOpenings(s)
	if err != nil {
		return OpeningGame{}, err
	}
	deadline := time.Now().Add(budget)
	left := len(south) * len(north)
	payoff := make([][]float64, len(south))
	for i := range south {
		payoff[i] = make([]float64, len(north))
		for j := range north {
			st := after[i][j]
			var v int
			if st.IsOver() {
				v = outcomeFor(st, mancala.South) * WinScore
			} else {
				ectx, cancel := ctx, context.CancelFunc(func() {})
				if budget > 0 {
					ectx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(deadline)/time.Duration(left)))
				}
				v = value(ectx, st)
				cancel()
				if st.ToMove() == mancala.North {
					v = -v
				}
				switch {
				case v > winBound:
					v = WinScore
				case v < -winBound:
					v = -WinScore
				}
			}
			payoff[i][j] = float64(v)
			left--
		}
	}
	eq, err := SolveMatrixGame(payoff)
	if err != nil {
		return OpeningGame{}, err
	}
	return OpeningGame{South: south, North: north, Payoff: payoff, Equilibrium: eq}, nil
}

// openingCache keeps the last opening game a player solved, so that it
// solves it once when it plays both sides, and so that tests can see it.
type openingCache struct {
	key   string
	game  OpeningGame
	valid bool // the game's searches were not cut by the context
}

// get returns the opening game at s for the entry limits el and the time
// budget, solving it by value unless the last one was for the same
// position and limits.
func (c *openingCache) get(ctx context.Context, s *mancala.State, el Limits, budget time.Duration, value func(context.Context, *mancala.State) int) (OpeningGame, error) {
	key := fmt.Sprintf("%s|%s|%+v|%v", s.Ruleset(), s.BeforeOpeningChoice().Position(), el, budget)
	if c.valid && c.key == key {
		return c.game, nil
	}
	g, err := solveOpeningGame(ctx, s, budget, value)
	if err != nil {
		return g, err
	}
	c.key, c.game, c.valid = key, g, ctx.Err() == nil
	return g, nil
}

// chooseOpening chooses the side to move's opening hole at s by the matrix
// game whose entries are this player's scores of the joint openings, each
// searched within el, all within budget (0: no time limit), drawing from the
// equilibrium with the player's seed.
func (ab *AlphaBeta) chooseOpening(ctx context.Context, s *mancala.State, el Limits, budget time.Duration) (mancala.Action, error) {
	g, err := ab.opening.get(ctx, s, el, budget, func(ctx context.Context, st *mancala.State) int { return ab.value(ctx, st, el) })
	if err != nil {
		return 0, err
	}
	return drawOpening(g, s, ab.cfg.Seed), nil
}

// drawOpening draws the choice of the side to move at s from its strategy
// in g, with a generator seeded by seed and the position before South's
// choice.
func drawOpening(g OpeningGame, s *mancala.State, seed uint64) mancala.Action {
	rng := rand.New(rand.NewPCG(seed, openingSeed(s)))
	me := s.ToMove()
	return g.Choices(me)[drawMix(g.Mix(me), rng)]
}

// LastOpening returns the last opening game the player solved in the
// simultaneous Choro opening (a zero OpeningGame before any).
func (ab *AlphaBeta) LastOpening() OpeningGame { return ab.opening.game }
