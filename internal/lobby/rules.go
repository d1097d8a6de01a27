package lobby

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/hex"
	"strings"

	"matombo/internal/app"
	"matombo/mancala"
)

// The lobby's checks of what a challenge asks for.

// checkTimeControl checks a time control with the clocks' rules
// (app.ParseTimeControl) and returns it written canonically, so that a
// challenge shows only controls its game takes and quick pairing compares
// like with like.
func checkTimeControl(tc string) (string, error) {
	c, err := app.ParseTimeControl(tc)
	if err != nil {
		return "", err
	}
	return c.String(), nil
}

// checkSide checks the creator's side of a challenge ("" is random).
func checkSide(side string) (string, error) {
	switch side {
	case "S", "N", "random":
		return side, nil
	case "":
		return "random", nil
	}
	return "", app.Errorf(app.EInvalid, "side %q is not allowed; side is S (moves first), N or random", printable(side))
}

// canonical checks a ruleset and returns its canonical string.
func canonical(ruleset string) (string, error) {
	rs, err := mancala.ParseRuleset(ruleset)
	if err != nil {
		return "", app.Errorf(app.EInvalid, "%s", mancala.Message(err))
	}
	return rs.String(), nil
}

// isPreset reports whether the canonical ruleset rs is a preset.
func isPreset(rs string) bool {
	for _, p := range mancala.Presets() {
		if p.String() == rs {
			return true
		}
	}
	return false
}

// presetNames lists the presets, for a refusal.
func presetNames() []string {
	var out []string
	for _, p := range mancala.Presets() {
		out = append(out, p.String())
	}
	return out
}

// titleOf returns a ruleset's title: its preset's, else its game's.
func titleOf(ruleset string) string {
	for _, p := range app.Presets() {
		if p.Ruleset == ruleset {
			return p.Title
		}
	}
	if rs, err := mancala.ParseRuleset(ruleset); err == nil {
		return rs.Game.String()
	}
	return ruleset
}

// printable cuts s for a message.
func printable(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

var lowerBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID returns a fresh challenge id: 12 characters a–z2–7.
func newID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return lowerBase32.EncodeToString(b)[:12]
}

// hexOf returns a key hash as the text Viewer.Keys holds.
func hexOf(hash []byte) string { return hex.EncodeToString(hash) }

// KeyOf returns the text Viewer.Keys holds for the challenge key key.
func KeyOf(key string) string { return hexOf(app.HashToken(strings.TrimSpace(key))) }
