package app

import "matombo/mancala"

// Option is one option of a game's rulesets, for the new-game form: its
// allowed values in words, and as a list of names (values) or a range of
// whole numbers (min, max).
type Option struct {
	Key     string   `json:"key"`
	Allowed string   `json:"allowed"`
	Values  []string `json:"values,omitempty"`
	Min     int      `json:"min,omitempty"`
	Max     int      `json:"max,omitempty"`
	Default string   `json:"default"`
}

// Preset is a preset ruleset with what the new-game form needs.
type Preset struct {
	Ruleset     string   `json:"ruleset"`
	Game        string   `json:"game"`
	Title       string   `json:"title"`
	Size        int      `json:"size"`
	Options     []Option `json:"options"`
	Description string   `json:"description"`
}

// descriptions say each game in plain words.
var descriptions = map[mancala.Game]string{
	mancala.Tsoro: "The Zimbabwean four-row game after Matthews (1964): relay sowing round your two rows, " +
		"capture the opponent's whole column from your inner row, then take bonus holes. Heads let you stop a relay.",
	mancala.MisoroTsoro: "Tsoro on 4×8 where each player first names two holes of their outer row as heads (misoro).",
	mancala.MusoroTsoro: "Tsoro on 4×8 with a single head of three stones at the right of each outer row.",
	mancala.Nsolo: "The game of Malawi and Zambia after Sanderson (1913): relay sowing; a capture takes the opposite inner hole, " +
		"then you remove as many stones again from anywhere on the opponent's side. A repeated position draws.",
	mancala.Choro: "The four-row game of South Sudan after Driberg (1927): captures go back into the hole you sowed from " +
		"and are sown on; two special holes may sow clockwise when that captures.",
}

// Presets returns the preset rulesets with their options and descriptions.
func Presets() []Preset {
	var out []Preset
	for _, rs := range mancala.Presets() {
		p := Preset{Ruleset: rs.String(), Game: rs.Game.String(), Title: titles[rs.Game], Size: rs.Size,
			Options: []Option{}, Description: descriptions[rs.Game]}
		for _, o := range mancala.Options(rs.Game) {
			p.Options = append(p.Options, Option{Key: o.Key, Allowed: o.Allowed, Values: o.Values, Min: o.Min, Max: o.Max, Default: o.Default})
		}
		out = append(out, p)
	}
	return out
}
