package app

import (
	"strings"
	"testing"
	"time"

	"matombo/mancala"
)

func TestParseTimeControl(t *testing.T) {
	good := []struct {
		in       string
		tc       TimeControl
		category string
	}{
		{"", TimeControl{}, CategoryUntimed},
		{"1+0", TimeControl{Base: time.Minute}, CategoryBullet},
		{"2+1", TimeControl{Base: 2 * time.Minute, Increment: time.Second}, CategoryBullet},
		{"3+2", TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, CategoryBlitz},
		{"5+0", TimeControl{Base: 5 * time.Minute}, CategoryBlitz},
		{"10+5", TimeControl{Base: 10 * time.Minute, Increment: 5 * time.Second}, CategoryRapid},
		{"20+10", TimeControl{Base: 20 * time.Minute, Increment: 10 * time.Second}, CategoryClassical},
		{" 180+60 ", TimeControl{Base: 180 * time.Minute, Increment: time.Minute}, CategoryClassical},
		{"corr:1", TimeControl{Days: 1}, CategoryCorrespondence},
		{"corr:3", TimeControl{Days: 3}, CategoryCorrespondence},
		{"corr:7", TimeControl{Days: 7}, CategoryCorrespondence},
	}
	for _, c := range good {
		tc, err := ParseTimeControl(c.in)
		if err != nil || tc != c.tc {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v", c.in, tc, err, c.tc)
			continue
		}
		if got := tc.Category(); got != c.category {
			t.Errorf("%q: category %s, want %s", c.in, got, c.category)
		}
		if back, err := ParseTimeControl(tc.String()); err != nil || back != tc {
			t.Errorf("%q: %q does not read back: %+v, %v", c.in, tc.String(), back, err)
		}
	}
	for _, in := range []string{"3", "3+", "+2", "0+5", "181+0", "3+61", "3+-1", "a+b", "3.5+2", "corr:2", "corr:", "corr:x", "3:2", "corr:7d"} {
		_, err := ParseTimeControl(in)
		if err == nil {
			t.Errorf("ParseTimeControl(%q) succeeded", in)
			continue
		}
		msg := ErrorMessage(err)
		if ErrorCode(err) != EInvalid || !strings.Contains(msg, "time_control") || !strings.Contains(msg, `"3+2"`) || !strings.Contains(msg, "corr:D") {
			t.Errorf("ParseTimeControl(%q): %q does not name what is allowed", in, msg)
		}
	}
}

func TestHandovers(t *testing.T) {
	S, N := Move{Side: mancala.South}, Move{Side: mancala.North}
	cases := []struct {
		acts   []Move
		toMove int
		want   int
	}{
		{nil, 0, 0},
		{[]Move{S}, 0, 0},    // South's turn goes on
		{[]Move{S}, 1, 1},    // South's turn ended
		{[]Move{S, S}, 1, 1}, // a turn of two decisions
		{[]Move{S, S, N}, 1, 1},
		{[]Move{S, S, N}, 0, 2},
		{[]Move{S, N, N, S}, 1, 3},
	}
	for _, c := range cases {
		if got := handovers(c.acts, mancala.Player(c.toMove)); got != c.want {
			t.Errorf("handovers(%v, %d) = %d, want %d", c.acts, c.toMove, got, c.want)
		}
	}
}
