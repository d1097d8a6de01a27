package web

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
)

// The pages take every rule from the server: the legal actions, and the
// rule facts of the views (special_holes, sides with their rows and loops,
// simultaneous_opening, pending_hole; docs/API.md). These patterns find a
// rule written again in a module: a hole named in code (such as Choro's
// special holes "a1", "b2", "d8", "c7"), a row letter compared with a hole's
// (who owns a hole, which row is inner or outer), a side's two rows listed,
// or a ruleset's options read from its text.
var ruleInCode = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile("[\"'`][abcd][1-9][0-9]?(?:cw)?[\"'`]"), "a hole named in code; holes come from the view (legal, special_holes, sides, pending_hole)"},
	{regexp.MustCompile(`\[0\]\s*[!=]==?\s*["'][abcd]["']|["'][abcd]["']\s*[!=]==?\s*\w+\[0\]`), "a hole's row compared with a letter; the view's sides say whose rows are which"},
	{regexp.MustCompile(`\[\s*["'][abcd]["']\s*,\s*["'][abcd]["']\s*\]`), "a side's rows listed; the view's sides give them"},
	{regexp.MustCompile(`\\b(?:opening|cw|leave)=`), "a ruleset option read from its text; the view's rule facts say what it means"},
}

var (
	blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	lineComment  = regexp.MustCompile(`(?m)(^|\s)//.*$`)
)

// code returns a module's text without its comments, which may name holes
// and rows to explain.
func code(text string) string {
	return lineComment.ReplaceAllString(blockComment.ReplaceAllString(text, ""), "$1")
}

func TestModulesTakeTheRulesFromTheServer(t *testing.T) {
	n := 0
	for _, f := range files(t) {
		if path.Ext(f) != ".js" {
			continue
		}
		n++
		b, err := fs.ReadFile(FS, f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(code(string(b)), "\n") {
			for _, r := range ruleInCode {
				if m := r.re.FindString(line); m != "" {
					t.Errorf("%s:%d: %s: %s", f, i+1, m, r.what)
				}
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d modules scanned", n)
	}
	// The check itself catches the rules the pages used to write.
	for _, bad := range []string{
		`return gameOf(ruleset) === "choro" ? ["a1", "b2", "d8", "c7"] : [];`,
		`export const SPECIAL = { S: ["a1", "b2"], N: ["d8", "c7"] };`,
		`return r === "a" || hole[0] === "b" ? "S" : "N";`,
		`const [outer, inner] = player === "S" ? ["a", "b"] : ["c", "d"];`,
		`return gameOf(ruleset) === "choro" && !/\bopening=sequential\b/.test(ruleset);`,
	} {
		caught := false
		for _, r := range ruleInCode {
			caught = caught || r.re.MatchString(code(bad))
		}
		if !caught {
			t.Errorf("the check misses %s", bad)
		}
	}
	if got := code("a(); // \"a1\"\n/* \"b2\" */ b();"); strings.Contains(got, "a1") || strings.Contains(got, "b2") || !strings.Contains(got, "b();") {
		t.Errorf("comments not stripped: %q", got)
	}
}
