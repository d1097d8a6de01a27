package puzzles

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// FuzzPlay sends any sequence of actions to a shipped puzzle: Play answers
// or refuses with a PlayError (or an error of the rules), and never panics.
func FuzzPlay(f *testing.F) {
	st, err := Load("nsolo")
	if err != nil {
		f.Fatal(err)
	}
	rs, err := st.rules()
	if err != nil {
		f.Fatal(err)
	}
	p := st.Puzzles[0]
	f.Add(strings.Join(p.Line, " "))
	f.Add(p.Action)
	f.Add("a1 a2 a3")
	f.Add("stop xd5 a3cw")
	f.Add("")
	pv := NewProver(2000)
	f.Fuzz(func(t *testing.T, text string) {
		played := strings.Fields(text)
		ans, err := Play(context.Background(), rs, p, played, pv)
		var pe *PlayError
		switch {
		case err == nil:
			if ans.State == nil || (ans.Status != StatusPlaying && ans.Status != StatusSolved && ans.Status != StatusFailed) {
				t.Errorf("%q: answer %+v", text, ans)
			}
		case errors.As(err, &pe):
			if pe.Reason == "" {
				t.Errorf("%q: a PlayError without a reason", text)
			}
		}
	})
}
