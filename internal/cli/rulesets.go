package cli

import (
	"fmt"
	"strings"

	"matombo/mancala"
)

// splitRulesets reads rulesets from command-line words. A ruleset may be one
// quoted argument ("tsoro size=8") or several words (tsoro size=8): every
// word without "=" starts a new ruleset (it is a game name) and every
// key=value word belongs to the ruleset before it. So the two spellings mean
// the same, and a list such as `tsoro size=8 nsolo` is unambiguous.
func splitRulesets(words []string) ([]mancala.Ruleset, error) {
	var texts []string
	for _, w := range words {
		for _, f := range strings.Fields(w) {
			if strings.Contains(f, "=") {
				if len(texts) == 0 {
					return nil, fmt.Errorf("option %q comes before a game name; a ruleset is a game name then options, such as \"tsoro size=8\"", f)
				}
				texts[len(texts)-1] += " " + f
				continue
			}
			texts = append(texts, f)
		}
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("no ruleset given; a ruleset is a game name then options, such as \"tsoro size=8\"")
	}
	out := make([]mancala.Ruleset, len(texts))
	for i, t := range texts {
		rs, err := mancala.ParseRuleset(t)
		if err != nil {
			return nil, fmt.Errorf("bad ruleset %q: %s", t, plain(err))
		}
		out[i] = rs
	}
	return out, nil
}

// plain returns err's message as people read it: the engine's errors
// without their package prefix (mancala.Message).
func plain(err error) string { return mancala.Message(err) }

// startState returns a game of the one ruleset in words, at its start or, if
// position is not empty, at that position. Its errors are usage errors.
func startState(words []string, position string) (*mancala.State, error) {
	rulesets, err := splitRulesets(words)
	if err != nil {
		return nil, err
	}
	if len(rulesets) != 1 {
		return nil, fmt.Errorf("takes one ruleset, got %d: %s", len(rulesets), rulesetList(rulesets))
	}
	s, err := mancala.NewGame(rulesets[0])
	if err != nil {
		return nil, err
	}
	if position != "" {
		if err := s.SetPosition(position); err != nil {
			return nil, fmt.Errorf("%s", plain(err))
		}
	}
	return s, nil
}
