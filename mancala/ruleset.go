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

// Opening selects how Choro's opening is played (RULES.md §3.4).
type Opening uint8

// The opening options of Choro.
const (
	OpeningSimultaneous Opening = iota // simultaneous: both players open at once (Driberg)
	OpeningSequential                  // sequential: South opens, then North (the DLP)
)

// ClockwiseRule selects when Choro allows clockwise laps (RULES.md §3.4).
type ClockwiseRule uint8

// The cw options of Choro.
const (
	ClockwiseFirst ClockwiseRule = iota // first: only re-sowing captures, chained only from the turn's first lap (Driberg)
	ClockwiseAny                        // any: any lap from a special hole that would capture (the DLP)
)

var openingNames = [...]string{"simultaneous", "sequential"}
var clockwiseNames = [...]string{"first", "any"}

// String returns the option value, "simultaneous" or "sequential".
func (o Opening) String() string {
	if int(o) >= len(openingNames) {
		return "opening(" + strconv.Itoa(int(o)) + ")"
	}
	return openingNames[o]
}

// String returns the option value, "first" or "any".
func (c ClockwiseRule) String() string {
	if int(c) >= len(clockwiseNames) {
		return "cw(" + strconv.Itoa(int(c)) + ")"
	}
	return clockwiseNames[c]
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

	Opening   Opening       // Choro: simultaneous or sequential opening
	Clockwise ClockwiseRule // Choro: when clockwise laps are allowed
	Leave     bool          // Choro: captured stones may be left for the other special hole
}

// DLPChoro is the Digital Ludeme Project's reading of Choro, the only Choro
// before the three options of RULES.md §3.4:
// "choro opening=sequential cw=any leave=no".
func DLPChoro() Ruleset {
	return Ruleset{Game: Choro, Size: 8, Opening: OpeningSequential, Clockwise: ClockwiseAny}
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
		return Ruleset{Game: Choro, Size: 8, Leave: true}
	}
	return Ruleset{}
}

// option describes one ruleset option of a game, for parsing, printing and help.
type option struct {
	key      string
	allowed  string   // human description of the allowed values
	values   []string // the allowed values, when they are names (nil for numbers)
	min, max int      // the allowed numbers, when they are numbers
	get      func(Ruleset) string
	set      func(*Ruleset, string) error
}

// OptionInfo describes one option of a game as values, for forms and help:
// its key, its allowed values (names, or whole numbers from Min to Max) and
// its default.
type OptionInfo struct {
	Key      string
	Allowed  string   // the allowed values for people: "yes or no", "a whole number from 6 to 21"
	Values   []string // the allowed values when they are names; nil when they are numbers
	Min, Max int      // the allowed numbers when Values is nil
	Default  string
}

// Options describes the options of g, in their canonical order.
func Options(g Game) []OptionInfo {
	def := Default(g)
	var out []OptionInfo
	for _, o := range options(g) {
		out = append(out, OptionInfo{Key: o.key, Allowed: o.allowed, Values: o.values, Min: o.min, Max: o.max, Default: o.get(def)})
	}
	return out
}

func intOption(key string, lo, hi int, field func(*Ruleset) *int) option {
	allowed := fmt.Sprintf("a whole number from %d to %d", lo, hi)
	return option{
		key:     key,
		allowed: allowed,
		min:     lo,
		max:     hi,
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
	values:  headsNames[:],
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

// boolOption is an option of the values yes and no.
func boolOption(key string, field func(*Ruleset) *bool) option {
	return option{
		key:     key,
		allowed: "yes or no",
		values:  []string{"yes", "no"},
		get: func(r Ruleset) string {
			if *field(&r) {
				return "yes"
			}
			return "no"
		},
		set: func(r *Ruleset, v string) error {
			switch v {
			case "yes":
				*field(r) = true
			case "no":
				*field(r) = false
			default:
				return fmt.Errorf("%s=%q is not allowed; %s takes yes or no", key, v, key)
			}
			return nil
		},
	}
}

// enumOption is an option of named values, stored as their index in names.
func enumOption[T ~uint8](key string, names []string, field func(*Ruleset) *T) option {
	allowed := "one of " + strings.Join(names, ", ")
	if len(names) == 2 {
		allowed = names[0] + " or " + names[1]
	}
	return option{
		key:     key,
		allowed: allowed,
		values:  names,
		get:     func(r Ruleset) string { return names[*field(&r)] },
		set: func(r *Ruleset, v string) error {
			for i, name := range names {
				if v == name {
					*field(r) = T(i)
					return nil
				}
			}
			return fmt.Errorf("%s=%q is not allowed; %s takes %s", key, v, key, allowed)
		},
	}
}

var (
	outerOption   = boolOption("outer", func(r *Ruleset) *bool { return &r.Outer })
	openingOption = enumOption("opening", openingNames[:], func(r *Ruleset) *Opening { return &r.Opening })
	cwOption      = enumOption("cw", clockwiseNames[:], func(r *Ruleset) *ClockwiseRule { return &r.Clockwise })
	leaveOption   = boolOption("leave", func(r *Ruleset) *bool { return &r.Leave })
)

// options lists the options of g in their canonical order.
func options(g Game) []option {
	switch g {
	case Tsoro, MisoroTsoro, MusoroTsoro:
		return []option{sizeOption(g), headsOption, intOption("bonus", 0, 3, func(r *Ruleset) *int { return &r.Bonus })}
	case Nsolo:
		return []option{sizeOption(g), outerOption, intOption("extra", 0, 3, func(r *Ruleset) *int { return &r.Extra })}
	case Choro:
		return []option{sizeOption(g), openingOption, cwOption, leaveOption}
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
		if err := check(!r.Outer && r.Extra == 0, "outer/extra", "nothing: they are Nsolo options", "set"); err != nil {
			return err
		}
		return r.noChoroOptions()
	case Nsolo:
		if err := check(r.Size >= 8 && r.Size <= 36, "size", "a whole number from 8 to 36", r.Size); err != nil {
			return err
		}
		if err := check(r.Extra >= 0 && r.Extra <= 3, "extra", "a whole number from 0 to 3", r.Extra); err != nil {
			return err
		}
		if err := check(r.Heads == HeadsNone && r.Bonus == 0, "heads/bonus", "nothing: they are Tsoro options", "set"); err != nil {
			return err
		}
		return r.noChoroOptions()
	case Choro:
		if err := check(r.Size == 8, "size", "8 only", r.Size); err != nil {
			return err
		}
		if err := check(r.Opening <= OpeningSequential, "opening", openingOption.allowed, r.Opening); err != nil {
			return err
		}
		if err := check(r.Clockwise <= ClockwiseAny, "cw", cwOption.allowed, r.Clockwise); err != nil {
			return err
		}
		return check(r.Heads == HeadsNone && r.Bonus == 0 && !r.Outer && r.Extra == 0, "options", "only size=8, opening, cw and leave", "set")
	}
	return nil
}

// noChoroOptions checks that a ruleset of another game leaves Choro's
// options at their zero values.
func (r Ruleset) noChoroOptions() error {
	if r.Opening != 0 || r.Clockwise != 0 || r.Leave {
		return fmt.Errorf("mancala: %s: opening/cw/leave=set is not allowed; opening, cw and leave are Choro options", r.Game)
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
	var lines []string
	for _, o := range Options(g) {
		lines = append(lines, fmt.Sprintf("%s: %s (default %s)", o.Key, o.Allowed, o.Default))
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

// MarshalText writes the ruleset canonically, as String; an invalid ruleset
// is refused.
func (r Ruleset) MarshalText() ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads a ruleset string, as ParseRuleset.
func (r *Ruleset) UnmarshalText(text []byte) error {
	v, err := ParseRuleset(string(text))
	if err != nil {
		return err
	}
	*r = v
	return nil
}
