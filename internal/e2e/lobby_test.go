package e2e

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The lobby's phone: the cheap phone the pages are made for first.
const lobbyPhoneW, lobbyPhoneH = 360, 740

// TestLobbyBrowser: two players sign up; one posts a rated challenge in the
// lobby, the other (on a 360×740 phone) sees it live and accepts it; both
// land on the game, each in their seat; each sees the other connected,
// "your turn" follows the turn in the tab's title, a move and a quick
// message cross, and the opponent leaving shows.
func TestLobbyBrowser(t *testing.T) {
	s := newSession(t)
	ada := s.tab("lobby-ada", desktopW, desktopH)
	bob := s.tab("lobby-bob", lobbyPhoneW, lobbyPhoneH)
	s.signUp(ada, "Ada")
	s.signUp(bob, "Bob")

	for _, ctx := range []context.Context{ada, bob} {
		s.run(ctx, chromedp.Navigate(s.base+"/lobby"))
		s.waitJS(ctx, `document.body.dataset.ready === "1" && document.body.dataset.live === "1" && document.querySelectorAll("#post-ruleset option").length >= 5`, 15*time.Second)
	}
	if got := s.text(ada, "#lobby-who"); got != "You play as Ada." {
		t.Errorf("ada's lobby says %q", got)
	}
	// Ada posts a rated Tsoro challenge at 5+3, playing South.
	s.run(ada, runJS(`(() => {
		const set = (sel, v) => { const e = document.querySelector(sel); e.value = v; e.dispatchEvent(new Event("change")); };
		set("#post-ruleset", "tsoro"); set("#post-side", "S"); set("#post-tc", "5+3");
		document.querySelector("#post-rated").checked = true;
		document.querySelector("#post-go").click();
	})()`))
	s.waitJS(ada, `!!document.querySelector("#challenges li.mine [data-cancel]")`, 10*time.Second)
	id := js[string](s, ada, `document.querySelector("#challenges li.mine").dataset.id`)
	// Bob sees it live, rated, from Ada, and accepts.
	s.waitJS(bob, `!!document.querySelector('#challenges li[data-id="`+id+`"] [data-accept]')`, 10*time.Second)
	if got := s.text(bob, `#challenges li[data-id="`+id+`"]`); !contains(got, "Ada", "rated", "Tsoro", "5+3", "you play North") {
		t.Errorf("bob's lobby shows %q", got)
	}
	s.shot(bob, "phone-lobby")
	s.run(bob, darkMode(true))
	s.shot(bob, "phone-lobby-dark")
	s.run(bob, darkMode(false))
	s.shot(ada, "desktop-lobby")
	s.clickThere(bob, `#challenges li[data-id="`+id+`"] [data-accept]`)

	// Both land on the game: Ada by her challenge's key, Bob by his token.
	for _, p := range []struct {
		ctx  context.Context
		seat string
	}{{ada, "you play South"}, {bob, "you play North"}} {
		s.waitJS(p.ctx, `location.pathname.startsWith("/game/") && document.querySelector("#mode").textContent === `+strconv.Quote(p.seat), 20*time.Second)
	}
	game := js[string](s, ada, `location.pathname.split("/")[2]`)
	if other := js[string](s, bob, `location.pathname.split("/")[2]`); other != game {
		t.Fatalf("ada is in game %s, bob in %s", game, other)
	}
	// Each sees the other connected; the title says whose turn it is.
	for _, ctx := range []context.Context{ada, bob} {
		s.waitJS(ctx, `document.body.dataset.opponent === "Your opponent is connected." && document.querySelectorAll('.seat[data-presence="on"]').length === 2`, 15*time.Second)
	}
	s.waitJS(ada, `document.title.startsWith("Your turn · ") && `+gameState+` === "act"`, 10*time.Second)
	if title := js[string](s, bob, `document.title`); len(title) >= 9 && title[:9] == "Your turn" {
		t.Errorf("bob's title %q says his turn while ada moves", title)
	}
	s.shot(bob, "phone-game-presence")

	// Ada plays her turn (a Tsoro turn may take more than one decision);
	// the turn, and the title, go to Bob.
	for range 12 {
		ply := js[string](s, ada, `document.body.dataset.ply`)
		if holes := s.legalHoles(ada); len(holes) > 0 {
			s.run(ada, clickHole(holes[0]))
		} else {
			s.run(ada, runJS(`document.querySelector("#prompt.active button[data-action]").click()`))
		}
		s.waitJS(ada, `document.body.dataset.ply !== `+strconv.Quote(ply)+` && (`+gameState+` !== "wait" || !document.querySelector("#prompt .busy"))`, 15*time.Second)
		if js[string](s, ada, gameState) != "act" {
			break
		}
	}
	s.waitJS(bob, `document.title.startsWith("Your turn · ") && `+gameState+` === "act"`, 15*time.Second)
	s.waitJS(ada, `!document.title.startsWith("Your turn")`, 15*time.Second)

	// A quick message from the fixed list reaches Bob; the sound stays off.
	s.clickThere(ada, `[data-say="good_luck"]`)
	s.waitJS(bob, `[...document.querySelectorAll(".said li")].some(li => li.textContent === "Ada: Good luck")`, 10*time.Second)
	s.waitJS(ada, `[...document.querySelectorAll(".said li")].some(li => li.textContent === "You: Good luck")`, 10*time.Second)
	if js[bool](s, bob, `document.querySelector("#sound").checked || !!document.body.dataset.beeps`) {
		t.Error("the sound is on by default")
	}
	s.shot(ada, "desktop-game-presence")

	// Bob goes back to the lobby: Ada sees him leave.
	s.run(bob, chromedp.Navigate(s.base+"/lobby"))
	s.waitJS(ada, `document.body.dataset.opponent === "Your opponent is not connected." && document.querySelectorAll('.seat[data-presence="off"]').length === 1`, 15*time.Second)
}

// lobbyGame has creator post a challenge in the lobby (ruleset, time
// control tc, rated or not, creator playing South) and acceptor accept it
// there; both land in their seats of the new game, whose id it returns.
func (s *session) lobbyGame(creator, acceptor context.Context, ruleset, tc string, rated bool) string {
	s.t.Helper()
	for _, ctx := range []context.Context{creator, acceptor} {
		s.run(ctx, chromedp.Navigate(s.base+"/lobby"))
		s.waitJS(ctx, `document.body.dataset.ready === "1" && document.body.dataset.live === "1" && document.querySelectorAll("#post-ruleset option").length >= 5`, 15*time.Second)
	}
	s.run(creator, runJS(fmt.Sprintf(`(() => {
		const set = (sel, v) => { const e = document.querySelector(sel); e.value = v; e.dispatchEvent(new Event("change")); };
		set("#post-ruleset", %q); set("#post-side", "S"); set("#post-tc", %q);
		document.querySelector("#post-rated").checked = %v;
		document.querySelector("#post-go").click();
	})()`, ruleset, tc, rated)))
	s.waitJS(creator, `!!document.querySelector("#challenges li.mine [data-cancel]")`, 10*time.Second)
	id := js[string](s, creator, `document.querySelector("#challenges li.mine").dataset.id`)
	s.clickThere(acceptor, `#challenges li[data-id="`+id+`"] [data-accept]`)
	for _, p := range []struct {
		ctx  context.Context
		seat string
	}{{creator, "you play South"}, {acceptor, "you play North"}} {
		s.waitJS(p.ctx, `location.pathname.startsWith("/game/") && document.querySelector("#mode").textContent === `+strconv.Quote(p.seat), 20*time.Second)
	}
	game := js[string](s, creator, `location.pathname.split("/")[2]`)
	if other := js[string](s, acceptor, `location.pathname.split("/")[2]`); other != game {
		s.t.Fatalf("the challenge's creator is in game %s, its acceptor in %s", game, other)
	}
	s.run(creator, setSpeed("instant"))
	s.run(acceptor, setSpeed("instant"))
	return game
}
