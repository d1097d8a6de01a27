package e2e

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// Choro at its defaults (Driberg's readings, RULES.md §3.4): the
// simultaneous opening in the browser, against the computer, between two
// browsers and on one device, and the leave switch of a mid-turn decision.

// watchPromptTexts makes the page keep every text its prompt shows, in
// window.promptsSeen, so that a test can tell what was said even briefly.
const watchPromptTexts = `(() => { window.promptsSeen = []; const p = document.querySelector("#prompt");
	new MutationObserver(() => window.promptsSeen.push(p.textContent)).observe(p, {childList: true, characterData: true, subtree: true}); })()`

// sawPrompt reports whether the prompt showed text containing sub since watchPromptTexts.
func (s *session) sawPrompt(ctx context.Context, sub string) bool {
	return js[bool](s, ctx, fmt.Sprintf(`(window.promptsSeen || []).some(t => t.includes(%q))`, sub))
}

// moveRows reads the page's move list, a row a line: "1. a6|d3", "2... c4".
func (s *session) moveRows(ctx context.Context) []string {
	return js[[]string](s, ctx, `[...document.querySelectorAll("#moves tbody tr")].map(tr => [...tr.children].map(c => c.textContent.trim()).filter(Boolean).join(" "))`)
}

// lockstepSteps counts the steps the page drew with both players sowing.
func (s *session) lockstepSteps(ctx context.Context) int {
	return js[int](s, ctx, `Number(document.body.dataset.lockstepSteps || 0)`)
}

// checkOpened checks, once both openings are sown, that the page drew them
// in lockstep and that its move list is the server's: 1. x|y, then the main
// phase from move 2 ("2..." when North plays first).
func (s *session) checkOpened(ctx context.Context, name, id, south string) gameView {
	t := s.t
	s.waitJS(ctx, `(() => { const r = document.querySelector("#moves tbody tr"); return r && r.textContent.includes("|") && !r.textContent.includes("?") && !r.textContent.includes("…"); })()`, 20*time.Second)
	v := s.serverView(id)
	s.waitJS(ctx, fmt.Sprintf(`Number(document.body.dataset.ply || 0) === %d`, v.Ply), 10*time.Second)
	if len(v.Moves) == 0 || v.Moves[0].Side != "both" {
		t.Fatalf("%s: the server's moves %+v", name, v.Moves)
	}
	rows := s.moveRows(ctx)
	want := "1. " + v.Moves[0].Text
	if len(rows) == 0 || rows[0] != want || (south != "" && !strings.HasPrefix(v.Moves[0].Text, south+"|")) {
		t.Fatalf("%s: the move list starts %q, want %q (South chose %s)", name, rows, want, south)
	}
	if len(v.Moves) > 1 {
		label := map[string]string{"S": "2. ", "N": "2... "}[v.Moves[1].Side]
		if len(rows) < 2 || !strings.HasPrefix(rows[1], label+v.Moves[1].Text) {
			t.Errorf("%s: the move list's second row %q, the server's move 2 %+v", name, rows, v.Moves[1])
		}
	}
	if n := s.lockstepSteps(ctx); n == 0 {
		t.Errorf("%s: the openings were not drawn in lockstep (no step with both players sowing)", name)
	}
	s.noDesync(ctx, name)
	return v
}

// choroOpeningAI plays the simultaneous opening against the computer, once
// as South (who waits for the computer's choice) and once as North (who
// chooses after the computer's hidden choice).
func choroOpeningAI(s *session) {
	t := s.t
	ctx := s.tab("choro-ai", desktopW, desktopH)
	id := s.newGame(ctx, "choro", nil, "ai", "1", "S")
	if rs := s.text(ctx, "#ruleset"); rs != "choro" {
		t.Fatalf("the form's default Choro is %q, want Driberg's: choro", rs)
	}
	s.waitJS(ctx, gameState+` === "act"`, 10*time.Second)
	if p := s.text(ctx, "#prompt"); !strings.Contains(p, "Choose your opening hole") {
		t.Fatalf("South's opening prompt says %q", p)
	}
	if holes := s.legalHoles(ctx); strings.Join(holes, " ") != "a1 a2 a3 a4 a5 a6 a7 a8" {
		t.Fatalf("South may open from %v", holes)
	}
	s.run(ctx, setSpeed("fast"), runJS(watchPromptTexts), clickHole("a6"))
	v := s.checkOpened(ctx, "against the computer, as South", id, "a6")
	// The computer may choose before the page has drawn South's answer;
	// the wait is checked where it is sure to last, between friends.
	if !s.sawPrompt(ctx, "Waiting for your opponent's choice") {
		t.Logf("the computer chose before the page showed South the wait")
	}
	t.Logf("game %s: %v, %s to move", id, v.Moves, v.ToMove)
	s.shot(ctx, "desktop-choro-opened")

	// As North: the computer (South) has chosen, unseen.
	id = s.newGame(ctx, "choro", nil, "ai", "1", "N")
	s.waitJS(ctx, gameState+` === "act"`, 15*time.Second)
	if p := s.text(ctx, "#prompt"); !strings.Contains(p, "South has chosen; choose your opening") {
		t.Fatalf("North's opening prompt says %q", p)
	}
	if rows := s.moveRows(ctx); strings.Join(rows, " ") != "1. ?|…" {
		t.Fatalf("North's move list shows %q before North's choice", rows)
	}
	holes := s.legalHoles(ctx)
	if len(holes) != 8 || !strings.HasPrefix(holes[0], "d") {
		t.Fatalf("North may open from %v", holes)
	}
	s.shot(ctx, "desktop-choro-north-chooses")
	s.run(ctx, setSpeed("fast"), clickHole("d3"))
	v = s.checkOpened(ctx, "against the computer, as North", id, "")
	if !strings.HasSuffix(v.Moves[0].Text, "|d3") {
		t.Errorf("North chose d3, the server wrote %q", v.Moves[0].Text)
	}
}

// choroOpeningFriends plays the simultaneous opening between two browsers:
// North waits while South chooses; South waits while North chooses, and
// North never sees South's hole until both openings are sown together.
func choroOpeningFriends(s *session) {
	t := s.t
	alice := s.tab("choro-alice", desktopW, desktopH)
	id := s.newGame(alice, "choro", nil, "friend", "", "S")
	s.waitJS(alice, `document.querySelector("#invite-url").value`, 10*time.Second)
	invite := js[string](s, alice, `document.querySelector("#invite-url").value`)
	bob := s.tab("choro-bob", phoneW, phoneH)
	s.run(bob, chromedp.Navigate(invite))
	s.waitJS(bob, `!document.querySelector("#join-form").classList.contains("hidden")`, 10*time.Second)
	s.run(bob, chromedp.Click(chromedp.ID("#join-btn")))
	s.waitJS(bob, `location.pathname === "/game/`+id+`" && document.querySelector("#conn").textContent === "live"`, 10*time.Second)
	s.waitJS(alice, `document.querySelector("#conn").textContent === "live" && document.querySelector("#invite-text").textContent.includes("has joined")`, 10*time.Second)
	for _, c := range []context.Context{alice, bob} {
		s.run(c, setSpeed("fast"), runJS(watchPromptTexts))
	}
	// North waits for South's choice, South's seat waits for nobody.
	s.waitJS(bob, `document.querySelector("#prompt").textContent.includes("Waiting for your opponent's choice")`, 10*time.Second)

	s.waitJS(alice, gameState+` === "act"`, 10*time.Second)
	s.run(alice, clickHole("a5"))
	s.waitJS(alice, `document.querySelector("#prompt").textContent.includes("You chose a5. Waiting for your opponent's choice")`, 10*time.Second)
	if rows := s.moveRows(alice); strings.Join(rows, " ") != "1. a5|…" {
		t.Errorf("South's move list shows %q while North chooses", rows)
	}
	s.waitJS(bob, gameState+` === "act" && document.querySelector("#prompt").textContent.includes("South has chosen; choose your opening")`, 10*time.Second)
	shown := s.text(bob, "#prompt") + " " + s.text(bob, "#moves")
	if rows := s.moveRows(bob); strings.Join(rows, " ") != "1. ?|…" || strings.Contains(shown, "a5") {
		t.Fatalf("North sees %q (move list %q) before choosing: South's choice shows", shown, rows)
	}
	if n := js[int](s, bob, `document.querySelectorAll("#board g.hole.last-from, #board g.hole.last-to").length`); n != 0 {
		t.Errorf("North's board marks %d holes as the last move before North's choice", n)
	}
	s.shot(alice, "desktop-choro-south-waits")
	s.shot(bob, "phone-choro-north-chooses")

	s.run(bob, clickHole("d4"))
	va := s.checkOpened(alice, "friends, South", id, "a5")
	vb := s.checkOpened(bob, "friends, North", id, "a5")
	if va.Moves[0].Text != "a5|d4" || vb.Moves[0].Text != "a5|d4" {
		t.Errorf("the opening is written %q and %q, want a5|d4", va.Moves[0].Text, vb.Moves[0].Text)
	}
}

// choroPassDevice plays the simultaneous opening on one device: after
// South's choice a screen asks to pass the device to North and hides the
// board until North says so.
func choroPassDevice(s *session) {
	t := s.t
	ctx := s.tab("choro-local", desktopW, desktopH)
	id := s.newGame(ctx, "choro", nil, "local", "", "")
	s.waitJS(ctx, gameState+` === "act"`, 10*time.Second)
	if p := s.text(ctx, "#prompt"); !strings.Contains(p, "South: choose your opening hole") {
		t.Fatalf("South's prompt on one device says %q", p)
	}
	s.run(ctx, setSpeed("fast"), clickHole("a4"))
	s.waitJS(ctx, gameState+` === "pass"`, 10*time.Second)
	if !js[bool](s, ctx, `(() => { const p = document.querySelector(".pass-screen"); const r = p.getBoundingClientRect(), b = document.querySelector("#board svg").getBoundingClientRect();
		return getComputedStyle(p).display !== "none" && r.top <= b.top && r.bottom >= b.bottom && r.left <= b.left && r.right >= b.right; })()`) {
		t.Fatal("the pass-the-device screen does not cover the board")
	}
	if p := s.text(ctx, ".pass-screen"); !strings.Contains(p, "Pass the device to North") {
		t.Fatalf("the pass screen says %q", p)
	}
	if rows := s.moveRows(ctx); strings.Join(rows, " ") != "1. ?|…" {
		t.Fatalf("the move list shows %q behind the pass screen", rows)
	}
	if p := s.text(ctx, "#prompt"); strings.Contains(p, "a4") {
		t.Fatalf("the prompt shows South's choice: %q", p)
	}
	s.shot(ctx, "desktop-choro-pass-device")
	// Nothing can be played behind the screen.
	s.tryClick(ctx, `#board g.hole[data-hole="d2"]`)
	time.Sleep(300 * time.Millisecond)
	if v := s.serverView(id); v.Ply != 1 {
		t.Fatalf("a click behind the pass screen played: ply %d", v.Ply)
	}
	s.run(ctx, chromedp.Click(chromedp.ID("#pass-ready")))
	s.waitJS(ctx, gameState+` === "act" && document.querySelector("#prompt").textContent.includes("North: South has chosen; choose your opening hole")`, 10*time.Second)
	s.run(ctx, clickHole("d2"))
	v := s.checkOpened(ctx, "one device", id, "a4")
	if v.Moves[0].Text != "a4|d2" {
		t.Errorf("the opening is written %q, want a4|d2", v.Moves[0].Text)
	}
}

// serverView reads game id from the server.
func (s *session) serverView(id string) gameView {
	var v gameView
	s.api("GET", "/api/games/"+id, "", nil, &v)
	return v
}

// choroLeave plays, on one device from a position of Choro at its
// defaults, a clockwise capture from c7, then the leave switch (the L key:
// leave the stones in c7 and sow d8 clockwise), then another hole instead
// of the captured stones; the prompt offers each legal action plainly.
func choroLeave(s *session) {
	t := s.t
	ctx := s.tab("choro-leave", desktopW, desktopH)
	const pos = "3,0,2,1,1,2,1,3/8,0,0,3,7,3,6,3/3,1,2,2,0,1,0,0/3,3,2,0,2,2,0,0 N"
	s.run(ctx, chromedp.Navigate(s.base+"/?"+url.Values{"ruleset": {"choro"}, "pos": {pos}}.Encode()),
		chromedp.WaitVisible(chromedp.CSS(`#from-preview svg`)),
		chromedp.Click(chromedp.CSS(`input[name="opponent"][value="local"] + span`)),
		chromedp.Click(chromedp.ID("#start")))
	s.waitJS(ctx, `location.pathname.startsWith("/game/") && document.querySelector("#board svg")`, 15*time.Second)
	id := js[string](s, ctx, `location.pathname.split("/")[2]`)
	s.run(ctx, setSpeed("instant"))
	play := func(action string, do func()) gameView {
		t.Helper()
		before := s.synced(ctx, id)
		do()
		deadline := time.Now().Add(slack * 5 * time.Second)
		for {
			v := s.serverView(id)
			if played := slices.Concat(v.Turns...); len(played) > len(slices.Concat(before.Turns...)) {
				if got := played[len(played)-1]; got != action {
					t.Fatalf("the server recorded %s, want %s", got, action)
				}
				return s.synced(ctx, id)
			}
			if time.Now().After(deadline) {
				t.Fatalf("the server did not record %s", action)
			}
			time.Sleep(30 * time.Millisecond)
		}
	}
	v := play("c7cw", func() {
		s.run(ctx, clickHole("c7"))
		s.waitJS(ctx, `!!document.querySelector("#prompt.active button[data-action='c7cw']")`, 5*time.Second)
		s.run(ctx, clickChoice("c7cw"))
	})
	if v.Decision != "direction" || !slices.Contains(v.Legal, "d8cw") {
		t.Fatalf("after c7cw the server asks %s with %v; the position was chosen for a leave switch", v.Decision, v.Legal)
	}
	prompt := s.text(ctx, "#prompt")
	if !strings.Contains(prompt, "The next lap starts from c7") || !strings.Contains(prompt, "leave the stones in c7 and sow d8 clockwise") {
		t.Fatalf("the direction prompt with a leave switch says %q", prompt)
	}
	s.checkButtons(ctx, v)
	s.shot(ctx, "desktop-choro-leave")
	v = play("d8cw", func() { s.run(ctx, chromedp.KeyEvent("l")) })
	if v.Decision != "direction" {
		t.Fatalf("after the switch d8cw the server asks %s with %v", v.Decision, v.Legal)
	}
	s.checkButtons(ctx, v)
	others := js[[]string](s, ctx, `[...document.querySelectorAll("#prompt.active button[data-action]")].filter(b => b.textContent.includes("instead")).map(b => b.dataset.action)`)
	if !slices.Contains(others, "c7") {
		t.Fatalf("after leaving stones in c7, the prompt offers no other hole with c7: %v (legal %v)", others, v.Legal)
	}
	if prompt := s.text(ctx, "#prompt"); !strings.Contains(prompt, "The next lap starts from d8") || !strings.Contains(prompt, "another hole of yours anticlockwise instead") {
		t.Fatalf("the prompt after the switch says %q", prompt)
	}
	s.shot(ctx, "desktop-choro-other-hole")
	play("c7", func() { s.run(ctx, clickChoice("c7")) })
	s.noDesync(ctx, "choro leave")
}

// checkButtons checks that a Choro mid-turn prompt has a button for each
// legal action of the server, and no other.
func (s *session) checkButtons(ctx context.Context, v gameView) {
	s.t.Helper()
	got := js[[]string](s, ctx, `[...document.querySelectorAll("#prompt.active button[data-action]")].map(b => b.dataset.action)`)
	slices.Sort(got)
	want := slices.Clone(v.Legal)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		s.t.Fatalf("the prompt offers %v, the server allows %v", got, want)
	}
}

// choroImportOld imports a record of the old Choro (the DLP's reading)
// under a plain choro header: the server refuses it with a suggested
// ruleset, and the import box's one-click retry imports it under that.
func choroImportOld(s *session) {
	t := s.t
	const dlp = "choro opening=sequential cw=any leave=no"
	_, v := s.playLocal(dlp, 12)
	old := strings.Replace(v.Record, `[Ruleset "`+dlp+`"]`, `[Ruleset "choro"]`, 1)
	if old == v.Record {
		t.Fatalf("the record has no Ruleset header to rewrite: %q", v.Record)
	}
	ctx := s.tab("choro-import", desktopW, desktopH)
	s.run(ctx, chromedp.Navigate(s.base+"/archive"),
		chromedp.WaitVisible(chromedp.ID("#record")),
		chromedp.SetValue(chromedp.ID("#record"), old),
		chromedp.Click(chromedp.CSS(`#import button[type="submit"]`)))
	s.waitJS(ctx, `!!document.querySelector("#import-as")`, 10*time.Second)
	if msg := s.text(ctx, "#import-error"); !strings.Contains(msg, "DLP reading") || !strings.Contains(msg, dlp) {
		t.Fatalf("the import box says %q", msg)
	}
	if label := s.text(ctx, "#import-as"); label != "Import as the DLP reading" {
		t.Fatalf("the retry button says %q", label)
	}
	s.shot(ctx, "desktop-import-dlp")
	s.run(ctx, chromedp.Click(chromedp.ID("#import-as")))
	s.waitJS(ctx, `document.querySelector("#import-done a")`, 10*time.Second)
	if done := s.text(ctx, "#import-done"); !strings.Contains(done, "Imported as "+dlp) {
		t.Fatalf("after the retry the import box says %q", done)
	}
	href := js[string](s, ctx, `document.querySelector("#import-done a").getAttribute("href")`)
	id := strings.TrimPrefix(href, "/replay/")
	got := s.serverView(id)
	if got.Ruleset != dlp || got.Ply != v.Ply || got.Position != v.Position {
		t.Fatalf("the imported game: %q at ply %d, %q; the record's game: %q at ply %d, %q", got.Ruleset, got.Ply, got.Position, dlp, v.Ply, v.Position)
	}
}
