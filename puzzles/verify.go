package puzzles

import (
	"context"
	"fmt"
	"slices"

	"matombo/mancala"
)

// Verify proves p again from its position, with a fresh Prover of budget
// nodes per action's proof: it must be a puzzle of its kind whose only
// winning first action is p.Action, and its main line must be legal and
// end in the mover's win, with the themes Themes names. It returns the nodes the proofs took.
func Verify(ctx context.Context, rs mancala.Ruleset, p Puzzle, budget int) (int, error) {
	s, err := fromPosition(rs, p.Position)
	if err != nil {
		return 0, fmt.Errorf("puzzles: %s: %w", p.ID, err)
	}
	c, err := NewProver(budget).Classify(ctx, s)
	if err != nil {
		return c.Nodes, fmt.Errorf("puzzles: %s: %w", p.ID, err)
	}
	switch {
	case c.Action.String() != p.Action:
		return c.Nodes, fmt.Errorf("puzzles: %s: the winning first action is %s, not %s", p.ID, c.Action, p.Action)
	case c.Kind != p.Kind:
		return c.Nodes, fmt.Errorf("puzzles: %s: the puzzle is of kind %s, not %s", p.ID, c.Kind, p.Kind)
	case c.Action.String() != firstOf(p.Line):
		return c.Nodes, fmt.Errorf("puzzles: %s: the main line does not start with %s", p.ID, p.Action)
	case len(c.Values) != p.Legal:
		return c.Nodes, fmt.Errorf("puzzles: %s: %d first actions, not %d", p.ID, len(c.Values), p.Legal)
	}
	me := s.ToMove()
	start := s.Clone()
	line := make([]mancala.Action, 0, len(p.Line))
	for i, text := range p.Line {
		a, err := mancala.ParseAction(text)
		if err == nil {
			err = s.Apply(a)
		}
		if err != nil {
			return c.Nodes, fmt.Errorf("puzzles: %s: main line action %d: %w", p.ID, i+1, err)
		}
		line = append(line, a)
		if s.IsOver() && i < len(p.Line)-1 {
			return c.Nodes, fmt.Errorf("puzzles: %s: the game ends before the main line does", p.ID)
		}
	}
	if w, ok := s.Outcome().Result.Winner(); !s.IsOver() || !ok || w != me {
		return c.Nodes, fmt.Errorf("puzzles: %s: the main line does not end in %s's win", p.ID, me.Name())
	}
	if th := Themes(start, line); !slices.Equal(th, p.Themes) {
		return c.Nodes, fmt.Errorf("puzzles: %s: the themes are %v, not %v", p.ID, th, p.Themes)
	}
	return c.Nodes, nil
}

func firstOf(line []string) string {
	if len(line) == 0 {
		return ""
	}
	return line[0]
}

// Report is what VerifySet found of one preset's puzzles.
type Report struct {
	Preset   string   `json:"preset"`
	Puzzles  int      `json:"puzzles"`
	Verified int      `json:"verified"`
	Nodes    int      `json:"nodes"`
	Failures []string `json:"failures,omitempty"`
}

// VerifySet verifies the puzzles of st (every one, or only those whose
// index is a multiple of every when every > 1) with the set's budget. The
// ids must be unique, and the positions too.
func VerifySet(ctx context.Context, st *Set, every int) (Report, error) {
	rep := Report{Preset: st.Preset, Puzzles: len(st.Puzzles)}
	rs, err := st.rules()
	if err != nil {
		return rep, err
	}
	ids, positions := map[string]bool{}, map[string]bool{}
	for i, p := range st.Puzzles {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if ids[p.ID] || positions[p.Position] {
			rep.Failures = append(rep.Failures, fmt.Sprintf("puzzles: %s: a duplicate id or position", p.ID))
			continue
		}
		ids[p.ID], positions[p.Position] = true, true
		if every > 1 && i%every != 0 {
			continue
		}
		n, err := Verify(ctx, rs, p, st.Budget)
		rep.Nodes += n
		if err != nil {
			rep.Failures = append(rep.Failures, err.Error())
			continue
		}
		rep.Verified++
	}
	slices.Sort(rep.Failures)
	return rep, nil
}
