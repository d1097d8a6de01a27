package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAccountsBrowser: a player signs up, logs out and in again, creates a
// game and finds it on the profile; in another browser, logged in, the
// profile opens the game with the account's seat; the ratings page shows.
func TestAccountsBrowser(t *testing.T) {
	s := newSession(t)
	ada := s.tab("ada", desktopW, desktopH)
	// Sign up from the top bar's log-in link.
	// The top bar's account link is redrawn once the page knows who is
	// logged in, so it is clicked by script once it is there (a node found
	// before the redraw would be gone).
	s.run(ada, chromedp.Navigate(s.base+"/"))
	s.waitJS(ada, `!!document.querySelector('.topbar a[href="/login"]')`, 10*time.Second)
	s.run(ada, runJS(`document.querySelector('.topbar a[href="/login"]').click()`))
	s.waitJS(ada, `location.pathname === "/login" && document.querySelector('a[href="/signup"]')`, 10*time.Second)
	s.run(ada, runJS(`document.querySelector('#login a[href="/signup"]').click()`))
	s.waitJS(ada, `location.pathname === "/signup" && document.querySelector("#password2")`, 10*time.Second)
	s.fill(ada, `#signup button[type="submit"]`, "#name", "Ada", "#password", "a good password", "#password2", "a good password")
	s.waitJS(ada, `location.pathname === "/profile/Ada" && document.querySelector("#title").textContent === "Ada" && !document.querySelector("#own-box").classList.contains("hidden")`, 15*time.Second)
	if sessionInJS := js[bool](s, ada, `document.cookie.includes("matombo_session")`); sessionInJS {
		t.Error("the session cookie is readable by the page's scripts (not HttpOnly)")
	}
	// Log out, and in again with a wrong then the right password.
	s.clickThere(ada, "#logout")
	s.waitJS(ada, `location.pathname === "/login" && !document.querySelector("#login-box").classList.contains("hidden")`, 10*time.Second)
	s.fill(ada, `#login button[type="submit"]`, "#name", "ada", "#password", "a bad password")
	s.waitJS(ada, `document.querySelector("#login-error").textContent === "Wrong user name or password."`, 15*time.Second)
	s.fill(ada, `#login button[type="submit"]`, "#password", "a good password")
	s.waitJS(ada, `location.pathname === "/profile/Ada"`, 15*time.Second)

	// A game created from the home page, logged in, is on the profile.
	id := s.newGame(ada, "nsolo", nil, "friend", "", "N")
	s.run(ada, chromedp.Navigate(s.base+"/profile/Ada"))
	s.waitJS(ada, `document.querySelector('#games tr[data-game="`+id+`"]') && document.querySelector("#results tbody td")`, 15*time.Second)
	if got := s.text(ada, "#results tbody tr"); got == "" {
		t.Error("no results per ruleset")
	}
	if got := s.text(ada, `#games tr[data-game="`+id+`"]`); !contains(got, "as North", "In play") {
		t.Errorf("the profile's game row says %q", got)
	}
	s.shot(ada, "desktop-profile")

	// Another browser, logged in as Ada, plays the game with the
	// account's seat: no link needed.
	other := s.tab("ada-elsewhere", desktopW, desktopH)
	s.run(other, chromedp.Navigate(s.base+"/login"))
	s.fill(other, `#login button[type="submit"]`, "#name", "ada", "#password", "a good password")
	s.waitJS(other, `location.pathname === "/profile/Ada" && document.querySelector('#games tr[data-game="`+id+`"] button')`, 15*time.Second)
	s.clickThere(other, `#games tr[data-game="`+id+`"] button`)
	s.waitJS(other, `location.pathname === "/game/`+id+`" && document.querySelector("#mode") && document.querySelector("#mode").textContent === "you play North"`, 15*time.Second)
	// And the game's own address, opened logged in, seats the account too.
	third := s.tab("ada-third", desktopW, desktopH)
	s.run(third, chromedp.Navigate(s.base+"/login"))
	s.fill(third, `#login button[type="submit"]`, "#name", "ada", "#password", "a good password")
	s.waitJS(third, `location.pathname === "/profile/Ada"`, 15*time.Second)
	s.run(third, chromedp.Navigate(s.base+"/game/"+id))
	s.waitJS(third, `document.querySelector("#mode") && document.querySelector("#mode").textContent === "you play North"`, 15*time.Second)

	// A stranger sees the profile without the account's controls, and the
	// ratings page lists the presets.
	eve := s.tab("eve", desktopW, desktopH)
	s.run(eve, chromedp.Navigate(s.base+"/profile/ada"))
	s.waitJS(eve, `document.querySelector("#title").textContent === "Ada" && document.querySelector('#games tr[data-game="`+id+`"]')`, 15*time.Second)
	if js[bool](s, eve, `!document.querySelector("#own-box").classList.contains("hidden") || !!document.querySelector("#games button")`) {
		t.Error("a stranger sees the account's controls")
	}
	// A player who does not exist: the reason, without the empty tables
	// (and the empty history menu) of a profile.
	s.run(eve, chromedp.Navigate(s.base+"/profile/nobody"))
	s.waitJS(eve, `document.querySelector("#profile-error").textContent.length > 0`, 15*time.Second)
	if n := js[int](s, eve, `[...document.querySelectorAll("main section")].filter(e => e.offsetParent !== null).length`); n != 0 {
		t.Errorf("the profile of a missing player shows %d empty sections beside %q", n, s.text(eve, "#profile-error"))
	}
	s.run(eve, chromedp.Navigate(s.base+"/leaderboard"))
	s.waitJS(eve, `document.querySelectorAll("#preset option").length >= 5 && document.querySelector("#board tbody td")`, 15*time.Second)
}

// contains reports whether s holds every one of words.
func contains(s string, words ...string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// clickThere clicks the element sel by script once it is there: the
// account pages redraw parts of themselves when they learn who is logged
// in, so a node found before a redraw may be gone by the click.
func (s *session) clickThere(ctx context.Context, sel string) {
	s.t.Helper()
	q := strconv.Quote(sel)
	s.waitJS(ctx, `!!document.querySelector(`+q+`)`, 10*time.Second)
	s.run(ctx, runJS(`document.querySelector(`+q+`).click()`))
}

// fill sets the form fields (selector, value, …) by script once they are
// there, as a person typing would (an input event each), and clicks submit.
func (s *session) fill(ctx context.Context, submit string, fields ...string) {
	s.t.Helper()
	// The page's script handles the form once it has marked it ready.
	s.waitJS(ctx, `!!document.querySelector(`+strconv.Quote(submit)+`) && document.querySelector(`+strconv.Quote(submit)+`).form.dataset.ready === "true"`, 10*time.Second)
	var js strings.Builder
	for i := 0; i+1 < len(fields); i += 2 {
		q := strconv.Quote(fields[i])
		s.waitJS(ctx, `!!document.querySelector(`+q+`)`, 10*time.Second)
		fmt.Fprintf(&js, "{ const e = document.querySelector(%s); e.value = %s; e.dispatchEvent(new Event('input', {bubbles: true})); }\n", q, strconv.Quote(fields[i+1]))
	}
	s.run(ctx, runJS(js.String()))
	s.clickThere(ctx, submit)
}
