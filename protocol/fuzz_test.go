package protocol

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// answerKinds are the words an answer may start with.
var answerKinds = []string{"ok", "error", "legal", "position", "result", "bestmove"}

// FuzzEngine feeds arbitrary multi-line input to an engine, line by line
// through Handle and whole through Run, and checks that it never panics,
// answers each command before quit with exactly one line that starts with
// one of the answer words, and that every bestmove is in the legal list.
func FuzzEngine(f *testing.F) {
	scripts, _ := filepath.Glob(filepath.Join("testdata", "*.in"))
	for _, s := range scripts {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"new tsoro size=8\ngo\nplay a1\ngo movetime 5\nlegal",
		"new choro\r\nposition 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S\r\ngo depth 1\r\n",
		"new nsolo size=8 outer=yes\nplay b4\nplay d6\nplay a1\ngo playouts 3\nshow\nresult",
		"new misoro-tsoro\nplay a1\nplay d1\ngo\nquit\ngo",
		"\n\n\r\n \t\nquit x\n",
		"new tsoro\n" + strings.Repeat("z", 300) + "\nlegal",
	} {
		f.Add(s)
	}
	const maxLine = 256 // small, so that the fuzzer reaches the long-line path
	f.Fuzz(func(t *testing.T, in string) {
		e := New(Config{Seed: 1, MaxLine: maxLine, DefaultMoveTime: 50 * time.Millisecond})
		var lines []string // the lines of in: no line for "", none after a final LF
		if in != "" {
			lines = strings.Split(strings.TrimSuffix(in, "\n"), "\n")
		}
		var want []string // the answers, from Handle
		for _, line := range lines {
			if len(strings.TrimSuffix(line, "\r")) > maxLine {
				want = append(want, "error line too long; lines are at most 256 bytes")
				continue
			}
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "go") && e.State() != nil {
				// Time limits may cut a search short: check the move, not its text.
				legal, _ := e.Handle("legal")
				ans, quit := e.Handle(line)
				if move, ok := strings.CutPrefix(ans, "bestmove "); ok && !slices.Contains(strings.Fields(legal)[1:], move) {
					t.Fatalf("%q answered %q, not in %q", line, ans, legal)
				}
				if quit || strings.Contains(ans, "chooser failed") {
					t.Fatalf("%q answered %q, %v", line, ans, quit)
				}
				want = append(want, firstWord(ans))
				continue
			}
			ans, quit := e.Handle(line)
			if quit {
				if ans != "" {
					t.Fatalf("quit answered %q", ans)
				}
				break
			}
			want = append(want, ans)
		}
		for _, ans := range want {
			if strings.ContainsAny(ans, "\r\n") || !slices.Contains(answerKinds, firstWord(ans)) || strings.HasPrefix(ans, internalError) {
				t.Fatalf("bad answer %q", ans)
			}
		}

		var out bytes.Buffer
		if err := New(Config{Seed: 1, MaxLine: maxLine, DefaultMoveTime: 50 * time.Millisecond}).Run(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatalf("Run: %v", err)
		}
		got := strings.Split(out.String(), "\n")
		if got[len(got)-1] != "" {
			t.Fatalf("Run's output does not end in a newline: %q", out.String())
		}
		got = got[:len(got)-1]
		if len(got) != len(want) {
			t.Fatalf("Run gave %d answers, Handle %d:\n%q\n%q", len(got), len(want), got, want)
		}
		for i := range got {
			if !slices.Contains(answerKinds, firstWord(want[i])) || got[i] != want[i] && firstWord(got[i]) != want[i] {
				t.Fatalf("answer %d: Run %q, Handle %q", i, got[i], want[i])
			}
		}
	})
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}
