package mancala

import (
	"fmt"
	"strings"
	"testing"
)

// TestRecordHeaderBounds: ParseRecord takes at most MaxHeaders headers of
// at most MaxHeaderValue bytes a value, and SetTag keeps a record within
// them.
func TestRecordHeaderBounds(t *testing.T) {
	head := "[Ruleset \"nsolo\"]\n[Result \"*\"]\n"
	var b strings.Builder
	b.WriteString(head)
	for i := range MaxHeaders - 2 {
		fmt.Fprintf(&b, "[K%d \"%s\"]\n", i, strings.Repeat("v", MaxHeaderValue))
	}
	rec, err := ParseRecord(b.String())
	if err != nil {
		t.Fatalf("%d headers of %d bytes: %v", MaxHeaders, MaxHeaderValue, err)
	}
	if err := rec.SetTag("K0", "replaced"); err != nil {
		t.Errorf("replacing a tag of a full record: %v", err)
	}
	if err := rec.SetTag("More", "x"); err == nil || !strings.Contains(err.Error(), "at most 64") {
		t.Errorf("a tag beyond the limit: %v", err)
	}
	if back, err := ParseRecord(rec.String()); err != nil || !back.Equal(rec) {
		t.Errorf("a full record does not read back: %v", err)
	}
	_, err = ParseRecord(b.String() + "[Extra \"x\"]\n")
	if err == nil || !strings.Contains(err.Error(), "line 65") || !strings.Contains(err.Error(), "at most 64 headers") {
		t.Errorf("%d headers: %v", MaxHeaders+1, err)
	}
	_, err = ParseRecord(head + "[Event \"" + strings.Repeat("é", 501) + "\"]\n")
	if err == nil || !strings.Contains(err.Error(), "1002 bytes") || !strings.Contains(err.Error(), "at most 1000 bytes") {
		t.Errorf("a value of 1,002 bytes: %v", err)
	}
	var r Record
	if err := r.SetTag("Event", strings.Repeat("x", MaxHeaderValue+1)); err == nil {
		t.Error("SetTag took a value beyond MaxHeaderValue")
	}
}
