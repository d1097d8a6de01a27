package mancala

import (
	"fmt"
	"strconv"
	"strings"
)

// Game names a family of rules. Its String is the name used in ruleset strings.
type Game uint8

// The games of RULES.md §3.
const (
	Tsoro       Game = iota + 1 // tsoro: Tsoro (Fuva, Imbwe), after Matthews 1964
	MisoroTsoro                 // misoro-tsoro: Tsoro with chosen heads on 4×8
	MusoroTsoro                 // musoro-tsoro: Tsoro with a single three-stone head on 4×8
	Nsolo                       // nsolo: Nsolo (Nchombwa), after Sanderson 1913
	Choro                       // choro: Choro (Acholi), after Driberg 1927
)

var gameNames = [...]string{Tsoro: "tsoro", MisoroTsoro: "misoro-tsoro", MusoroTsoro: "musoro-tsoro", Nsolo: "nsolo", Choro: "choro"}

// Games lists every game in the order of RULES.md.
func Games() []Game { return []Game{Tsoro, MisoroTsoro, MusoroTsoro, Nsolo, Choro} }

// String returns the game's name as written in rulesets, such as "misoro-tsoro".
func (g Game) String() string {
	if g == 0 || int(g) >= len(gameNames) {
		return "game(" + strconv.Itoa(int(g)) + ")"
	}
	return gameNames[g]
}

// Heads selects the heads (misoro) of the Tsoro games.
type Heads uint8

// The head options of RULES.md §3.1.
const (
	HeadsNone   Heads = iota // none: no heads
	HeadsRight2              // right2: the two rightmost holes of the outer row
	HeadsLeft2               // left2: the two leftmost holes of the outer row
	HeadsEnds                // ends: leftmost and rightmost; the rightmost starts with 3
	HeadsRight1              // right1: the rightmost hole, starting with 3
	HeadsChoose              // choose: each player names two outer holes before play
)

var headsNames = [...]string{"none", "right2", "left2", "ends", "right1", "choose"}

// String returns the option value, such as "right2".
func (h Heads) String() string {
	if int(h) >= len(headsNames) {
		return "heads(" + strconv.Itoa(int(h)) + ")"
	}
	return headsNames[h]
}

// Ruleset is a game and its options. The zero value is not valid; build one
// with ParseRuleset or Default and check it with Validate. Rulesets are
// comparable values: two rulesets are the same rules when they are ==, except
// that different preset names of equal options print differently.
type Ruleset struct {
	Game  Game
	Size  int   // columns N of the 4×N board
	Heads Heads // Tsoro family only
	Bonus int   // Tsoro family: whole-hole bonus picks after a capture
	Outer bool  // Nsolo: a capture also takes the opposite outer hole
	Extra int   // Nsolo: whole-hole picks instead of the stone removal (0: removal)
}

// Default returns g with every option at its default.
func Default(g Game) Ruleset {
	switch g {
	case Tsoro:
		return Ruleset{Game: Tsoro, Size: 21, Heads: HeadsRight2, Bonus: 2}
	case MisoroTsoro:
		return Ruleset{Game: MisoroTsoro, Size: 8, Heads: HeadsChoose}
	case MusoroTsoro:
		return Ruleset{Game: MusoroTsoro, Size: 8, Heads: HeadsRight1}
	case Nsolo:
		return Ruleset{Game: Nsolo, Size: 8}
	case Choro:
		return Ruleset{Game: Choro, Size: 8}
	}
	return Ruleset{}
}

// option describes one ruleset option of a game, for parsing, printing and help.
type option struct {
	key     string
	allowed string // human description of the allowed values
	get     func(Ruleset) string
	set     func(*Ruleset, string) error
}

func intOption(key string, lo, hi int, field func(*Ruleset) *int) option {
	allowed := fmt.Sprintf("a whole number from %d to %d", lo, hi)
	return option{
		key:     key,
		allowed: allowed,
		get:     func(r Ruleset) string { return strconv.Itoa(*field(&r)) },
		set: func(r *Ruleset, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi || v != strconv.Itoa(n) {
				return fmt.Errorf("%s=%q is not allowed; %s takes %s", key, v, key, allowed)
			}
			*field(r) = n
			return nil
		},
	}
}

func sizeOption(g Game) option {
	switch g {
	case Nsolo:
		return intOption("size", 8, 36, func(r *Ruleset) *int { return &r.Size })
	case Choro:
		return intOption("size", 8, 8, func(r *Ruleset) *int { return &r.Size })
	}
	return intOption("size", 6, 21, func(r *Ruleset) *int { return &r.Size })
}

var headsOption = option{
	key:     "heads",
	allowed: "one of none, right2, left2, ends, right1, choose",
	get:     func(r Ruleset) string { return r.Heads.String() },
	set: func(r *Ruleset, v string) error {
		for i, name := range headsNames {
			if v == name {
				r.Heads = Heads(i)
				return nil
			}
		}
		return fmt.Errorf("heads=%q is not allowed; heads takes one of none, right2, left2, ends, right1, choose", v)
	},
}

var outerOption = option{
	key:     "outer",
	allowed: "yes or no",
	get: func(r Ruleset) string {
		if r.Outer {
			return "yes"
		}
		return "no"
	},
	set: func(r *Ruleset, v string) error {
		switch v {
		case "yes":
			r.Outer = true
		case "no":
			r.Outer = false
		default:
			return fmt.Errorf("outer=%q is not allowed; outer takes yes or no", v)
		}
		return nil
	},
}

var openingOption = option{
	key:     "opening",
	allowed: "sequential (simultaneous is not yet modelled)",
	get:     func(Ruleset) string { return "sequential" },
	set: func(_ *Ruleset, v string) error {
		if v != "sequential" {
			return fmt.Errorf("opening=%q is not allowed; opening takes sequential (simultaneous is not yet modelled)", v)
		}
		return nil
	},
}

// options lists the options of g in their canonical order.
func options(g Game) []option {
	switch g {
	case Tsoro, MisoroTsoro, MusoroTsoro:
		return []option{sizeOption(g), headsOption, intOption("bonus", 0, 3, func(r *Ruleset) *int { return &r.Bonus })}
	case Nsolo:
		return []option{sizeOption(g), outerOption, intOption("extra", 0, 3, func(r *Ruleset) *int { return &r.Extra })}
	case Choro:
		return []option{sizeOption(g), openingOption}
	}
	return nil
}

func optionKeys(opts []option) string {
	keys := make([]string, len(opts))
	for i, o := range opts {
		keys[i] = o.key
	}
	return strings.Join(keys, ", ")
}

// ParseRuleset reads a ruleset string "name key=value …" (RULES.md §3).
// Options may come in any order, each at most once; missing options take
// their defaults. Errors name what was wrong and what is allowed.
func ParseRuleset(s string) (Ruleset, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return Ruleset{}, fmt.Errorf("mancala: empty ruleset; games are %s", gameList())
	}
	var g Game
	for _, c := range Games() {
		if fields[0] == c.String() {
			g = c
		}
	}
	if g == 0 {
		return Ruleset{}, fmt.Errorf("mancala: unknown game %q; games are %s", fields[0], gameList())
	}
	r := Default(g)
	opts := options(g)
	seen := map[string]bool{}
	for _, f := range fields[1:] {
		key, value, ok := strings.Cut(f, "=")
		if !ok || key == "" || value == "" {
			return Ruleset{}, fmt.Errorf("mancala: %q is not of the form key=value; options of %s are %s", f, g, optionKeys(opts))
		}
		var opt *option
		for i := range opts {
			if opts[i].key == key {
				opt = &opts[i]
			}
		}
		if opt == nil {
			return Ruleset{}, fmt.Errorf("mancala: unknown %s option %q; options are %s", g, key, optionKeys(opts))
		}
		if seen[key] {
			return Ruleset{}, fmt.Errorf("mancala: option %q given twice", key)
		}
		seen[key] = true
		if err := opt.set(&r, value); err != nil {
			return Ruleset{}, fmt.Errorf("mancala: %s: %w", g, err)
		}
	}
	return r, r.Validate()
}

// MustParseRuleset is ParseRuleset for rulesets known to be valid, such as
// constants in tests and tables; it panics on error.
func MustParseRuleset(s string) Ruleset {
	r, err := ParseRuleset(s)
	if err != nil {
		panic(err)
	}
	return r
}

func gameList() string {
	names := make([]string, 0, 5)
	for _, g := range Games() {
		names = append(names, g.String())
	}
	return strings.Join(names, ", ")
}

// Validate reports whether every option of r is in range for its game.
func (r Ruleset) Validate() error {
	if r.Game == 0 || int(r.Game) >= len(gameNames) {
		return fmt.Errorf("mancala: unknown game; games are %s", gameList())
	}
	check := func(ok bool, key, allowed string, value any) error {
		if ok {
			return nil
		}
		return fmt.Errorf("mancala: %s: %s=%v is not allowed; %s takes %s", r.Game, key, value, key, allowed)
	}
	switch r.Game {
	case Tsoro, MisoroTsoro, MusoroTsoro:
		if err := check(r.Size >= 6 && r.Size <= 21, "size", "a whole number from 6 to 21", r.Size); err != nil {
			return err
		}
		if err := check(r.Heads <= HeadsChoose, "heads", headsOption.allowed, r.Heads); err != nil {
			return err
		}
		if err := check(r.Bonus >= 0 && r.Bonus <= 3, "bonus", "a whole number from 0 to 3", r.Bonus); err != nil {
			return err
		}
		return check(!r.Outer && r.Extra == 0, "outer/extra", "nothing: they are Nsolo options", "set")
	case Nsolo:
		if err := check(r.Size >= 8 && r.Size <= 36, "size", "a whole number from 8 to 36", r.Size); err != nil {
			return err
		}
		if err := check(r.Extra >= 0 && r.Extra <= 3, "extra", "a whole number from 0 to 3", r.Extra); err != nil {
			return err
		}
		return check(r.Heads == HeadsNone && r.Bonus == 0, "heads/bonus", "nothing: they are Tsoro options", "set")
	case Choro:
		if err := check(r.Size == 8, "size", "8 only", r.Size); err != nil {
			return err
		}
		return check(r.Heads == HeadsNone && r.Bonus == 0 && !r.Outer && r.Extra == 0, "options", "none but size=8", "set")
	}
	return nil
}

// String prints r canonically: the game name, then every option that differs
// from the game's default, in the game's option order. ParseRuleset reads it
// back to an equal Ruleset.
func (r Ruleset) String() string {
	var b strings.Builder
	b.WriteString(r.Game.String())
	def := Default(r.Game)
	for _, o := range options(r.Game) {
		if v := o.get(r); v != o.get(def) {
			b.WriteString(" " + o.key + "=" + v)
		}
	}
	return b.String()
}

// Full prints r with every option written out, defaults included.
func (r Ruleset) Full() string {
	var b strings.Builder
	b.WriteString(r.Game.String())
	for _, o := range options(r.Game) {
		b.WriteString(" " + o.key + "=" + o.get(r))
	}
	return b.String()
}

// OptionHelp describes the options of g, one "key: allowed values (default d)"
// line each, for help texts and the web app.
func OptionHelp(g Game) []string {
	def := Default(g)
	var lines []string
	for _, o := range options(g) {
		lines = append(lines, fmt.Sprintf("%s: %s (default %s)", o.key, o.allowed, o.get(def)))
	}
	return lines
}

// Presets lists the preset rulesets: each game at its defaults.
func Presets() []Ruleset {
	out := make([]Ruleset, 0, 5)
	for _, g := range Games() {
		out = append(out, Default(g))
	}
	return out
}
