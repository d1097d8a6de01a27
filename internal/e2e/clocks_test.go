package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"matombo/internal/fakeclock"
)

// TestClocksBrowser: two accounts sign up, one posts a rated 1+0 challenge
// in the lobby and the other accepts it; they play it to a flag (on the
// server's fake clock) and both see their ratings change; a game aborted
// before both sides played; a takeback and a draw, each asked and
// accepted; a correspondence game ended by its time limit.
func TestClocksBrowser(t *testing.T) {
	exe := chromium(t)
	clock := fakeclock.New(time.Now().UTC())
	srv := startServerWith(t, clock)
	if srv.store == nil {
		t.Skip("MATOMBO_E2E_URL is set: the clocks' browser test needs the server in-process, on its fake clock")
	}
	s := newSessionOn(t, exe, srv)
	ada := s.tab("ada", desktopW, desktopH)
	bob := s.tab("bob", phoneW, phoneH)
	s.signUp(ada, "Ada")
	s.signUp(bob, "Bob")

	// A rated 1+0 game, posted in the lobby by Ada and accepted by Bob, to
	// a flag.
	id := s.lobbyGame(ada, bob, "nsolo", "1+0", true)
	s.waitJS(ada, `document.querySelectorAll("#clocks .clock").length === 2 && document.querySelector("#clock-rule").textContent.includes("1 min a side")`, 10*time.Second)
	s.playTurnIn(ada, id, "S")
	s.playTurnIn(bob, id, "N")
	// South's clock runs now: the page counts it down from the server's view.
	s.waitJS(ada, `document.querySelector('#clocks .clock.running[data-side="S"]')`, 10*time.Second)
	s.waitJS(bob, `document.querySelector('#clocks .clock.running[data-side="S"]')`, 10*time.Second)
	s.shot(bob, "phone-clock-running")
	clock.Advance(time.Minute) // South's minute passes; the sweeper ends the game with nobody acting
	for _, c := range []context.Context{ada, bob} {
		s.waitJS(c, `!document.querySelector("#banner").classList.contains("hidden") && document.querySelector("#banner").textContent.includes("ran out of time")`, 15*time.Second)
	}
	if got := s.text(bob, "#banner"); !contains(got, "You win", "South ran out of time") {
		t.Errorf("Bob's banner after the flag: %q", got)
	}
	if got := s.text(ada, `#clocks .clock[data-side="S"] .clock-time`); got != "0:00.0" {
		t.Errorf("the flagged clock shows %q", got)
	}
	s.shot(bob, "phone-flag")
	var v gameView
	s.api("GET", "/api/games/"+id, "", nil, &v)
	if v.Result != "N" || v.Reason != "time" {
		t.Fatalf("server after the flag: %s (%s)", v.Result, v.Reason)
	}
	// Both ratings changed, in the bullet category, on each profile.
	s.run(ada, chromedp.Navigate(s.base+"/leaderboard"))
	var board struct {
		Ratings []struct {
			Name   string  `json:"name"`
			Rating float64 `json:"rating"`
		} `json:"ratings"`
	}
	s.api("GET", "/api/leaderboard?ruleset=nsolo&category=bullet", "", nil, &board)
	if len(board.Ratings) != 2 || board.Ratings[0].Name != "Bob" || board.Ratings[0].Rating <= 1500 || board.Ratings[1].Name != "Ada" || board.Ratings[1].Rating >= 1500 {
		t.Fatalf("bullet leaderboard after the flag: %+v", board.Ratings)
	}
	for name, ctx := range map[string]context.Context{"Ada": ada, "Bob": bob} {
		s.run(ctx, chromedp.Navigate(s.base+"/profile/"+name))
		s.waitJS(ctx, `document.querySelector('#ratings tr[data-category="bullet"]') && document.querySelector("#ratings").textContent.includes("bullet")`, 15*time.Second)
	}

	// An abort before both sides have played.
	id = s.clockGame(ada, bob, "3+2", false)
	s.playTurnIn(ada, id, "S")
	s.waitJS(bob, `document.querySelector("#abort")`, 10*time.Second)
	s.run(bob, runJS(`window.confirm = () => true; document.querySelector("#abort").click()`))
	for _, c := range []context.Context{ada, bob} {
		s.waitJS(c, `!document.querySelector("#banner").classList.contains("hidden") && document.querySelector("#banner").textContent.includes("Aborted")`, 15*time.Second)
	}

	// A takeback asked by Ada and accepted by Bob, then a draw offered by
	// Ada, seen and accepted by Bob.
	id = s.clockGame(ada, bob, "10+5", false)
	s.playTurnIn(ada, id, "S")
	s.playTurnIn(bob, id, "N")
	s.api("GET", "/api/games/"+id, "", nil, &v)
	back := v.Ply
	s.playTurnIn(ada, id, "S")
	s.waitJS(ada, `document.querySelector("#ask-takeback")`, 10*time.Second)
	s.run(ada, runJS(`document.querySelector("#ask-takeback").click()`))
	s.waitJS(bob, `document.querySelector("#accept-takeback") && document.querySelector("#offers-card").textContent.includes("take back their last turn")`, 10*time.Second)
	s.run(bob, runJS(`document.querySelector("#accept-takeback").click()`))
	for _, c := range []context.Context{ada, bob} {
		s.waitJS(c, `Number(document.body.dataset.ply) === `+fmt.Sprint(back)+` && !document.querySelector("#accept-takeback")`, 15*time.Second)
	}
	s.waitJS(ada, gameState+` === "act"`, 10*time.Second)
	s.waitJS(ada, `document.querySelector("#offer-draw") && !document.querySelector("#abort")`, 10*time.Second)
	s.run(ada, runJS(`document.querySelector("#offer-draw").click()`))
	s.waitJS(ada, `document.querySelector("#offers-card").textContent.includes("You offered a draw")`, 10*time.Second)
	s.waitJS(bob, `document.querySelector("#accept-draw") && document.querySelector("#offers-card").textContent.includes("Your opponent offers a draw")`, 10*time.Second)
	s.shot(bob, "phone-draw-offer")
	s.run(bob, runJS(`document.querySelector("#accept-draw").click()`))
	for _, c := range []context.Context{ada, bob} {
		s.waitJS(c, `!document.querySelector("#banner").classList.contains("hidden") && document.querySelector("#banner").textContent.includes("Draw")`, 15*time.Second)
	}
	s.api("GET", "/api/games/"+id, "", nil, &v)
	if v.Result != "draw" || v.Reason != "agreed" {
		t.Fatalf("server after the draw: %s (%s)", v.Result, v.Reason)
	}

	// A correspondence game (1 day a turn) ended by its time limit.
	id = s.clockGame(ada, bob, "corr:1", false)
	s.waitJS(ada, `document.querySelector("#clock-rule").textContent.includes("1 day a turn")`, 10*time.Second)
	s.playTurnIn(ada, id, "S")
	s.playTurnIn(bob, id, "N")
	s.waitJS(ada, `document.querySelector('#clocks .clock.running[data-side="S"] .clock-time').textContent.includes("h")`, 10*time.Second)
	s.shot(ada, "desktop-correspondence")
	clock.Advance(24 * time.Hour)
	for _, c := range []context.Context{ada, bob} {
		s.waitJS(c, `!document.querySelector("#banner").classList.contains("hidden") && document.querySelector("#banner").textContent.includes("ran out of time")`, 15*time.Second)
	}
	s.api("GET", "/api/games/"+id, "", nil, &v)
	if v.Result != "N" || v.Reason != "time" {
		t.Fatalf("server after the correspondence day: %s (%s)", v.Result, v.Reason)
	}
}

// signUp creates the account name in the tab ctx from the sign-up page.
func (s *session) signUp(ctx context.Context, name string) {
	s.t.Helper()
	s.run(ctx, chromedp.Navigate(s.base+"/signup"))
	s.fill(ctx, `#signup button[type="submit"]`, "#name", name, "#password", "a good password", "#password2", "a good password")
	s.waitJS(ctx, `location.pathname === "/profile/`+name+`"`, 15*time.Second)
}

// clockGame creates, in creator's tab, an Nsolo game against a friend with
// time control tc (rated if asked) from the home page, and joins it in
// joiner's tab; it returns the game's id.
func (s *session) clockGame(creator, joiner context.Context, tc string, rated bool) string {
	s.t.Helper()
	s.run(creator,
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible(chromedp.CSS(`input[name="game"][value="nsolo"]`)),
		chromedp.Click(chromedp.CSS(`label[for="game-nsolo"]`)),
		chromedp.Click(chromedp.CSS(`input[name="opponent"][value="friend"] + span`)),
		chromedp.Click(chromedp.CSS(`input[name="side"][value="S"] + span`)),
	)
	// The home page draws its form again as it learns the presets: the
	// choices are checked again by script until the clock box shows.
	s.waitJS(creator, `(() => {
		for (const sel of ['input[name="opponent"][value="friend"]', 'input[name="side"][value="S"]']) {
			const r = document.querySelector(sel);
			if (!r.checked) r.click();
		}
		return !document.querySelector("#clock-box").classList.contains("hidden");
	})()`, 10*time.Second)
	s.run(creator, runJS(fmt.Sprintf(`(() => { const sel = document.querySelector("#time-control"); sel.value = %q; sel.dispatchEvent(new Event("change")); document.querySelector("#rated").checked = %v; })()`, tc, rated)))
	s.run(creator, chromedp.Click(chromedp.ID("#start")))
	s.waitJS(creator, `location.pathname.startsWith("/game/") && document.querySelector("#board svg") && document.querySelector("#invite-url").value`, 15*time.Second)
	id := js[string](s, creator, `location.pathname.split("/")[2]`)
	invite := js[string](s, creator, `document.querySelector("#invite-url").value`)
	s.run(joiner, chromedp.Navigate(invite))
	s.waitJS(joiner, `!document.querySelector("#join-form").classList.contains("hidden")`, 10*time.Second)
	s.run(joiner, runJS(`document.querySelector("#join-btn").click()`))
	s.waitJS(joiner, `location.pathname === "/game/`+id+`" && document.querySelector("#mode").textContent === "you play North"`, 15*time.Second)
	s.run(creator, setSpeed("instant"))
	s.run(joiner, setSpeed("instant"))
	return id
}

// playTurnIn plays side's whole turn of game id in the tab ctx, clicking
// the first legal hole or choice at each decision, until the server says
// it is the other side's decision or the game is over.
func (s *session) playTurnIn(ctx context.Context, id, side string) {
	s.t.Helper()
	deadline := time.Now().Add(slack * 30 * time.Second)
	for {
		var v gameView
		s.api("GET", "/api/games/"+id, "", nil, &v)
		if v.Status != "playing" || v.ToMove != side {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("game %s: %s's turn did not end", id, side)
		}
		s.waitJS(ctx, gameState+` === "act" && Number(document.body.dataset.ply) === `+fmt.Sprint(v.Ply), 15*time.Second)
		if buttons := js[[]string](s, ctx, `[...document.querySelectorAll("#prompt.active button[data-action]")].map(b => b.dataset.action)`); len(buttons) > 0 {
			s.run(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#prompt button[data-action=%q]`, buttons[0]))))
		} else if holes := s.legalHoles(ctx); len(holes) > 0 {
			s.run(ctx, clickHole(holes[0]))
		}
		s.waitJS(ctx, `Number(document.body.dataset.ply) > `+fmt.Sprint(v.Ply)+` || `+gameState+` === "over"`, 15*time.Second)
	}
}
