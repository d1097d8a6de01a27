package codecheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// moduleRoot returns the directory of go.mod, above this package's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", dir, err)
	}
	return dir
}

// textFuncs are the functions of package strings that read a text.
var textFuncs = map[string]bool{
	"Contains": true, "ContainsAny": true, "HasPrefix": true, "HasSuffix": true,
	"TrimPrefix": true, "TrimSuffix": true, "CutPrefix": true, "CutSuffix": true,
	"Cut": true, "Index": true, "LastIndex": true, "EqualFold": true,
	"Split": true, "SplitN": true, "Fields": true, "Count": true,
}

// displayPrefix is a package's own "name: " prefix, which a command may
// strip to show a message under its own name ("matombo arena: ..."): it
// reads no fact from the text. The rules engine's prefix is not one of
// them: mancala.Message strips it.
var displayPrefix = regexp.MustCompile(`^"(arena|lab|loadtest): "$`)

// allowed are the places that must read a message's text, each with its
// reason.
var allowed = map[string]string{
	// encoding/json has no typed error for an unknown field of a struct
	// decoded with DisallowUnknownFields: its message is the only source.
	"internal/jsonmsg/jsonmsg.go": "encoding/json's unknown-field error",
}

// TestNoParsingOfEnglish fails on every place outside the rules engine
// (mancala/) that recovers facts from another package's messages: the
// engine's "mancala: " prefix written out, a decision told from the words
// of State.Pending() (a switch on it, or strings functions on it), and an
// error's Error() text compared, searched or cut (use errors.Is, errors.As
// and the engine's typed errors, or mancala.Message to show one). Tests are
// not checked: they may assert what people read.
func TestNoParsingOfEnglish(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "mancala" || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		if _, ok := allowed[rel]; ok {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, p := range findParsing(f) {
			t.Errorf("%s:%d: %s", rel, fset.Position(p.pos).Line, p.what)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d Go files checked under %s: the walk missed the sources", files, root)
	}
}

// finding is one place that reads English.
type finding struct {
	pos  token.Pos
	what string
}

// findParsing returns the places of f that read messages' text.
func findParsing(f *ast.File) []finding {
	var out []finding
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				if s, err := strconv.Unquote(n.Value); err == nil && strings.Contains(s, "mancala: ") {
					out = append(out, finding{n.Pos(), `the engine's "mancala: " prefix written out (use mancala.Message)`})
				}
			}
		case *ast.CallExpr:
			if fn, ok := stringsFunc(n); ok && textFuncs[fn] {
				for i, arg := range n.Args {
					m := method(arg)
					if m != "Error" && m != "Pending" {
						continue
					}
					if fn == "TrimPrefix" && m == "Error" && i == 0 && len(n.Args) == 2 {
						if lit, ok := n.Args[1].(*ast.BasicLit); ok && displayPrefix.MatchString(lit.Value) {
							continue
						}
					}
					out = append(out, finding{n.Pos(), "strings." + fn + " on ." + m + "() text"})
				}
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				for _, x := range []ast.Expr{n.X, n.Y} {
					if m := method(x); m == "Error" || m == "Pending" {
						out = append(out, finding{n.Pos(), "." + m + "() text compared"})
					}
				}
			}
		case *ast.SwitchStmt:
			if method(n.Tag) == "Pending" || initCalls(n.Init, "Pending") {
				out = append(out, finding{n.Pos(), "a switch on the text of .Pending() (use State.Decision)"})
			}
		}
		return true
	})
	return out
}

// stringsFunc returns the name of a call of package strings.
func stringsFunc(c *ast.CallExpr) (string, bool) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	if id, ok := sel.X.(*ast.Ident); ok && id.Name == "strings" {
		return sel.Sel.Name, true
	}
	return "", false
}

// method returns the name of the method e calls with no arguments
// (x.Error()), or "".
func method(e ast.Expr) string {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return ""
	}
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
		return sel.Sel.Name
	}
	return ""
}

// initCalls reports whether the statement s assigns from a call of the
// method name.
func initCalls(s ast.Stmt, name string) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, r := range as.Rhs {
		if method(r) == name {
			return true
		}
	}
	return false
}

// TestFindParsing checks the checker on samples of what it must find and
// what it must let be.
func TestFindParsing(t *testing.T) {
	bad := map[string]string{
		"prefix":   `package p; const x = "mancala: illegal"`,
		"contains": `package p; import "strings"; func f(err error) bool { return strings.Contains(err.Error(), "over") }`,
		"trim":     `package p; import "strings"; func f(err error) string { return strings.TrimPrefix(err.Error(), "app: ") }`,
		"pending":  `package p; import "strings"; func f(s interface{ Pending() string }) bool { return strings.HasPrefix(s.Pending(), "sow") }`,
		"switch":   `package p; func f(s interface{ Pending() string }) int { switch p := s.Pending(); { case p == "": return 1 }; return 0 }`,
		"equal":    `package p; func f(err error) bool { return err.Error() == "x" }`,
	}
	good := map[string]string{
		"message": `package p; import "matombo/mancala"; func f(err error) string { return mancala.Message(err) }`,
		"display": `package p; import "strings"; func f(err error) string { return strings.TrimPrefix(err.Error(), "arena: ") }`,
		"shown":   `package p; import "fmt"; func f(s interface{ Pending() string }) { if p := s.Pending(); p != "" { fmt.Println(p) } }`,
	}
	for name, src := range bad {
		if n := len(parse(t, src)); n == 0 {
			t.Errorf("%s: not found in %s", name, src)
		}
	}
	for name, src := range good {
		if got := parse(t, src); len(got) != 0 {
			t.Errorf("%s: %s found in %s", name, got[0].what, src)
		}
	}
}

func parse(t *testing.T, src string) []finding {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	return findParsing(f)
}

// TestCoreImports: the rules engine (mancala/) and the search (search/)
// import only the standard library, and the search the engine: nothing of
// the app, the protocol, the arena or the lab above them.
func TestCoreImports(t *testing.T) {
	root := moduleRoot(t)
	for dir, own := range map[string][]string{"mancala": nil, "search": {"matombo/mancala"}} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				first, _, _ := strings.Cut(p, "/")
				if strings.Contains(first, ".") || (first == "matombo" && !slices.Contains(own, p)) {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s imports %s; %s/ imports only the standard library%s", filepath.ToSlash(rel), p, dir, map[bool]string{true: " and matombo/mancala"}[len(own) > 0])
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
