package puzzles

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"matombo/mancala"
	"matombo/search"
)

// GenerateConfig configures the search for puzzles of one preset.
type GenerateConfig struct {
	Want    int    // puzzles to find
	Games   int    // the most self-play games to play
	Seed    uint64 // seeds the games
	Budget  int    // solver nodes per action's proof (0: DefaultBudget)
	Play    int    // the level of both players of the self-play games (1 to 7)
	Opening int    // random turns at the start of each game, for variety
	PerGame int    // the most puzzles taken from one game
	Spacing int    // the fewest turns between two turn starts of a game tried
	// Branch also tries, at each turn start tried, the turn starts one
	// turn off the game's path: after each turn the side to move could
	// have played (at most 64).
	Branch  bool
	MaxLine int // the longest main line, in decisions
	// MaxStones, when above 0, skips the turn starts with more stones on
	// the board: on a large board the solver proves only endgames.
	MaxStones int
	// MaxSide, when above 0, skips the turn starts where both sides have
	// more stones, and tries only the positions whose side to move has at
	// most MaxSide: in Choro, where no stone leaves the board, the puzzles
	// are those of a side low on stones that can still win.
	MaxSide int
	// Screen is the solver nodes of the quick proof of a candidate's root
	// that most positions fail (0: the budget): a smaller screen tries
	// more positions in the same time, and keeps those proven quickly.
	Screen int
	// MaxNodes bounds the nodes of all the first actions' proofs together,
	// so that verifying the shipped puzzles stays quick.
	MaxNodes int
	// Append, when set, is a set of the same preset and budget whose
	// puzzles are kept: the new ones are added after them, none twice.
	Append *Set
	// Found, when set, is called with the set so far after each new puzzle,
	// so that a long run can be saved as it goes.
	Found func(*Set)
}

// DefaultGenerate is the defaults of matombo puzzles (docs/PUZZLES.md says
// which levels and seeds the shipped puzzles come from).
func DefaultGenerate() GenerateConfig {
	return GenerateConfig{Want: 320, Games: 4000, Seed: 1, Budget: DefaultBudget, Play: 2, Opening: 4, PerGame: 6, Spacing: 6, Branch: true, MaxStones: 16, MaxLine: 40, Screen: 2000, MaxNodes: 150_000}
}

// Validate reports whether cfg is usable.
func (cfg GenerateConfig) Validate() error {
	switch {
	case cfg.Want < 1:
		return fmt.Errorf("puzzles: want %d puzzles; give 1 or more", cfg.Want)
	case cfg.Games < 1:
		return fmt.Errorf("puzzles: %d games; give 1 or more", cfg.Games)
	case cfg.Budget < 0:
		return fmt.Errorf("puzzles: budget %d nodes is negative", cfg.Budget)
	case cfg.Play < search.MinLevel || cfg.Play > 7:
		return fmt.Errorf("puzzles: play level %d; give %d to 7", cfg.Play, search.MinLevel)
	case cfg.MaxStones < 0:
		return fmt.Errorf("puzzles: max stones %d is negative; give 0 (no bound) or more", cfg.MaxStones)
	case cfg.MaxSide < 0:
		return fmt.Errorf("puzzles: max side %d is negative; give 0 (no bound) or more", cfg.MaxSide)
	case cfg.Screen < 0:
		return fmt.Errorf("puzzles: screen %d nodes is negative; give 0 (the budget) or more", cfg.Screen)
	case cfg.MaxNodes < 0:
		return fmt.Errorf("puzzles: max nodes %d is negative; give 0 (no bound) or more", cfg.MaxNodes)
	case cfg.Opening < 0 || cfg.PerGame < 1 || cfg.MaxLine < 1 || cfg.Spacing < 1:
		return fmt.Errorf("puzzles: opening %d, per game %d, max line %d, spacing %d: give 0 or more, then 1 or more", cfg.Opening, cfg.PerGame, cfg.MaxLine, cfg.Spacing)
	}
	return nil
}

// Generate plays self-play games of rs and keeps the turn starts that are
// puzzles (see Classify), until cfg.Want are found or cfg.Games are played.
// Each candidate is read back from its position, so its proof does not
// depend on the game's history, and proven with a fresh Prover.
func Generate(ctx context.Context, rs mancala.Ruleset, cfg GenerateConfig) (*Set, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	st, seen, budget, err := newSet(rs, cfg)
	if err != nil {
		return nil, err
	}
	for g := 0; g < cfg.Games && len(st.Puzzles) < cfg.Want+len(appended(cfg)); g++ {
		found, err := gamePuzzles(ctx, rs, cfg, budget, g, seen)
		if err != nil {
			return st, err
		}
		for _, p := range found {
			if len(st.Puzzles) >= cfg.Want+len(appended(cfg)) {
				break
			}
			if !st.Add(p) {
				continue
			}
			if cfg.Found != nil {
				cfg.Found(st)
			}
		}
	}
	return st, nil
}

// newSet returns the set Generate and FromRecords fill: empty, or
// cfg.Append's puzzles, with the positions already there, and the budget.
func newSet(rs mancala.Ruleset, cfg GenerateConfig) (*Set, map[string]bool, int, error) {
	budget := cfg.Budget
	if budget == 0 {
		budget = DefaultBudget
	}
	st := &Set{Preset: rs.Game.String(), Ruleset: rs.String(), Budget: budget, Puzzles: []Puzzle{}}
	seen := map[string]bool{}
	if cfg.Append != nil {
		if cfg.Append.Ruleset != st.Ruleset || cfg.Append.Budget != budget {
			return nil, nil, 0, fmt.Errorf("puzzles: the set to append to is of %q with budget %d, not %q with %d", cfg.Append.Ruleset, cfg.Append.Budget, st.Ruleset, budget)
		}
		st.Puzzles = append(st.Puzzles, cfg.Append.Puzzles...)
		for _, p := range st.Puzzles {
			seen[p.Position] = true
		}
	}
	return st, seen, budget, nil
}

// gamePuzzles plays self-play game g and returns the puzzles met in it.
func gamePuzzles(ctx context.Context, rs mancala.Ruleset, cfg GenerateConfig, budget, g int, seen map[string]bool) ([]Puzzle, error) {
	spec, err := search.Level(cfg.Play)
	if err != nil {
		return nil, err
	}
	s, err := mancala.NewGame(rs)
	if err != nil {
		return nil, err
	}
	var players [2]*search.AlphaBeta
	for side := range players {
		ab, err := search.NewAlphaBeta(search.AlphaBetaConfig{
			Seed: cfg.Seed ^ uint64(2*g+side)*0x9e3779b97f4a7c15, Workers: 1, TableBits: 16,
			Noise: spec.Noise, Blunder: spec.Blunder, Quiesce: spec.Quiesce, Limits: spec.Limits(),
		})
		if err != nil {
			return nil, err
		}
		players[side] = ab
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(g)))
	var buf []mancala.Action
	var out []Puzzle
	lastTurn := -100
	for !s.IsOver() && len(out) < cfg.PerGame {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if s.InSimultaneousOpening() || s.Turns() < cfg.Opening {
			buf = s.Legal(buf[:0])
			if err := s.Apply(buf[rng.IntN(len(buf))]); err != nil {
				return out, err
			}
			continue
		}
		if s.AtTurnStart() && s.Turns()-lastTurn >= cfg.Spacing {
			found, err := tryTurnStart(ctx, rs, s, cfg, budget, seen, cfg.PerGame-len(out),
				fmt.Sprintf("self-play game %d (seed %d, level %d), turn %d", g, cfg.Seed, cfg.Play, s.Turns()+1))
			if err != nil {
				return out, err
			}
			if len(found) > 0 {
				out, lastTurn = append(out, found...), s.Turns()
			}
		}
		a, err := players[s.ToMove()].Choose(ctx, s, search.Limits{})
		if err != nil {
			return out, err
		}
		if err := s.Apply(a); err != nil {
			return out, fmt.Errorf("puzzles: %s chose an illegal action: %w", s.ToMove().Name(), err)
		}
	}
	return out, nil
}

// tryTurnStart tries the turn start s of a game, and the positions one
// turn off it (cfg.Branch), when it has few enough stones, and returns the
// puzzles found there (at most room), their source saying where.
func tryTurnStart(ctx context.Context, rs mancala.Ruleset, s *mancala.State, cfg GenerateConfig, budget int, seen map[string]bool, room int, source string) ([]Puzzle, error) {
	few := cfg.MaxStones <= 0 || s.Stones(mancala.South)+s.Stones(mancala.North) <= cfg.MaxStones
	few = few && (cfg.MaxSide <= 0 || min(s.Stones(mancala.South), s.Stones(mancala.North)) <= cfg.MaxSide)
	if !few || s.InOpening() {
		return nil, nil
	}
	var out []Puzzle
	for i, t := range branches(s, cfg.Branch) {
		pos := t.Position()
		if seen[pos] || len(out) >= room || (cfg.MaxSide > 0 && t.Stones(t.ToMove()) > cfg.MaxSide) {
			continue
		}
		seen[pos] = true
		p, err := candidate(ctx, rs, pos, budget, cfg.screen(budget), cfg.MaxLine, cfg.MaxNodes)
		switch {
		case err == nil:
			p.Source = source
			if i > 0 {
				p.Source += fmt.Sprintf(", after %s's alternative turn", s.ToMove().Name())
			}
			out = append(out, p)
		case !errors.Is(err, ErrNotPuzzle):
			return out, err
		}
	}
	return out, nil
}

// candidate proves the position pos of rs and returns it as a puzzle, or an
// error wrapping ErrNotPuzzle when it is not one.
func candidate(ctx context.Context, rs mancala.Ruleset, pos string, budget, screen, maxLine, maxNodes int) (Puzzle, error) {
	s, err := fromPosition(rs, pos)
	if err != nil {
		return Puzzle{}, err
	}
	if s.InOpening() || s.Decision().Kind != mancala.DecisionTurn {
		return Puzzle{}, fmt.Errorf("%w: not a turn start after the opening", ErrNotPuzzle)
	}
	pv := NewProver(budget)
	sol, err := pv.sv.Solve(ctx, s, search.Limits{Nodes: screen})
	if err != nil {
		return Puzzle{}, err
	}
	if sol.Value != search.Win { // the cheap test first: most positions stop here
		return Puzzle{}, fmt.Errorf("%w: no proven win", ErrNotPuzzle)
	}
	pv = NewProver(budget)
	c, err := pv.Classify(ctx, s)
	if err != nil {
		return Puzzle{}, err
	}
	if maxNodes > 0 && c.Nodes > maxNodes {
		return Puzzle{}, fmt.Errorf("%w: the proofs take %d nodes, more than %d", ErrNotPuzzle, c.Nodes, maxNodes)
	}
	after := s.Clone()
	if err := after.Apply(c.Action); err != nil {
		return Puzzle{}, err
	}
	rest, err := pv.Continue(ctx, after, s.ToMove(), maxLine-1)
	if err != nil {
		return Puzzle{}, fmt.Errorf("%w: %v", ErrNotPuzzle, err)
	}
	line := append([]mancala.Action{c.Action}, rest...)
	p := Puzzle{Position: pos, Kind: c.Kind, Action: c.Action.String(), Legal: len(c.Values), Nodes: c.Nodes}
	for _, a := range line {
		p.Line = append(p.Line, a.String())
	}
	p.Themes = Themes(s, line)
	p.Rating, err = Difficulty(ctx, s, c, line)
	if err != nil {
		return Puzzle{}, err
	}
	return p, nil
}

// fromPosition returns a new game of rs set to pos.
func fromPosition(rs mancala.Ruleset, pos string) (*mancala.State, error) {
	s, err := mancala.NewGame(rs)
	if err != nil {
		return nil, err
	}
	if err := s.SetPosition(pos); err != nil {
		return nil, err
	}
	return s, nil
}

// maxBranches bounds the turn starts branches returns for one position.
const maxBranches = 64

// branches returns s and, when branch is set, the turn starts one turn off
// the game's path: after each of the side to move's turns in s (every
// sequence of its decisions, up to maxBranches positions).
func branches(s *mancala.State, branch bool) []*mancala.State {
	out := []*mancala.State{s}
	if !branch {
		return out
	}
	var walk func(t *mancala.State)
	walk = func(t *mancala.State) {
		for _, a := range t.Legal(nil) {
			if len(out) > maxBranches {
				return
			}
			u := t.Clone()
			if u.Apply(a) != nil || u.IsOver() {
				continue
			}
			if u.AtTurnStart() {
				out = append(out, u)
				continue
			}
			walk(u)
		}
	}
	walk(s)
	return out
}

func appended(cfg GenerateConfig) []Puzzle {
	if cfg.Append == nil {
		return nil
	}
	return cfg.Append.Puzzles
}

func (cfg GenerateConfig) screen(budget int) int {
	if cfg.Screen > 0 {
		return min(cfg.Screen, budget)
	}
	return budget
}
