package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"matombo/internal/testserver"
)

// TestLoadtestRefuses checks the command line's bounds: loopback only,
// games and seconds bounded, a URL required.
func TestLoadtestRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"loadtest"}, "--url is required"},
		{[]string{"loadtest", "--url", "http://192.0.2.1:8080"}, "not a loopback address"},
		{[]string{"loadtest", "--url", "http://127.0.0.1:8080,http://example.com"}, `host "example.com" is not a loopback`},
		{[]string{"loadtest", "--url", "https://localhost:8080"}, "scheme must be http"},
		{[]string{"loadtest", "--url", "http://127.0.0.1:8080", "--games", "0"}, "games run from 1 to 10000"},
		{[]string{"loadtest", "--url", "http://127.0.0.1:8080", "--games", "10001"}, "games run from 1 to 10000"},
		{[]string{"loadtest", "--url", "http://127.0.0.1:8080", "--seconds", "601"}, "seconds run from 1 to 600"},
		{[]string{"loadtest", "--url", "http://127.0.0.1:8080", "extra"}, "takes no arguments"},
		{[]string{"loadtest", "--url", "http://127.0.0.1:8080", "--rate", "-5"}, "the rate runs from 0"},
	} {
		code, stdout, stderr := run(t, "", tc.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// TestLoadtestJSON runs the command against the real server in-process and
// checks the fields of --json.
func TestLoadtestJSON(t *testing.T) {
	base := testserver.Start(t, testserver.SQLite(t, ""))
	code, stdout, stderr := run(t, "", "loadtest", "--url", base, "--games", "3", "--seconds", "1", "--ruleset", "nsolo", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	for _, k := range []string{"games", "actions", "actions_per_sec", "p50_ms", "p95_ms", "p99_ms", "reach_p50_ms", "reach_p99_ms", "errors"} {
		if _, ok := rep[k].(float64); !ok {
			t.Errorf("field %s missing or not a number in %s", k, stdout)
		}
	}
	if rep["games"] != 3.0 || rep["errors"] != 0.0 || rep["actions"].(float64) < 1 {
		t.Errorf("report %s", stdout)
	}
}
