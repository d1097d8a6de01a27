package lobby

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/hex"
	"strconv"
	"strings"

	"matombo/internal/app"
	"matombo/mancala"
)

// The lobby's checks of what a challenge asks for.

// MaxTimeControl bounds a time control's length.
const MaxTimeControl = 16

// checkTimeControl checks the shape of a time control and returns it
// written canonically (so that quick pairing compares like with like): ""
// (no clock), "M+I" (minutes and seconds of increment, whole numbers) or
// "corr:D" (days a turn). The clocks (app) decide which controls a game
// takes; a challenge whose game the app refuses cannot be accepted, so the
// lobby refuses what is plainly not a control before it is shown to
// everyone.
func checkTimeControl(tc string) (string, error) {
	if tc == "" {
		return "", nil
	}
	bad := app.Errorf(app.EInvalid, "time control %q is not allowed; write minutes+increment (3+2, 10+5), corr:days (corr:1, corr:3, corr:7) or leave it empty for no clock", printable(tc))
	if len(tc) > MaxTimeControl {
		return "", bad
	}
	if d, ok := strings.CutPrefix(tc, "corr:"); ok {
		n, ok := number(d)
		if !ok {
			return "", bad
		}
		return "corr:" + strconv.Itoa(n), nil
	}
	m, inc, ok := strings.Cut(tc, "+")
	mins, ok1 := number(m)
	secs, ok2 := number(inc)
	if !ok || !ok1 || !ok2 {
		return "", bad
	}
	return strconv.Itoa(mins) + "+" + strconv.Itoa(secs), nil
}

// number reads 1 to 3 decimal digits.
func number(s string) (int, bool) {
	if s == "" || len(s) > 3 || strings.ContainsAny(s, "+-") {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
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
