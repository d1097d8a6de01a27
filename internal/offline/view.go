package offline

import (
	"matombo/internal/rulefacts"
	"matombo/mancala"
	"matombo/search"
)

// view returns the game as the page draws it.
func (e *Engine) view() *View {
	s := e.rec.State()
	rec := e.rec.Record()
	v := &View{
		Ruleset:  s.Ruleset().String(),
		Title:    titles[s.Ruleset().Game],
		Game:     s.Ruleset().Game.String(),
		Size:     s.Size(),
		Level:    e.level,
		Human:    e.human.String(),
		Position: s.Position(),
		ToMove:   s.ToMove().String(),
		Board:    rulefacts.BoardOf(s),
		Stones:   map[string]int{"S": s.Stones(mancala.South), "N": s.Stones(mancala.North)},
		Legal:    []string{},
		Pending:  s.Pending(),
		Decision: s.Decision().Kind.String(),
		Turns:    [][]string{},
		Record:   rec.String(),
		Result:   rec.Result.String(),
		Reason:   s.Outcome().Reason.String(),
		Facts:    rulefacts.Of(s),
	}
	start, _ := rec.Start()
	v.FirstToMove = mancala.South.String()
	if start != nil {
		v.FirstToMove = start.ToMove().String()
	}
	hidden := s.OpeningChoiceHidden() && e.human == mancala.North // the computer's opening choice
	if hidden {
		v.Record = ""
	}
	v.Moves = rulefacts.Turns(rec)
	if hidden && len(v.Moves) > 0 {
		v.Moves = v.Moves[:len(v.Moves)-1]
	}
	for i, t := range rec.Turns {
		if i == len(rec.Turns)-1 && hidden {
			break
		}
		turn := make([]string, len(t))
		for j, a := range t {
			turn[j] = a.String()
		}
		v.Turns = append(v.Turns, turn)
	}
	over := s.IsOver() || rec.Result != mancala.NoResult
	switch {
	case over:
		v.Status = "over"
		v.Decision = "over"
		if !s.IsOver() {
			v.Reason = "resigned"
		}
	default:
		v.Status = "playing"
		v.Thinking = s.ToMove() != e.human
		for _, a := range s.Legal(nil) {
			v.Legal = append(v.Legal, a.String())
		}
		mancala.SortActionStrings(v.Legal)
	}
	if v.Result == "*" {
		v.Reason = ""
	}
	return v
}

// openingReply chooses North's half of the simultaneous Choro opening
// without looking at South's: before is the game as it was before South
// chose (State.BeforeOpeningChoice) and legal North's choices. For each
// choice it takes the worst case over South's possible choices, scoring
// the position after both openings are sown with the search's evaluation
// (from North's side), and returns the choice whose worst case is best.
func openingReply(before *mancala.State, legal []mancala.Action) mancala.Action {
	eval := search.Linear{W: search.DefaultWeights}
	south := before.Legal(nil)
	best, bestScore := legal[0], 0
	for i, north := range legal {
		worst, seen := 0, false
		for _, sa := range south {
			s := before.Clone()
			if s.Apply(sa) != nil || s.Apply(north) != nil {
				continue
			}
			if score := scoreFor(s, eval, mancala.North); !seen || score < worst {
				worst, seen = score, true
			}
		}
		if i == 0 || worst > bestScore {
			best, bestScore = north, worst
		}
	}
	return best
}

// scoreFor scores s for p: the evaluation, or a win or loss when over.
func scoreFor(s *mancala.State, eval search.Linear, p mancala.Player) int {
	if s.IsOver() {
		w, ok := s.Outcome().Result.Winner()
		switch {
		case !ok:
			return 0
		case w == p:
			return 1 << 20
		}
		return -1 << 20
	}
	v := eval.Evaluate(s)
	if s.ToMove() != p {
		v = -v
	}
	return v
}
