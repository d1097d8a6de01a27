package mancala_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyStandardLibrary keeps the rules core free of dependencies:
// everything it imports, directly or not, is in Go's standard library.
func TestImportsOnlyStandardLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "matombo/mancala" {
			t.Errorf("the rules core depends on %s; it may import only the standard library", dep)
		}
	}
}
