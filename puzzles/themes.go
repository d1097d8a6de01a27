package puzzles

import (
	"context"

	"matombo/mancala"
	"matombo/search"
)

// The themes a puzzle may carry, as Themes names them.
const (
	ThemeBonusPicks     = "bonus-picks"     // the first turn captures and picks whole holes as a bonus (Tsoro)
	ThemeRemoval        = "removal"         // the first turn captures and removes single stones (Nsolo)
	ThemeHeadStop       = "head-stop"       // the first turn stops at an occupied head instead of relaying
	ThemeHeadRelay      = "head-relay"      // the first turn relays from an occupied head
	ThemeClockwiseChain = "clockwise-chain" // the first turn sows clockwise and goes on for more laps (Choro)
	ThemeClockwise      = "clockwise"       // the first turn sows clockwise (Choro)
	ThemeQuiet          = "quiet"           // the first turn captures nothing
	ThemeAtOnce         = "at-once"         // the game is won in the first turn
	ThemeLong           = "long"            // the win takes four turns of the solver or more
)

// Themes names what the first turn of line (the mover's decisions from s
// until the opponent's turn) does, and how long the win takes.
func Themes(s *mancala.State, line []mancala.Action) []string {
	me := s.ToMove()
	theirs := s.Stones(me.Other())
	var themes []string
	add := func(t string) {
		for _, u := range themes {
			if u == t {
				return
			}
		}
		themes = append(themes, t)
	}
	t := s.Clone()
	laps, clockwise, turns := 0, false, 1
	first := true
	for _, a := range line {
		if t.IsOver() {
			break
		}
		if first {
			switch d := t.Decision(); {
			case a.Kind() == mancala.KindTake && d.Kind == mancala.DecisionPick:
				add(ThemeBonusPicks)
			case a.Kind() == mancala.KindTake && d.Kind == mancala.DecisionRemove:
				add(ThemeRemoval)
			case a == mancala.Stop:
				add(ThemeHeadStop)
			case d.Kind == mancala.DecisionHead:
				add(ThemeHeadRelay)
			case a.Kind() == mancala.KindClockwise:
				clockwise = true
			}
		}
		if err := t.Apply(a); err != nil {
			break
		}
		if first {
			laps = max(laps, t.LapsThisTurn())
		}
		if first && (t.ToMove() != me || t.IsOver()) {
			first = false
			if t.Stones(me.Other()) >= theirs && !t.IsOver() {
				add(ThemeQuiet)
			}
			if t.IsOver() {
				add(ThemeAtOnce)
			}
		}
		if t.ToMove() == me && t.AtTurnStart() && !t.IsOver() {
			turns++
		}
	}
	switch {
	case clockwise && laps > 1:
		add(ThemeClockwiseChain)
	case clockwise:
		add(ThemeClockwise)
	}
	if turns >= 4 {
		add(ThemeLong)
	}
	return themes
}

// Difficulty rates a puzzle by the weakest level of play (1 to 7) that
// finds its first action: 800 for level 1, 150 more for each level above,
// 1900 when level 7 misses it too; 100 more for a puzzle of kind "keeps",
// and 20 more for each of the solver's turns after the second (at most 200).
func Difficulty(ctx context.Context, s *mancala.State, c Classification, line []mancala.Action) (int, error) {
	rating := 1900
	for k := search.MinLevel; k <= 7; k++ {
		lp, err := search.NewLevelOn(k, uint64(k), 1)
		if err != nil {
			return 0, err
		}
		a, err := lp.Choose(ctx, s, search.Limits{})
		if err != nil {
			return 0, err
		}
		if a == c.Action {
			rating = 800 + 150*(k-1)
			break
		}
	}
	if c.Kind == KindKeeps {
		rating += 100
	}
	turns := 0
	t := s.Clone()
	for _, a := range line {
		if t.AtTurnStart() && t.ToMove() == s.ToMove() {
			turns++
		}
		if t.Apply(a) != nil {
			break
		}
	}
	rating += min(200, 20*max(0, turns-2))
	return rating, nil
}
