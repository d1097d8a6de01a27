package loadtest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"matombo/internal/store/postgres"
	"matombo/internal/store/postgres/pgtest"
	"matombo/internal/testserver"
)

// startServer runs the real server in-process with a fresh SQLite
// database and returns its base URL.
func startServer(t *testing.T) string {
	return testserver.Start(t, testserver.SQLite(t, ""))
}

func TestRunAgainstServer(t *testing.T) {
	base := startServer(t)
	rep, err := Run(context.Background(), Config{URL: base, Games: 8, Duration: 2 * time.Second, Ruleset: "tsoro size=6", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 {
		t.Fatalf("%d errors: %v", rep.Errors, rep.ErrorSamples)
	}
	if rep.Games != 8 || rep.Actions < 50 || rep.ActionsPerSec <= 0 {
		t.Errorf("report %+v: want 8 games and at least 50 actions", rep)
	}
	if !(0 < rep.P50 && rep.P50 <= rep.P95 && rep.P95 <= rep.P99 && rep.P99 <= rep.Max) {
		t.Errorf("latencies not ordered: %+v", rep)
	}
	// Both sockets are on one instance: the other seat's socket shows an
	// action about when the acting one does.
	if !(rep.P50 <= rep.ReachP50 && rep.ReachP50 <= rep.ReachP99) {
		t.Errorf("reach latencies %+v", rep)
	}
	if rep.Seconds < 1.9 || rep.Seconds > 2.1 {
		t.Errorf("measured %.2f s, want 2", rep.Seconds)
	}
	// Small boards end quickly: games are rematched and play goes on. The
	// eight games share one client address, whose rematches the server
	// limits to 60 a minute: a refused rematch waits as told and is not an
	// error (the check of Errors above).
	if rep.Finished == 0 {
		t.Errorf("no game finished in 2 s on a 6-column board: %+v", rep)
	}
	t.Logf("%d games finished, %d rematches refused by the rate limit", rep.Finished, rep.RateLimited)
}

// TestPaced checks that --rate paces the games: about rate actions per
// second in all, far fewer than unpaced.
func TestPaced(t *testing.T) {
	base := startServer(t)
	rep, err := Run(context.Background(), Config{URL: base, Games: 10, Duration: 2 * time.Second, Ruleset: "nsolo", Seed: 4, Rate: 20})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || rep.ActionsPerSec < 12 || rep.ActionsPerSec > 25 || rep.Rate != 20 {
		t.Errorf("paced at 20 actions/s: %+v", rep)
	}
}

// TestManyAddresses creates more games than one client address may (the
// server allows 60 a minute per address), so the spreading over source
// addresses must work.
func TestManyAddresses(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 120 games")
	}
	base := startServer(t)
	rep, err := Run(context.Background(), Config{URL: base, Games: 120, Duration: time.Second, Ruleset: "nsolo", Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || rep.Actions == 0 {
		t.Fatalf("%d errors, %d actions: %v", rep.Errors, rep.Actions, rep.ErrorSamples)
	}
}

// TestTwoInstances plays through two server instances sharing one
// PostgreSQL database (when MATOMBO_TEST_POSTGRES is set), linked by
// postgres.Notifier: each game's seats act through different instances, so
// every action must reach the other instance's socket before the game goes
// on.
func TestTwoInstances(t *testing.T) {
	dsn := pgtest.Schema(t)
	var urls [2]string
	for i := range urls {
		s, err := postgres.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		urls[i] = testserver.StartShared(t, s, postgres.NewNotifier(s.Pool()))
	}
	rep, err := Run(context.Background(), Config{URL: urls[0], More: urls[1:],
		Games: 6, Duration: time.Second, Ruleset: "tsoro size=6", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || rep.Actions < 20 {
		t.Fatalf("%d errors, %d actions: %v", rep.Errors, rep.Actions, rep.ErrorSamples)
	}
	if rep.ReachP50 < rep.P50 {
		t.Errorf("an action reached both instances' sockets before it was acknowledged? %+v", rep)
	}
}

// TestInstancesUnlinked checks that the load tester notices when updates
// do not cross instances: two instances on one SQLite file, which has no
// notifications, leave each game's second seat without the first's
// actions.
func TestInstancesUnlinked(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the acknowledgement timeout")
	}
	path := filepath.Join(t.TempDir(), "two.db")
	a, b := testserver.Start(t, testserver.SQLite(t, path)), testserver.Start(t, testserver.SQLite(t, path))
	rep, err := Run(context.Background(), Config{URL: a, More: []string{b}, Games: 2, Duration: time.Second, Ruleset: "nsolo", Seed: 5, AckTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 2 || !strings.Contains(rep.ErrorSamples[0], "has not shown ply") {
		t.Errorf("report %+v, want each game stopped by a missing update", rep)
	}
}

func TestCheckURL(t *testing.T) {
	for _, ok := range []string{"http://127.0.0.1:8080", "http://127.0.0.1:8080/", "http://localhost:9000", "http://[::1]:8080", "http://127.9.8.7:1"} {
		if _, err := CheckURL(ok); err != nil {
			t.Errorf("CheckURL(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "127.0.0.1:8080", "http://example.com", "http://10.0.0.1:8080", "http://0.0.0.0:8080",
		"https://127.0.0.1", "http://127.0.0.1.example.com", "http://user:pw@127.0.0.1", "http://127.0.0.1/api", "ftp://localhost",
		"http://[::ffff:10.0.0.1]:80", "http://localhost.evil:80"} {
		if _, err := CheckURL(bad); err == nil {
			t.Errorf("CheckURL(%q) accepted", bad)
		}
	}
}

func TestBounds(t *testing.T) {
	for _, cfg := range []Config{
		{URL: "http://127.0.0.1:1", Games: 0, Duration: time.Second},
		{URL: "http://127.0.0.1:1", Games: MaxGames + 1, Duration: time.Second},
		{URL: "http://127.0.0.1:1", Games: 1, Duration: 0},
		{URL: "http://127.0.0.1:1", Games: 1, Duration: time.Second, Rate: -1},
		{URL: "http://127.0.0.1:1", Games: 1, Duration: time.Second, Rate: MaxRate + 1},
		{URL: "http://127.0.0.1:1", Games: 1, Duration: (MaxSeconds + 1) * time.Second},
		{URL: "http://192.168.1.1:80", Games: 1, Duration: time.Second},
		{URL: "http://127.0.0.1:1", More: []string{"http://192.168.1.1:80"}, Games: 1, Duration: time.Second},
	} {
		if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "loadtest:") {
			t.Errorf("Run(%+v) = %v, want a refusal", cfg, err)
		}
	}
}

// TestNoServer checks that a run against a closed port fails at once with
// a clear error rather than reporting nothing.
func TestNoServer(t *testing.T) {
	_, err := Run(context.Background(), Config{URL: "http://127.0.0.1:1", Games: 2, Duration: time.Second})
	if err == nil || !strings.Contains(err.Error(), "no game could be set up") {
		t.Errorf("err = %v", err)
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	if percentile(d, 50) != 50*time.Millisecond || percentile(d, 99) != 99*time.Millisecond || percentile(d, 95) != 95*time.Millisecond {
		t.Errorf("percentiles %v %v %v", percentile(d, 50), percentile(d, 95), percentile(d, 99))
	}
	if percentile(d[:1], 99) != time.Millisecond || percentile(nil, 50) != 0 {
		t.Error("percentile of one or none")
	}
}

// TestAttacks runs each attack, at a small size, beside a few players: the
// attacker does what it says (requests answered or refused by the limits,
// none failing) and the players see no error.
func TestAttacks(t *testing.T) {
	for _, name := range Attacks {
		t.Run(name, func(t *testing.T) {
			size := 130 // sockets: more than two addresses' worth
			if name == AttackAI {
				size = 4 // games: each creation counts against the address's 60 a minute
			}
			if name == AttackReviews {
				size = 2 // reviews at once
			}
			rep, err := Run(context.Background(), Config{URL: startServer(t), Games: 4, Duration: 3 * time.Second, Rate: 8, Seed: 1, Attack: name, AttackSize: size})
			if err != nil {
				t.Fatal(err)
			}
			a := rep.Attack
			if a == nil || a.Name != name || a.Failed != 0 || a.Requests+a.Refused == 0 {
				t.Fatalf("attack %+v", a)
			}
			if name == AttackSockets && a.Requests != 130 {
				t.Errorf("%d of 130 sockets held", a.Requests)
			}
			if rep.Errors != 0 || rep.Actions == 0 {
				t.Errorf("players: %d actions, %d errors %v", rep.Actions, rep.Errors, rep.ErrorSamples)
			}
		})
	}
	if _, err := Run(context.Background(), Config{URL: "http://127.0.0.1:1", Games: 1, Duration: time.Second, Attack: "flood"}); err == nil || !strings.Contains(err.Error(), `unknown attack "flood"`) {
		t.Errorf("an unknown attack: %v", err)
	}
}
