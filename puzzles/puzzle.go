// Package puzzles holds the shipped puzzles of every preset and the code
// that finds, checks and plays them with the exact solver.
//
// A puzzle is a turn-start position, after any Choro opening, where the
// side to move has a forced win that only one first action keeps. The
// first action is the mover's first decision of the turn, one action of
// the engine's Decision model (a lift such as "a3" or, in Choro, "a3cw");
// the decisions that may follow in the same turn (a relay or stop at a
// head, bonus picks, Nsolo removals, a Choro lap's direction) are further
// moves of the puzzle, each of which must keep the win. A puzzle of kind
// "only" has every other first action proven lost; one of kind "keeps" has
// every other first action proven not to win (a draw or a loss), with at
// least one of them not lost.
package puzzles

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"

	"matombo/mancala"
)

// MinPerPreset is the fewest puzzles each preset ships.
const MinPerPreset = 300

// The kinds of puzzle.
const (
	KindOnly  = "only"  // one first action wins, every other loses
	KindKeeps = "keeps" // one first action keeps the win, the others draw or lose
)

// Puzzle is one shipped puzzle.
type Puzzle struct {
	ID       string   `json:"id"`       // preset and position number, such as "nsolo-0042"
	Position string   `json:"position"` // the puzzle's position in notation (RULES.md §5)
	Kind     string   `json:"kind"`     // KindOnly or KindKeeps
	Action   string   `json:"action"`   // the only first action that wins
	Line     []string `json:"line"`     // the main line, one action per decision, from Action to the end of the game
	Themes   []string `json:"themes,omitempty"`
	Rating   int      `json:"rating"` // the puzzle's Glicko-2 rating, from its difficulty
	Legal    int      `json:"legal"`  // first actions to choose from
	Nodes    int      `json:"nodes"`  // solver nodes the generator's proof took
	Source   string   `json:"source"` // where the position comes from, such as "self-play game 17, turn 40"
}

// Set is the puzzles of one preset.
type Set struct {
	Preset  string   `json:"preset"`  // the game's name, such as "misoro-tsoro"
	Ruleset string   `json:"ruleset"` // the preset's canonical ruleset
	Budget  int      `json:"budget"`  // the solver nodes each action's proof may take
	Puzzles []Puzzle `json:"puzzles"`
}

// rules returns the set's ruleset.
func (st *Set) rules() (mancala.Ruleset, error) { return mancala.ParseRuleset(st.Ruleset) }

// Find returns the puzzle with the given id.
func (st *Set) Find(id string) (Puzzle, bool) {
	i := slices.IndexFunc(st.Puzzles, func(p Puzzle) bool { return p.ID == id })
	if i < 0 {
		return Puzzle{}, false
	}
	return st.Puzzles[i], true
}

// Add adds p to the set under the next id ("nsolo-0042"), unless a puzzle
// of the set has its position already, and reports whether it did.
func (st *Set) Add(p Puzzle) bool {
	if slices.ContainsFunc(st.Puzzles, func(q Puzzle) bool { return q.Position == p.Position }) {
		return false
	}
	p.ID = fmt.Sprintf("%s-%04d", st.Preset, len(st.Puzzles)+1)
	st.Puzzles = append(st.Puzzles, p)
	return true
}

//go:embed data/*.json
var data embed.FS

// Load returns the shipped puzzles of preset (a game's name, as
// mancala.Game.String writes it).
func Load(preset string) (*Set, error) {
	if !isPreset(preset) {
		return nil, fmt.Errorf("puzzles: no preset %q; presets are %s", preset, presetList())
	}
	b, err := data.ReadFile("data/" + preset + ".json")
	if err != nil {
		return nil, fmt.Errorf("puzzles: no puzzles shipped for %s", preset)
	}
	var st Set
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("puzzles: the shipped puzzles of %s do not read: %w", preset, err)
	}
	return &st, nil
}

// Presets returns the names of the presets, in the order of mancala.Games.
func Presets() []string {
	var out []string
	for _, g := range mancala.Games() {
		out = append(out, g.String())
	}
	return out
}

func isPreset(name string) bool { return slices.Contains(Presets(), name) }

func presetList() string {
	ps := Presets()
	out := ""
	for i, p := range ps {
		if i > 0 {
			out += ", "
		}
		out += p
	}
	return out
}
