package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeControl is a game's clock: real time (Base minutes a side plus
// Increment a turn) or correspondence (Days a turn); the zero value is a
// game without a clock.
type TimeControl struct {
	Base      time.Duration // real time: each side's time at the start
	Increment time.Duration // real time: added to a side's clock at the end of each of its timed turns
	Days      int           // correspondence: the days each turn may take (CorrespondenceDays)
}

// The bounds of a real-time control.
const (
	MaxBaseMinutes       = 180
	MaxIncrementSeconds  = 60
	timeControlAllowed   = `a real-time control "M+S" (M minutes a side, 1 to 180; S seconds added a turn, 0 to 60; such as "3+2", "10+5", "20+10"), a correspondence control "corr:D" (D days a turn: 1, 3 or 7) or "" (no clock)`
	correspondencePrefix = "corr:"
)

// CorrespondenceDays are the days a turn a correspondence game may have.
var CorrespondenceDays = []int{1, 3, 7}

// The time categories of ratings (accounts keys ratings by preset and
// category).
const (
	CategoryUntimed        = "untimed"
	CategoryBullet         = "bullet"
	CategoryBlitz          = "blitz"
	CategoryRapid          = "rapid"
	CategoryClassical      = "classical"
	CategoryCorrespondence = "correspondence"
)

// Categories lists the time categories, untimed first.
var Categories = []string{CategoryUntimed, CategoryBullet, CategoryBlitz, CategoryRapid, CategoryClassical, CategoryCorrespondence}

// ParseTimeControl reads a time control as the API's time_control field
// writes it: "" (no clock), "M+S" or "corr:D". Its error names what is
// allowed.
func ParseTimeControl(s string) (TimeControl, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return TimeControl{}, nil
	}
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, Errorf(EInvalid, "time_control %q is not allowed (%s); time_control is %s", s, why, timeControlAllowed)
	}
	if d, ok := strings.CutPrefix(s, correspondencePrefix); ok {
		n, err := strconv.Atoi(d)
		if err != nil {
			return bad("the days are not a whole number")
		}
		for _, allowed := range CorrespondenceDays {
			if n == allowed {
				return TimeControl{Days: n}, nil
			}
		}
		return bad(fmt.Sprintf("%d days a turn", n))
	}
	m, inc, ok := strings.Cut(s, "+")
	if !ok {
		return bad("no + between minutes and seconds")
	}
	mins, err1 := strconv.Atoi(m)
	secs, err2 := strconv.Atoi(inc)
	switch {
	case err1 != nil || err2 != nil:
		return bad("minutes and seconds are whole numbers")
	case mins < 1 || mins > MaxBaseMinutes:
		return bad(fmt.Sprintf("%d minutes", mins))
	case secs < 0 || secs > MaxIncrementSeconds:
		return bad(fmt.Sprintf("%d seconds a turn", secs))
	}
	return TimeControl{Base: time.Duration(mins) * time.Minute, Increment: time.Duration(secs) * time.Second}, nil
}

// String writes tc as ParseTimeControl reads it.
func (tc TimeControl) String() string {
	switch {
	case tc.Days > 0:
		return correspondencePrefix + strconv.Itoa(tc.Days)
	case tc.Base > 0:
		return fmt.Sprintf("%d+%d", tc.Base/time.Minute, tc.Increment/time.Second)
	}
	return ""
}

// IsZero reports whether tc is no clock.
func (tc TimeControl) IsZero() bool { return tc.Days == 0 && tc.Base == 0 }

// Correspondence reports whether tc gives days a turn.
func (tc TimeControl) Correspondence() bool { return tc.Days > 0 }

// turnTime is a correspondence turn's time.
func (tc TimeControl) turnTime() time.Duration { return time.Duration(tc.Days) * 24 * time.Hour }

// expectedTurns is the turns a side is counted to play when a real-time
// control is put in a category: its base plus this many increments.
const expectedTurns = 40

// Category returns tc's rating category. A real-time control is put by
// its expected time a side, base + 40 increments: under 3 minutes bullet
// (1+0, 2+1), under 8 blitz (3+2, 5+0), under 25 rapid (10+5, 15+10),
// else classical (20+10, 30+0).
func (tc TimeControl) Category() string {
	if tc.Days > 0 {
		return CategoryCorrespondence
	}
	if tc.Base == 0 {
		return CategoryUntimed
	}
	d := tc.Base + expectedTurns*tc.Increment
	switch {
	case d < 3*time.Minute:
		return CategoryBullet
	case d < 8*time.Minute:
		return CategoryBlitz
	case d < 25*time.Minute:
		return CategoryRapid
	}
	return CategoryClassical
}

// CategoryOfControl returns the rating category of the time control s ("" :
// untimed), or an error naming what is allowed.
func CategoryOfControl(s string) (string, error) {
	tc, err := ParseTimeControl(s)
	if err != nil {
		return "", err
	}
	return tc.Category(), nil
}
