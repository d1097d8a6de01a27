package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const (
	desktopW, desktopH = 1366, 900
	phoneW, phoneH     = 390, 844
)

// gameState tells what the game page waits for: "over", "act" (the viewer
// may act now), "pass" (a one-device game waits for North to take the
// device in Choro's simultaneous opening) or "wait".
const gameState = `(() => {
  if (!document.querySelector("#banner").classList.contains("hidden")) return "over";
  if (document.body.dataset.pass === "north") return "pass";
  const active = document.querySelector("#prompt.active");
  const legal = document.querySelectorAll("#board g.hole.legal").length;
  const buttons = document.querySelectorAll("#prompt.active button[data-action]").length;
  if (active && (legal || buttons)) return "act";
  return "wait";
})()`

// setSpeed picks an animation speed in the page's select, as a user would.
func setSpeed(speed string) chromedp.Action[chromedp.Void] {
	return runJS(fmt.Sprintf(`(() => { const s = document.querySelector("#speed"); s.value = %q; s.dispatchEvent(new Event("change")); })()`, speed))
}

// runJS runs JavaScript for its effect.
func runJS(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[any](expr+`; null`)(ctx, t)
		if errors.Is(err, chromedp.ErrJSNull) {
			return nil
		}
		return err
	})
}

// legalHoles lists the holes the page highlights.
func (s *session) legalHoles(ctx context.Context) []string {
	return js[[]string](s, ctx, `[...document.querySelectorAll("#board g.hole.legal")].map(g => g.dataset.hole)`)
}

// movesShown counts the written turns in the page's move list.
func (s *session) movesShown(ctx context.Context) int {
	return js[int](s, ctx, `[...document.querySelectorAll("#moves td")].filter(td => td.textContent.trim() !== "").length`)
}

// clickHole clicks a hole of the board like a mouse.
func clickHole(hole string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board g.hole[data-hole=%q]`, hole)))
}

// newGame fills in the home page's form and starts a game.
func (s *session) newGame(ctx context.Context, game string, opts map[string]string, opponent, level, side string) string {
	s.t.Helper()
	s.run(ctx,
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`input[name="game"][value=%q]`, game))),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`label[for="game-%s"]`, game))),
	)
	for k, v := range opts {
		s.run(ctx, chromedp.SetValue(chromedp.CSS("#opt-"+k), v),
			runJS(fmt.Sprintf(`document.querySelector("#opt-%s").dispatchEvent(new Event("change"))`, k)))
	}
	s.run(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="opponent"][value=%q] + span`, opponent))))
	if level != "" {
		s.run(ctx, runJS(fmt.Sprintf(`(() => { const l = document.querySelector("#level"); l.value = %q; l.dispatchEvent(new Event("input")); })()`, level)))
	}
	if side != "" {
		s.run(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="side"][value=%q] + span`, side))))
	}
	ruleset := s.text(ctx, "#ruleset-text")
	s.run(ctx, chromedp.Click(chromedp.ID("#start")))
	s.waitJS(ctx, `location.pathname.startsWith("/game/") && document.querySelector("#board svg")`, 15*time.Second)
	id := js[string](s, ctx, `location.pathname.split("/")[2]`)
	if id == "" {
		s.t.Fatal("no game id after starting a game")
	}
	s.t.Logf("game %s: %s vs %s", id, ruleset, opponent)
	return id
}

// TestBrowser runs the browser tests on one server and one chromium
// (starting chromium takes seconds on a busy machine).
func TestBrowser(t *testing.T) {
	s := newSession(t)
	t.Run("PlayAgainstAI", func(t *testing.T) { playAgainstAI(s.with(t)) })
	t.Run("LocalGameHead", func(t *testing.T) { localGameHead(s.with(t)) })
	t.Run("ChoroClockwise", func(t *testing.T) { choroClockwise(s.with(t)) })
	t.Run("ChoroOpeningAI", func(t *testing.T) { choroOpeningAI(s.with(t)) })
	t.Run("ChoroOpeningFriends", func(t *testing.T) { choroOpeningFriends(s.with(t)) })
	t.Run("ChoroPassDevice", func(t *testing.T) { choroPassDevice(s.with(t)) })
	t.Run("ChoroLeave", func(t *testing.T) { choroLeave(s.with(t)) })
	t.Run("ChoroImportOld", func(t *testing.T) { choroImportOld(s.with(t)) })
	t.Run("NsoloRemoval", func(t *testing.T) { nsoloRemoval(s.with(t)) })
	t.Run("OnlineGame", func(t *testing.T) { onlineGame(s.with(t)) })
	t.Run("ReconnectCatchUp", func(t *testing.T) { reconnectCatchUp(s.with(t)) })
	t.Run("ReplayAndArchive", func(t *testing.T) { replayAndArchive(s.with(t)) })
	t.Run("Pages", func(t *testing.T) { pages(s.with(t)) })
	t.Run("MoveListNorthFirst", func(t *testing.T) { moveListNorthFirst(s.with(t)) })
	t.Run("SeatsAndBanners", func(t *testing.T) { seatsAndBanners(s.with(t)) })
	t.Run("TopbarPhone", func(t *testing.T) { topbarPhone(s.with(t)) })
	t.Run("StatusBadges", func(t *testing.T) { statusBadges(s.with(t)) })
	t.Run("RatedBox", func(t *testing.T) { ratedBox(s.with(t)) })
	t.Run("UntimedRules", func(t *testing.T) { untimedRules(s.with(t)) })
	t.Run("MidTurnPosition", func(t *testing.T) { midTurnPosition(s.with(t)) })
	t.Run("PromptsFollowBoard", func(t *testing.T) { promptsFollowBoard(s.with(t)) })
	t.Run("RulesLinksAndHelp", func(t *testing.T) { rulesLinksAndHelp(s.with(t)) })
	t.Run("LabReports", func(t *testing.T) { labReports(s.with(t)) })
	t.Run("KeysAndClicks", func(t *testing.T) { keysAndClicks(s.with(t)) })
}

// playAgainstAI plays a whole game against the AI with clicks and keys.
func playAgainstAI(s *session) {
	t := s.t
	ctx := s.tab("player", desktopW, desktopH)
	id := s.newGame(ctx, "tsoro", map[string]string{"size": "6", "heads": "none", "bonus": "3"}, "ai", "1", "S")

	ruleset, badge := s.text(ctx, "#ruleset"), s.text(ctx, "#mode")
	if ruleset != "tsoro size=6 heads=none bonus=3" || badge != "you play South" {
		t.Fatalf("game page shows ruleset %q, badge %q", ruleset, badge)
	}
	s.waitJS(ctx, gameState+` === "act"`, 10*time.Second)
	// South's start: every outer hole with two stones is legal, and labelled so.
	holes := s.legalHoles(ctx)
	if strings.Join(holes, " ") != "a1 a2 a3 a4 a5 a6" {
		t.Fatalf("legal holes at the start: %v", holes)
	}
	label := js[string](s, ctx, `document.querySelector('#board g.hole[data-hole="a3"]').getAttribute("aria-label")`)
	if label != "a3, 2 stones, legal" {
		t.Fatalf("aria-label of a3: %q", label)
	}
	// A hint: the suggested hole pulses and the prompt says it.
	s.run(ctx, chromedp.Click(chromedp.ID("#hint")))
	s.waitJS(ctx, `document.querySelector("#board g.hole.hint") && document.querySelector("#prompt .hint-line")`, 10*time.Second)
	hinted := js[string](s, ctx, `document.querySelector("#board g.hole.hint").dataset.hole`)
	if line := s.text(ctx, "#prompt .hint-line"); !slices.Contains(holes, hinted) || line != "Hint (level 6): sow "+hinted+"." {
		t.Fatalf("hint on %s, saying %q; legal %v", hinted, line, holes)
	}
	s.shot(ctx, "desktop-hint")

	// First move by keyboard: focus the board, arrow right, Enter; the
	// animation runs at slow speed and is skipped with the button.
	s.run(ctx, setSpeed("slow"),
		chromedp.Focus(chromedp.CSS(`#board g.hole[tabindex="0"]`)),
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.KeyEvent(kb.Enter))
	// The lap is drawn stone by stone; Skip (or Esc) ends it at once.
	s.waitJS(ctx, `Number(document.body.dataset.laps || 0) >= 1`, 10*time.Second)
	s.run(ctx, runJS(`(() => { const b = document.querySelector("#skip"); if (!b.disabled) b.click(); })()`))
	s.waitJS(ctx, `document.querySelector("#moves td.last")`, 10*time.Second)
	s.waitJS(ctx, `document.querySelector("#announce").textContent.startsWith("South a2: sows 2 stones from a2")`, 5*time.Second)
	first := s.text(ctx, "#moves td")
	if first != "a2" {
		t.Fatalf("first move %q, want a2 (focus a1, arrow right, Enter)", first)
	}
	// After the AI's answer the focus is back on a legal hole: Enter plays it.
	s.waitJS(ctx, gameState+` === "act" && document.activeElement && document.activeElement.matches("#board g.hole.legal")`, 20*time.Second)
	focused := js[string](s, ctx, `document.activeElement.dataset.hole`)
	s.run(ctx, setSpeed("instant"), chromedp.KeyEvent(kb.Enter))
	s.waitJS(ctx, `(() => { const r = document.querySelectorAll("#moves tbody tr")[1]; return r && r.querySelector("td").textContent.split(",")[0] === "`+focused+`"; })()`, 10*time.Second)

	// The rest by mouse, at instant speed, until the game ends.
	s.run(ctx, setSpeed("instant"))
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 1
	deadline := time.Now().Add(slack * 60 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end in time after %d actions", moves)
		}
		state := js[string](s, ctx, gameState)
		if state == "over" {
			break
		}
		if state == "wait" {
			time.Sleep(30 * time.Millisecond)
			continue
		}
		buttons := js[[]string](s, ctx, `[...document.querySelectorAll("#prompt.active button[data-action]")].map(b => b.dataset.action)`)
		holes := s.legalHoles(ctx)
		switch {
		case len(buttons) > 0:
			s.run(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#prompt button[data-action=%q]`, buttons[rng.IntN(len(buttons))]))))
		case len(holes) > 0:
			s.run(ctx, clickHole(holes[rng.IntN(len(holes))]))
		default:
			continue
		}
		moves++
		// A second click while the action is under way is ignored by the
		// page; a short pause keeps the loop from spinning.
		time.Sleep(25 * time.Millisecond)
	}
	banner := s.text(ctx, "#banner")
	s.noDesync(ctx, "game against the AI")
	var v gameView
	s.api("GET", "/api/games/"+id, "", nil, &v)
	if v.Status != "over" {
		t.Fatalf("the page shows the end (%q) but the server says %s", banner, v.Status)
	}
	want := map[string]string{"S": "You win", "N": "You lose", "draw": "Draw"}[v.Result]
	if !strings.Contains(banner, want) {
		t.Fatalf("banner %q, server result %s", banner, v.Result)
	}
	if n := s.movesShown(ctx); n != len(v.Turns) {
		t.Fatalf("move list shows %d turns, the server has %d", n, len(v.Turns))
	}
	rematch := js[bool](s, ctx, `[...document.querySelectorAll("#banner button")].some(b => b.textContent === "Rematch")`)
	if !rematch {
		t.Error("no rematch button after the game")
	}
	t.Logf("game over after %d clicks: %s (%d turns)", moves, strings.ReplaceAll(banner, "\n", " "), len(v.Turns))
	s.shot(ctx, "desktop-game-over")

	// Rematch: a new game with sides swapped, opened in the same tab.
	s.run(ctx, chromedp.Click(chromedp.CSS(`#banner button.primary`)))
	s.waitJS(ctx, `location.pathname !== "/game/`+id+`" && document.querySelector("#mode") && document.querySelector("#mode").textContent === "you play North"`, 10*time.Second)
}

// onlineGame plays between two browsers by invite link, with a third
// watching.
func onlineGame(s *session) {
	t := s.t
	alice := s.tab("alice", desktopW, desktopH)
	// A name given once is remembered: the home page's form starts with it.
	s.run(alice, chromedp.Navigate(s.base+"/"), runJS(`localStorage.setItem("matombo.pref.name", "Alice")`))
	id := s.newGame(alice, "tsoro", map[string]string{"size": "8"}, "friend", "", "S")
	s.waitJS(alice, `!document.querySelector("#invite-card").classList.contains("hidden") && document.querySelector("#invite-url").value`, 10*time.Second)
	invite := js[string](s, alice, `document.querySelector("#invite-url").value`)
	if !strings.Contains(invite, "/join/"+id+"/") {
		t.Fatalf("invite link %q", invite)
	}
	s.run(alice, setSpeed("fast"))

	bob := s.tab("bob", phoneW, phoneH)
	s.run(bob, chromedp.Navigate(invite))
	s.waitJS(bob, `!document.querySelector("#join-form").classList.contains("hidden")`, 10*time.Second)
	if got := s.text(bob, "#join-status"); !strings.Contains(got, "Alice invites you to a game of Tsoro") {
		t.Errorf("the invitation says %q", got)
	}
	s.run(bob, chromedp.SetValue(chromedp.CSS("#join-name"), "Bob"), chromedp.Click(chromedp.ID("#join-btn")))
	s.waitJS(bob, `location.pathname === "/game/`+id+`" && document.querySelector("#mode").textContent === "you play North"`, 10*time.Second)
	s.waitJS(alice, `document.querySelector("#seat-top").textContent.includes("Bob") && document.querySelector("#seat-bottom").textContent.includes("You")`, 10*time.Second)
	s.run(bob, setSpeed("fast"))
	flipped := js[bool](s, bob, `document.querySelector("#flip").checked`)
	if !flipped {
		t.Error("North's board is not shown from North's side")
	}

	s.waitJS(alice, `document.querySelector("#invite-text").textContent.includes("has joined")`, 10*time.Second)

	eve := s.tab("spectator", desktopW, desktopH)
	s.run(eve, chromedp.Navigate(s.base+"/game/"+id))
	s.waitJS(eve, `document.querySelector("#mode").textContent === "watching" && document.querySelector("#conn").textContent === "live"`, 10*time.Second)
	s.waitJS(alice, `document.querySelector("#conn").textContent === "live"`, 10*time.Second)
	s.waitJS(bob, `document.querySelector("#conn").textContent === "live"`, 10*time.Second)

	// Alice (South) moves; Bob and the spectator see it.
	s.waitJS(alice, gameState+` === "act"`, 10*time.Second)
	s.run(alice, clickHole("a1"))
	for _, c := range []context.Context{alice, bob, eve} {
		s.waitJS(c, `document.querySelectorAll("#moves td.last").length === 1 && document.querySelector("#moves td.last").textContent === "a1"`, 15*time.Second)
	}
	// Bob (North) answers on his phone; Alice and the spectator see it.
	s.waitJS(bob, gameState+` === "act"`, 10*time.Second)
	holes := s.legalHoles(bob)
	if len(holes) == 0 || !strings.HasPrefix(holes[0], "c") && !strings.HasPrefix(holes[0], "d") {
		t.Fatalf("North's legal holes: %v", holes)
	}
	s.run(bob, clickHole(holes[len(holes)-1]))
	for _, c := range []context.Context{alice, bob, eve} {
		s.waitJS(c, `[...document.querySelectorAll("#moves td")].filter(td => td.textContent.trim()).length === 2`, 15*time.Second)
	}
	// The spectator can never act.
	if h := s.legalHoles(eve); len(h) != 0 {
		t.Errorf("the spectator sees legal holes %v", h)
	}
	var v gameView
	s.api("GET", "/api/games/"+id, "", nil, &v)
	if v.Ply < 2 || len(v.Turns) != 2 {
		t.Fatalf("server: ply %d, turns %v", v.Ply, v.Turns)
	}
	s.waitJS(alice, gameState+` === "act"`, 10*time.Second)
	// The server restarts (a deployment): every page shows it lost the
	// connection, reconnects with backoff and catches up.
	watch := `(() => { window.lostLink = false; new MutationObserver(() => {
		if (document.querySelector("#conn").textContent !== "live") window.lostLink = true;
	}).observe(document.querySelector("#conn"), {childList: true, characterData: true, subtree: true}); })()`
	for _, c := range []context.Context{alice, bob, eve} {
		s.run(c, runJS(watch))
	}
	if s.server.restart() {
		for _, c := range []context.Context{alice, bob, eve} {
			s.waitJS(c, `window.lostLink && document.querySelector("#conn").textContent === "live"`, 20*time.Second)
		}
		s.run(alice, clickHole(s.legalHoles(alice)[0]))
		for _, c := range []context.Context{alice, bob, eve} {
			s.waitJS(c, `[...document.querySelectorAll("#moves td")].filter(td => td.textContent.trim()).length === 3`, 15*time.Second)
		}
		s.waitJS(bob, gameState+` === "act"`, 10*time.Second)
	}
	for name, c := range map[string]context.Context{"alice": alice, "bob": bob, "spectator": eve} {
		s.noDesync(c, name)
	}
	s.shot(alice, "desktop-online-south")
	s.shot(bob, "phone-online-north")
	s.shot(eve, "desktop-online-spectator")

	// Bob resigns; everyone sees the result.
	s.run(bob, runJS(`window.confirm = () => true`), chromedp.Click(chromedp.ID("#resign")))
	for _, c := range []context.Context{alice, bob, eve} {
		s.waitJS(c, `!document.querySelector("#banner").classList.contains("hidden")`, 10*time.Second)
	}
	banner := s.text(alice, "#banner")
	if !strings.Contains(banner, "You win") || !strings.Contains(banner, "North resigned") {
		t.Errorf("Alice's banner after Bob resigned: %q", banner)
	}
}

// localGameHead plays Misoro Tsoro for both sides on one device, by clicks:
// each side names its two heads, then play goes on until a lap ends in an
// occupied head, where the player stops with the S key.
func localGameHead(s *session) {
	t := s.t
	ctx := s.tab("local", desktopW, desktopH)
	id := s.newGame(ctx, "misoro-tsoro", map[string]string{"size": "6"}, "local", "", "")
	if badge := s.text(ctx, "#mode"); badge != "two players, one device" {
		t.Fatalf("badge %q", badge)
	}
	s.waitJS(ctx, gameState+` === "act"`, 10*time.Second)
	if p := s.text(ctx, "#prompt"); !strings.Contains(p, "Name a head") {
		t.Fatalf("the setup prompt says %q", p)
	}
	if holes := s.legalHoles(ctx); strings.Join(holes, " ") != "a1 a2 a3 a4 a5 a6" {
		t.Fatalf("South may name %v as heads", holes)
	}
	s.run(ctx, setSpeed("instant"))
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 300; i++ {
		state := js[string](s, ctx, gameState)
		if state == "over" {
			t.Fatal("the game ended before a lap ended in a head")
		}
		if state == "wait" {
			time.Sleep(30 * time.Millisecond)
			continue
		}
		buttons := js[[]string](s, ctx, `[...document.querySelectorAll("#prompt.active button[data-action]")].map(b => b.dataset.action)`)
		if slices.Contains(buttons, "stop") {
			prompt := s.text(ctx, "#prompt")
			if !strings.Contains(prompt, "head") || !strings.Contains(prompt, "Relay from") {
				t.Fatalf("the head prompt says %q", prompt)
			}
			if n := js[int](s, ctx, `document.querySelectorAll("#board g.hole.head").length`); n != 4 {
				t.Errorf("%d heads marked, want 4", n)
			}
			s.noDesync(ctx, "game on one device")
			s.shot(ctx, "desktop-head-prompt")
			s.run(ctx, chromedp.KeyEvent("s"))
			s.waitJS(ctx, `[...document.querySelectorAll("#moves td")].some(td => td.textContent.endsWith(",stop"))`, 5*time.Second)
			var v gameView
			s.api("GET", "/api/games/"+id, "", nil, &v)
			last := v.Turns[len(v.Turns)-1]
			if last[len(last)-1] != "stop" {
				t.Fatalf("the server's last turn is %v", last)
			}
			return
		}
		holes := s.legalHoles(ctx)
		switch {
		case len(buttons) > 0:
			s.run(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#prompt button[data-action=%q]`, buttons[rng.IntN(len(buttons))]))))
		case len(holes) > 0:
			s.run(ctx, clickHole(holes[rng.IntN(len(holes))]))
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatal("no lap ended in a head in 300 actions")
}
