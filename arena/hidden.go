package arena

import (
	"context"
	"fmt"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// In the simultaneous Choro opening (RULES.md §3.4, opening=simultaneous)
// South and North each choose an opening hole without seeing the other's
// choice. The arena's game holds South's choice when North is asked
// (mancala.State.OpeningChoiceHidden); it never shows that state to North's
// player:
//
//   - A player of package search (random, uct, mcts, alphabeta, level:K)
//     chooses in the simultaneous opening from the position before South's
//     choice (State.BeforeOpeningChoice) by itself. It is shown a stand-in:
//     that position with South's first legal choice played. Its choice is
//     the one it would make on the real game, and cannot depend on South's.
//   - Any other player (one built by the caller of RunPlayers) is asked on
//     each of South's possible choices in turn, each with an equal share of
//     the decision's limits, and plays the North action it chose for the
//     most of them (on a tie, the first in North's legal order): its best
//     reply, by its own judgement, to a South who opens uniformly at random.
//   - An engine is sent the game's actions, South's choice included: the
//     protocol (RULES.md §6) obliges `go` not to use it.

// choosesOpeningAlone reports whether p is a player that chooses in the
// simultaneous opening from the position before South's choice.
func choosesOpeningAlone(p search.Player) bool {
	switch p.(type) {
	case *search.Random, *search.MCTS, *search.AlphaBeta, *search.LevelPlayer:
		return true
	}
	return false
}

// chooseHiddenNorth asks p for North's choice of the simultaneous opening at
// s, which holds South's choice (s.OpeningChoiceHidden), without showing p
// that choice.
func chooseHiddenNorth(ctx context.Context, p search.Player, s *mancala.State, lim search.Limits) (mancala.Action, error) {
	before := s.BeforeOpeningChoice()
	guesses := before.Legal(nil)
	if len(guesses) == 0 {
		return 0, fmt.Errorf("arena: South has no opening choice before %s", s.Position())
	}
	view := func(g mancala.Action) (*mancala.State, error) {
		v := before.Clone()
		if err := v.Apply(g); err != nil {
			return nil, fmt.Errorf("arena: South's stand-in opening %s: %w", g, err)
		}
		return v, nil
	}
	if pl, ok := p.(plain); ok {
		p = pl.Player
	}
	if choosesOpeningAlone(p) {
		v, err := view(guesses[0])
		if err != nil {
			return 0, err
		}
		return p.Choose(ctx, v, lim)
	}
	share := shareLimits(lim, len(guesses))
	votes := map[mancala.Action]int{}
	var first mancala.Action
	var north []mancala.Action
	for i, g := range guesses {
		v, err := view(g)
		if err != nil {
			return 0, err
		}
		if i == 0 {
			north = v.Legal(nil) // North's outer holes: the same whatever South chose
		}
		a, err := p.Choose(ctx, v, share)
		if err != nil {
			return 0, err
		}
		if i == 0 {
			first = a
		}
		votes[a]++
		if ctx.Err() != nil {
			break
		}
	}
	best, most := first, 0
	for _, a := range north {
		if votes[a] > most {
			best, most = a, votes[a]
		}
	}
	return best, nil
}

// shareLimits returns an n-th of each limit that a share can be taken of
// (time, playouts, nodes; at least 1 ms, 1 playout, 1 node); a depth limit
// is kept. Zero limits stay zero: the player then uses its own defaults on
// each share.
func shareLimits(lim search.Limits, n int) search.Limits {
	if n <= 1 {
		return lim
	}
	out := lim
	if lim.MoveTime > 0 {
		out.MoveTime = max(lim.MoveTime/time.Duration(n), time.Millisecond)
	}
	if lim.Playouts > 0 {
		out.Playouts = max(lim.Playouts/n, 1)
	}
	if lim.Nodes > 0 {
		out.Nodes = max(lim.Nodes/n, 1)
	}
	return out
}
