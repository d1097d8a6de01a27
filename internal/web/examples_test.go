package web

import (
	"html"
	"io/fs"
	"regexp"
	"testing"

	"matombo/mancala"
)

// TestImportExample checks that the record the archive's import box shows
// as its example is a valid record: it parses and replays.
func TestImportExample(t *testing.T) {
	page, err := fs.ReadFile(FS, "archive.html")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<textarea id="record"[^>]*placeholder='([^']*)'`).FindSubmatch(page)
	if m == nil {
		t.Fatal("archive.html: no placeholder on the record box")
	}
	text := html.UnescapeString(string(m[1]))
	rec, err := mancala.ParseRecord(text)
	if err != nil {
		t.Fatalf("the example %q does not parse: %v", text, err)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("the example %q does not replay: %v", text, err)
	}
	if len(rec.Turns) < 2 {
		t.Errorf("the example %q has %d turns; show at least one of each side", text, len(rec.Turns))
	}
}
