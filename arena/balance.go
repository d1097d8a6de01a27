package arena

import (
	"context"
	"fmt"
	"math"
	"strings"

	"matombo/mancala"
	"matombo/search"
)

// Balance is the test a random opening must pass to be played when
// Config.Balance is set: a balanced opening set, as engine testing uses, so
// that a pair of games measures the players rather than the opening.
//
// An opening is balanced when a fixed alpha-beta search of the position it
// leads to (one worker, a fresh 2^18-entry table, the default evaluation
// search.DefaultWeights, no noise, a limit of Nodes nodes and no time limit)
// scores it within Margin hundredths of a stone of even, from either side.
// Forced decisions (a single legal action) are played first. In the
// simultaneous Choro opening (an opening of 0 turns, or one South's choice
// was forced in) the score is the value for South of the matrix game of the
// joint openings, each searched within a 64th of the nodes, as the
// alpha-beta player solves it: neither side is taken to see the other's
// choice. The openings of 1 or more turns contain the whole simultaneous
// opening (it is the first turn). The search is deterministic, so the
// verdict depends on the position only: not on the players matched, the
// machine or its load.
//
// For pair number p the arena draws candidate openings 0, 1, 2, ... (each
// OpeningTurns random turns, from a generator seeded with the match seed,
// p and the candidate number) and plays, in both games of the pair, the
// first balanced one that no earlier pair of the match has played; when
// every balanced one among Tries candidates was played before, the first
// of them is played again. With no balanced candidate among Tries, the
// match stops with an error. The openings thus depend only on the ruleset,
// the seed, OpeningTurns and the test.
type Balance struct {
	Nodes  int // node limit of the judging search, 1 or more
	Margin int // largest |score| kept, hundredths of a stone, 0 or more
	Tries  int // candidates drawn per pair before giving up, 1 or more
}

// DefaultBalance is the balance test of `matombo arena --balanced`: a
// 100,000-node search, within 15 stones of even, at most 200 candidates.
// On Choro from two random turns, searches of that size put most openings
// 30 stones or more ahead for one side, and seat-swapped pairs from those
// openings were always split by seat. The test does not remove every
// opening the seat decides: docs/STRENGTH.md has the measurements.
var DefaultBalance = Balance{Nodes: 100_000, Margin: 1_500, Tries: 200}

// Validate reports whether the test is usable.
func (b Balance) Validate() error {
	switch {
	case b.Nodes < 1:
		return fmt.Errorf("arena: balance nodes %d; use 1 or more", b.Nodes)
	case b.Margin < 0:
		return fmt.Errorf("arena: balance margin %d is negative", b.Margin)
	case b.Tries < 1:
		return fmt.Errorf("arena: balance tries %d; use 1 or more", b.Tries)
	}
	return nil
}

// judgeTable is the size of the judging search's table, 2^judgeTable entries.
const judgeTable = 18

// Judge returns the score of the position after the opening actions, in
// hundredths of a stone for South (positive: South is ahead), as the balance
// test sees it.
func (b Balance) Judge(ctx context.Context, rs mancala.Ruleset, opening []mancala.Action) (int, error) {
	s, err := mancala.NewGame(rs)
	if err != nil {
		return 0, err
	}
	for _, a := range opening {
		if err := s.Apply(a); err != nil {
			return 0, err
		}
	}
	var buf []mancala.Action
	for !s.IsOver() {
		if buf = s.Legal(buf[:0]); len(buf) != 1 {
			break
		}
		if err := s.Apply(buf[0]); err != nil {
			return 0, err
		}
	}
	if s.IsOver() {
		switch w, ok := s.Outcome().Result.Winner(); {
		case !ok:
			return 0, nil
		case w == mancala.South:
			return search.WinScore, nil
		}
		return -search.WinScore, nil
	}
	cfg := search.DefaultAlphaBeta(0)
	cfg.Workers, cfg.TableBits = 1, judgeTable
	ab, err := search.NewAlphaBeta(cfg)
	if err != nil {
		return 0, err
	}
	if _, err := ab.Choose(ctx, s, search.Limits{Nodes: b.Nodes}); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err // a cut search is not the test's verdict
	}
	if s.InSimultaneousOpening() {
		// The search solved the matrix game of the joint openings (each
		// searched within a 64th of the nodes): its value is South's.
		return int(math.Round(ab.LastOpening().Value)), nil
	}
	score := ab.LastStats().Score
	if s.ToMove() != mancala.South {
		score = -score
	}
	return score, nil
}

// balancedBook draws the balanced openings of one match, pair after pair.
type balancedBook struct {
	cfg    Config
	judged map[string]int  // balance scores of the openings judged so far
	played map[string]bool // openings given to earlier pairs
}

func newBalancedBook(cfg Config) *balancedBook {
	return &balancedBook{cfg: cfg, judged: map[string]int{}, played: map[string]bool{}}
}

// next returns the opening of pair number pair: the first of its candidates
// that passes the test and no earlier pair has played, or if every balanced
// candidate among the Tries was played before, the first balanced one.
// Pairs must be asked for in order, 0, 1, 2, ...
func (bk *balancedBook) next(ctx context.Context, pair int) ([]mancala.Action, error) {
	cfg, b := bk.cfg, *bk.cfg.Balance
	tries := b.Tries
	if cfg.OpeningTurns == 0 {
		tries = 1 // every candidate is the start position
	}
	closest := -1
	var again []mancala.Action // the first balanced candidate already played
	for try := 0; try < tries; try++ {
		acts, err := randomOpening(cfg.Ruleset, cfg.OpeningTurns, cfg.Seed, openingStream(pair, try))
		if err != nil {
			return nil, err
		}
		key := actionsKey(acts)
		score, ok := bk.judged[key]
		if !ok {
			if score, err = b.Judge(ctx, cfg.Ruleset, acts); err != nil {
				return nil, err
			}
			bk.judged[key] = score
		}
		if abs(score) <= b.Margin {
			if !bk.played[key] {
				bk.played[key] = true
				return acts, nil
			}
			if again == nil {
				again = acts
			}
		}
		if closest < 0 || abs(score) < closest {
			closest = abs(score)
		}
	}
	if again != nil {
		return again, nil
	}
	what := fmt.Sprintf("none of %d random openings of %d turns is", tries, cfg.OpeningTurns)
	if cfg.OpeningTurns == 0 {
		what = "the start position is not"
	}
	return nil, fmt.Errorf("arena: pair %d: %s within %.2f stones of even at %d nodes (closest: %.2f stones); "+
		"allow a larger margin or more opening turns", pair+1, what, float64(b.Margin)/100, b.Nodes, float64(closest)/100)
}

// openingStream numbers the random generator of candidate try of pair number
// pair; candidate 0 is the opening played without the balance test.
func openingStream(pair, try int) uint64 {
	return uint64(pair) + 0x5eed + uint64(try)<<32
}

func actionsKey(acts []mancala.Action) string {
	var b strings.Builder
	for _, a := range acts {
		b.WriteString(a.String())
		b.WriteByte(' ')
	}
	return b.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
