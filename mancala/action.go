package mancala

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// ActionKind says what an action does.
type ActionKind uint8

// The kinds of written action (RULES.md §5).
const (
	KindHole      ActionKind = iota + 1 // "a3": sow anticlockwise, name a head, relay at a head, or pick a Choro direction
	KindClockwise                       // "a3cw": sow clockwise (Choro)
	KindStop                            // "stop": end the turn at a head
	KindTake                            // "xd5": bonus pick or Nsolo stone removal
)

// Action is one written action: a small value, comparable and cheap to copy.
// The zero Action is not an action.
type Action uint16

// Stop ends the turn at an occupied head.
const Stop = Action(uint16(KindStop) << 8)

// HoleAction returns the action naming h: sow from it, or name it as a head,
// or relay from it, depending on the decision at hand.
func HoleAction(h Hole) Action { return Action(uint16(KindHole)<<8 | uint16(h)) }

// Clockwise returns the action sowing h clockwise.
func Clockwise(h Hole) Action { return Action(uint16(KindClockwise)<<8 | uint16(h)) }

// Take returns the action taking from h (a bonus pick or a stone removal).
func Take(h Hole) Action { return Action(uint16(KindTake)<<8 | uint16(h)) }

// Kind returns what a does.
func (a Action) Kind() ActionKind { return ActionKind(a >> 8) }

// Hole returns the hole a names (none for Stop).
func (a Action) Hole() Hole { return Hole(a) }

// String returns the action in notation: "a3", "a3cw", "stop", "xd5".
func (a Action) String() string {
	switch a.Kind() {
	case KindHole:
		return a.Hole().String()
	case KindClockwise:
		return a.Hole().String() + "cw"
	case KindStop:
		return "stop"
	case KindTake:
		return "x" + a.Hole().String()
	}
	return fmt.Sprintf("action(%d)", uint16(a))
}

// ParseAction reads one action in notation. It checks the form only; whether
// the action is legal is for State.Apply to say.
func ParseAction(s string) (Action, error) {
	switch {
	case s == "stop":
		return Stop, nil
	case strings.HasPrefix(s, "x"):
		h, err := ParseHole(s[1:])
		if err != nil {
			return 0, actionSyntax(s)
		}
		return Take(h), nil
	case strings.HasSuffix(s, "cw"):
		h, err := ParseHole(s[:len(s)-2])
		if err != nil {
			return 0, actionSyntax(s)
		}
		return Clockwise(h), nil
	}
	h, err := ParseHole(s)
	if err != nil {
		return 0, actionSyntax(s)
	}
	return HoleAction(h), nil
}

func actionSyntax(s string) error {
	return fmt.Errorf("mancala: %q is not an action; actions are a hole (a3), a hole sown clockwise (a3cw), stop, or a pick (xd5)", s)
}

// MarshalText writes the action in notation, for encoding/json and the like.
func (a Action) MarshalText() ([]byte, error) {
	if a.Kind() < KindHole || a.Kind() > KindTake {
		return nil, fmt.Errorf("mancala: %s cannot be written in notation", a)
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads an action in notation, as ParseAction.
func (a *Action) UnmarshalText(text []byte) error {
	v, err := ParseAction(string(text))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// SortActions sorts actions in the order people read them: sowing a hole
// (anticlockwise, then clockwise), then stop, then takes; holes by row a, b,
// c, d and then by column as a number (a2 before a10). The protocol's legal
// command sorts by byte order instead (SortActionStrings).
func SortActions(as []Action) {
	slices.SortFunc(as, func(x, y Action) int {
		if c := cmp.Compare(actionGroup(x), actionGroup(y)); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Hole().Row(), y.Hole().Row()); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Hole().Col(), y.Hole().Col()); c != 0 {
			return c
		}
		return cmp.Compare(x.Kind(), y.Kind())
	})
}

// actionGroup orders the kinds of action for SortActions: sowing first.
func actionGroup(a Action) int {
	switch a.Kind() {
	case KindStop:
		return 1
	case KindTake:
		return 2
	}
	return 0
}
