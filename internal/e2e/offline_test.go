package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// setOffline switches the tab's network off or on: every request fails,
// the service worker's included, and navigator.onLine follows.
func setOffline(off bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		sw := off
		cond := network.Conditions{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}
		if _, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			EmulateOfflineServiceWorker: &sw, MatchedNetworkConditions: []*network.Conditions{&cond}}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	})
}

// TestOffline plays a game against level 3 on the offline page with the
// network off, after the service worker has cached the app, then switches
// the network on and finds the game in the archive. It also measures the
// computer's decisions in the browser at levels 3 and 6 on every preset.
func TestOffline(t *testing.T) {
	s := newSession(t)
	t.Run("PlayOfflineThenSync", func(t *testing.T) { playOfflineThenSync(s.with(t)) })
	t.Run("EveryPreset", func(t *testing.T) { everyPreset(s.with(t)) })
	t.Run("LevelTimings", func(t *testing.T) { levelTimings(s.with(t)) })
}

// playOfflineTurns plays up to n of the player's decisions on the offline
// page with random clicks, and reports whether the game ended.
func (s *session) playOfflineTurns(ctx context.Context, rng *rand.Rand, n int) bool {
	s.t.Helper()
	for i := 0; i < n; i++ {
		s.waitJS(ctx, offlineState+` !== "wait"`, 60*time.Second)
		if js[string](s, ctx, offlineState) == "over" {
			return true
		}
		buttons := js[[]string](s, ctx, `[...document.querySelectorAll("#prompt button[data-action]")].map(b => b.dataset.action)`)
		holes := s.legalHoles(ctx)
		if len(holes) == 0 && len(buttons) == 0 {
			s.t.Fatalf("the player's turn offers nothing to play; the prompt says %q", s.text(ctx, "#prompt"))
		}
		shown := js[string](s, ctx, `document.body.dataset.actions || "0"`)
		k := rng.IntN(len(holes) + len(buttons))
		if k < len(holes) {
			s.run(ctx, clickHole(holes[k]))
		} else {
			s.run(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#prompt button[data-action=%q]`, buttons[k-len(holes)]))))
		}
		// The click clears data-turn at once, unless the hole has several
		// actions and the prompt asks which one (the next round answers).
		s.waitJS(ctx, fmt.Sprintf(`(document.body.dataset.actions || "0") !== %q || document.body.dataset.turn === "you"`, shown), 30*time.Second)
	}
	return false
}

// everyPreset starts a game of each preset on the offline page, as South
// and as North, and plays a few decisions by clicks: the page offers what
// the engine allows (Choro's simultaneous opening and directions, Misoro
// Tsoro's head setup, Nsolo's removals) and animates it onto the engine's board.
func everyPreset(s *session) {
	t := s.t
	ctx := s.tab("presets", desktopW, desktopH)
	s.run(ctx, chromedp.Navigate(s.base+"/offline"))
	s.waitJS(ctx, `document.body.dataset.engine === "ready"`, 30*time.Second)
	s.run(ctx, setSpeed("instant"))
	rng := rand.New(rand.NewPCG(7, 9))
	presets := js[[]string](s, ctx, `[...document.querySelectorAll("#game option")].map(o => o.value)`)
	for i, rs := range presets {
		for _, side := range []string{"S", "N"} {
			t.Logf("%s as %s", rs, side)
			s.waitJS(ctx, `!document.body.dataset.status || `+offlineState+` !== "wait"`, 60*time.Second)
			if js[bool](s, ctx, `document.querySelector("#setup").classList.contains("hidden")`) {
				s.run(ctx, chromedp.Click(chromedp.ID("#new-game")))
				// The form opens at once, even while the ended game goes to the archive.
				s.waitJS(ctx, `!document.querySelector("#setup").classList.contains("hidden")`, 5*time.Second)
			}
			s.run(ctx,
				chromedp.SetValue(chromedp.CSS("#ruleset"), rs),
				runJS(`(() => { const l = document.querySelector("#level"); l.value = "1"; l.dispatchEvent(new Event("input")); })()`),
				chromedp.SetValue(chromedp.CSS("#side"), side),
				chromedp.Click(chromedp.ID("#start")),
			)
			s.waitJS(ctx, `document.body.dataset.status === "playing" || document.body.dataset.status === "over"`, 15*time.Second)
			s.playOfflineTurns(ctx, rng, 6)
			moves := s.movesShown(ctx)
			if moves < 2 {
				t.Errorf("%s as %s: %d turns in the move list after 6 decisions", rs, side, moves)
			}
			if i == len(presets)-1 && side == "N" {
				s.shot(ctx, "offline-desktop-choro")
			}
		}
	}
	s.noDesync(ctx, "presets")
}

// offlineState tells what the offline page waits for: "over", "act" or "wait".
const offlineState = `(() => {
  const d = document.body.dataset;
  if (d.status === "over") return "over";
  if (d.turn === "you" && !d.animating) return "act";
  return "wait";
})()`

func playOfflineThenSync(s *session) {
	t := s.t
	ctx := s.tab("offline", phoneW, phoneH)
	s.run(ctx, chromedp.Navigate(s.base+"/offline"))
	s.waitJS(ctx, `document.body.dataset.sw === "ready" && document.body.dataset.engine === "ready"`, 30*time.Second)
	if n := js[int](s, ctx, `document.querySelectorAll("#game option").length`); n != 5 {
		t.Errorf("the form offers %d games, want the 5 presets", n)
	}
	s.shot(ctx, "offline-phone-setup")
	var before struct {
		Games []struct{ ID string } `json:"games"`
	}
	if code := s.api("GET", "/api/games", "", nil, &before); code != 200 {
		t.Fatalf("GET /api/games: %d", code)
	}

	s.run(ctx, setOffline(true))
	// The network is really off for the page: the API cannot be reached.
	reach := value(s, ctx, chromedp.Evaluate[string](`fetch("/api/rulesets").then(() => "reached", () => "unreachable")`, chromedp.EvalAwaitPromise))
	if reach != "unreachable" {
		t.Fatalf("the API is %s with the network off", reach)
	}
	// The page and the engine come from the service worker's cache.
	s.run(ctx, chromedp.Navigate(s.base+"/offline"))
	s.waitJS(ctx, `document.body.dataset.engine === "ready"`, 30*time.Second)
	if c := s.text(ctx, "#conn"); c != "offline" {
		t.Errorf("connection badge %q, want offline", c)
	}
	s.run(ctx,
		setSpeed("instant"),
		chromedp.SetValue(chromedp.CSS("#ruleset"), "tsoro size=6"),
		runJS(`(() => { const l = document.querySelector("#level"); l.value = "3"; l.dispatchEvent(new Event("input")); })()`),
		chromedp.SetValue(chromedp.CSS("#side"), "S"),
		chromedp.Click(chromedp.ID("#start")),
	)
	s.waitJS(ctx, `document.querySelector("#board svg") && document.body.dataset.status === "playing"`, 15*time.Second)
	if title := s.text(ctx, "#title"); title != "Tsoro · level 3" {
		t.Errorf("title %q", title)
	}
	s.shot(ctx, "offline-phone-start")
	rng := rand.New(rand.NewPCG(3, 5))
	if !s.playOfflineTurns(ctx, rng, 3000) {
		t.Fatal("the offline game does not end")
	}
	s.noDesync(ctx, "offline game")
	if js[bool](s, ctx, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
		t.Error("the offline page sticks out sideways on a phone")
	}
	s.shot(ctx, "offline-phone-over")
	decisions := js[string](s, ctx, `document.body.dataset.aiDecisions`)
	t.Logf("offline game against level 3 (tsoro size=6): %s computer decisions, mean %s ms, max %s ms",
		decisions, js[string](s, ctx, `document.body.dataset.aiMsMean`), js[string](s, ctx, `document.body.dataset.aiMsMax`))
	local := js[string](s, ctx, `JSON.parse(localStorage.getItem("matombo.offline.pending") || "[]").map(p => p.record).join("\n---\n")`)
	if !strings.Contains(local, `[Ruleset "tsoro size=6"]`) || !strings.Contains(local, `[North "Computer (level 3)"]`) || strings.Contains(local, "---") {
		t.Fatalf("the device should hold this one record, got:\n%s", local)
	}
	if p := js[string](s, ctx, `document.body.dataset.pending`); p != "1" {
		t.Errorf("pending %q while offline, want 1", p)
	}

	s.run(ctx, setOffline(false))
	s.waitJS(ctx, `document.body.dataset.syncedId && document.body.dataset.pending === "0"`, 30*time.Second)
	id := js[string](s, ctx, `document.body.dataset.syncedId`)
	if left := js[string](s, ctx, `localStorage.getItem("matombo.offline.pending")`); left != "[]" {
		t.Errorf("the device still holds %s after the server took it", left)
	}
	var after struct {
		Games []struct {
			ID      string `json:"id"`
			Ruleset string `json:"ruleset"`
			Mode    string `json:"mode"`
			Result  string `json:"result"`
		} `json:"games"`
	}
	if code := s.api("GET", "/api/games", "", nil, &after); code != 200 {
		t.Fatalf("GET /api/games: %d", code)
	}
	found := false
	for _, g := range after.Games {
		if g.ID == id {
			found = true
			if g.Ruleset != "tsoro size=6" || g.Mode != "imported" || g.Result == "" || g.Result == "*" {
				t.Errorf("archived game: %+v", g)
			}
		}
	}
	if !found || len(after.Games) != len(before.Games)+1 {
		t.Fatalf("game %s not in the archive (%d games before, %d after)", id, len(before.Games), len(after.Games))
	}
	var exported string
	s.api("GET", "/api/games/"+id+"/record", "", nil, &exported)
	recTurns := func(r string) string { return r[strings.Index(r, "\n1. "):] }
	if !strings.Contains(local, "\n1. ") || !strings.Contains(exported, "\n1. ") || recTurns(local) != recTurns(exported) {
		t.Errorf("the archive's record differs from the device's:\n%s\n---\n%s", local, exported)
	}
	// The page links the game in the archive.
	s.waitJS(ctx, fmt.Sprintf(`document.querySelector('#saved a[data-id=%q]')`, id), 10*time.Second)
}

// timingScript plays, in a fresh engine worker, games of each preset
// against level, the player's side taking its first legal action, until
// the computer has made decisions decisions, and returns the engine's ms
// per computer decision by ruleset.
const timingScript = `(async () => {
  const w = new Worker("/static/js/engine-worker.js");
  let n = 0;
  const ask = (request) => new Promise((resolve, reject) => {
    const id = ++n;
    w.onmessage = (e) => e.data.id === id && (e.data.error ? reject(new Error(e.data.error)) : e.data.answer.ok ? resolve(e.data.answer) : reject(new Error(e.data.answer.error)));
    w.postMessage({ id, request });
  });
  const out = {};
  for (const p of (await ask({ op: "presets" })).presets) {
    let v = (await ask({ op: "new", ruleset: p.ruleset, level: %d, human: "S", seed: 11 })).view;
    const ms = [];
    while (v.status === "playing" && ms.length < %d) {
      const a = v.thinking ? await ask({ op: "ai" }) : await ask({ op: "play", action: v.legal[0] });
      if (v.thinking) ms.push(a.ms);
      v = a.view;
    }
    out[p.ruleset] = ms;
  }
  w.terminate();
  return JSON.stringify(out);
})()`

func levelTimings(s *session) {
	t := s.t
	ctx := s.tab("timings", desktopW, desktopH)
	s.run(ctx, chromedp.Navigate(s.base+"/offline"))
	s.waitJS(ctx, `document.body.dataset.engine === "ready"`, 30*time.Second)
	for _, level := range []int{3, 6} {
		c, cancel := context.WithTimeout(ctx, slack*120*time.Second)
		text, err := chromedp.Run(c, chromedp.Evaluate[string](fmt.Sprintf(timingScript, level, 12), chromedp.EvalAwaitPromise))
		cancel()
		if err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		var by map[string][]float64
		if err := json.Unmarshal([]byte(text), &by); err != nil {
			t.Fatal(err)
		}
		if len(by) != 5 {
			t.Errorf("level %d: timings of %d rulesets, want 5", level, len(by))
		}
		for rs, ms := range by {
			if len(ms) == 0 {
				t.Errorf("level %d, %s: the computer made no decision", level, rs)
				continue
			}
			total, most := 0.0, 0.0
			for _, m := range ms {
				total += m
				most = max(most, m)
			}
			t.Logf("level %d, %-14s %2d decisions: mean %6.1f ms, max %6.1f ms", level, rs+":", len(ms), total/float64(len(ms)), most)
			// Levels 1 to 6 stop at a node limit, with a time limit of
			// 1.5 s at most as a safety net; allow for a busy machine.
			if most > 1500*slack {
				t.Errorf("level %d, %s: a decision took %.0f ms", level, rs, most)
			}
		}
	}
}
