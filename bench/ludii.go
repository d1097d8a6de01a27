package bench

import "matombo/mancala"

// Ludii returns Ludii's published random-playout speed for rs, in playouts
// per second (Ludii on a 2.2 GHz Xeon, one thread), and false when Ludii
// publishes none for it. Rulesets are compared canonically, so any spelling
// of the same rules matches.
func Ludii(rs mancala.Ruleset) (float64, bool) {
	switch rs.String() {
	case "tsoro size=8 heads=none bonus=0":
		return 832, true
	case "tsoro size=8 heads=none bonus=3":
		return 2870, true
	case "misoro-tsoro":
		return 702, true
	case "musoro-tsoro":
		return 706, true
	case "choro opening=sequential cw=any leave=no": // Ludii's "Choro (Acholi)" is the DLP's reading
		return 932, true
	}
	return 0, false
}

// The speed targets of the project: every ruleset Ludii measured at least
// MinLudiiRatio times Ludii's figure (the goal is GoalLudiiRatio times), and
// Nsolo, which Ludii does not list, at least MinNsoloPlayouts per second.
const (
	MinLudiiRatio    = 120
	GoalLudiiRatio   = 250
	MinNsoloPlayouts = 25000
)

// DefaultRulesets returns the rulesets `matombo bench` measures when given
// none: those Ludii published figures for, Nsolo, and the Tsoro and Choro
// presets.
func DefaultRulesets() []mancala.Ruleset {
	names := []string{
		"tsoro size=8 heads=none bonus=0",
		"tsoro size=8 heads=none bonus=3",
		"misoro-tsoro",
		"musoro-tsoro",
		"choro opening=sequential cw=any leave=no",
		"nsolo",
		"tsoro",
		"choro",
	}
	out := make([]mancala.Ruleset, len(names))
	for i, n := range names {
		out[i] = mancala.MustParseRuleset(n)
	}
	return out
}
