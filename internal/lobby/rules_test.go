package lobby

import (
	"testing"

	"matombo/internal/app"
)

func TestTimeControls(t *testing.T) {
	for tc, want := range map[string]string{"": "", "1+0": "1+0", "3+2": "3+2", "10+5": "10+5", " 20+10 ": "20+10", "03+02": "3+2", "corr:1": "corr:1", "corr:7": "corr:7"} {
		if got, err := checkTimeControl(tc); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", tc, got, err, want)
		}
	}
	for _, tc := range []string{"3", "3+", "+2", "3+2+1", "-3+2", "3+-2", "1000+0", "3+99", "corr:", "corr:x", "corr:2", "blitz"} {
		if _, err := checkTimeControl(tc); app.ErrorCode(err) != app.EInvalid {
			t.Errorf("%q: %v, want a refusal", tc, err)
		}
	}
}

// TestViewers: who sees and owns which challenge.
func TestViewers(t *testing.T) {
	key := "k3y"
	open := &Challenge{ID: "o", KeyHash: app.HashToken(key), Kind: KindOpen, Status: StatusOpen}
	direct := &Challenge{ID: "d", Account: "ada", Kind: KindDirect, To: "bob", Status: StatusOpen}
	gone := &Challenge{ID: "g", Kind: KindOpen, Status: StatusAccepted}
	anon := Viewer{Keys: map[string]bool{KeyOf(key): true}}
	ada, bob, cyd := Viewer{Account: "ada"}, Viewer{Account: "bob"}, Viewer{Account: "cyd"}
	cases := []struct {
		v          Viewer
		c          *Challenge
		sees, owns bool
	}{
		{anon, open, true, true}, {cyd, open, true, false},
		{ada, direct, true, true}, {bob, direct, true, false}, {cyd, direct, false, false}, {anon, direct, false, false},
		{anon, gone, false, false},
	}
	for _, c := range cases {
		if got := c.v.Sees(c.c); got != c.sees {
			t.Errorf("%+v sees %s: %v, want %v", c.v, c.c.ID, got, c.sees)
		}
		if got := c.v.Owns(c.c); got != c.owns {
			t.Errorf("%+v owns %s: %v, want %v", c.v, c.c.ID, got, c.owns)
		}
	}
	if v := bob.ViewFor(direct); !v.ForYou || v.Mine {
		t.Errorf("bob's view of the direct challenge %+v", v)
	}
}
