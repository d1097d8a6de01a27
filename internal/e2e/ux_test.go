package e2e

import (
	"encoding/json"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// playLocalFrom stores a game on one device that starts from position and
// plays the first legal action n times through the API.
func (s *session) playLocalFrom(ruleset, position string, n int) (string, gameView) {
	s.t.Helper()
	var c created
	body := map[string]any{"ruleset": ruleset, "opponent": "local", "position": position}
	if code := s.api("POST", "/api/games", "", body, &c); code != 201 {
		s.t.Fatalf("create a local game from %q: status %d", position, code)
	}
	var v gameView
	s.api("GET", "/api/games/"+c.ID, "", nil, &v)
	for i := 0; i < n && v.Status == "playing"; i++ {
		var res struct {
			Game gameView `json:"game"`
		}
		if code := s.api("POST", "/api/games/"+c.ID+"/actions", c.Tokens[v.ToMove], map[string]any{"action": v.Legal[0], "ply": v.Ply}, &res); code != 200 {
			s.t.Fatalf("action %s: status %d", v.Legal[0], code)
		}
		v = res.Game
	}
	return c.ID, v
}

// movesRows reads the move list of the page: per row, the number and the
// South and North cells.
const movesRows = `[...document.querySelectorAll("#moves tbody tr")].map(tr => [...tr.children].map(c => c.textContent.trim()))`

// moveListNorthFirst: in a game started from a position with North to
// move, the game page's move list and the replay's put North's turns in
// North's column, the first row reading "1. (empty) North's turn".
func moveListNorthFirst(s *session) {
	t := s.t
	const ruleset = "tsoro size=6 heads=none bonus=3"
	start := "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 N"
	id, v := s.playLocalFrom(ruleset, start, 3)
	if len(v.Turns) < 2 {
		t.Fatalf("only %d turns played", len(v.Turns))
	}
	want := func(rows [][]string) {
		t.Helper()
		if len(rows) < 2 || len(rows[0]) != 3 || len(rows[1]) != 3 {
			t.Fatalf("move list rows %q", rows)
		}
		north0, south1 := strings.Join(v.Turns[0], ","), strings.Join(v.Turns[1], ",")
		if rows[0][0] != "1..." || rows[0][1] != "" || rows[0][2] != north0 || rows[1][0] != "2." || rows[1][1] != south1 {
			t.Errorf("move list %q; want [1... \"\" %s] [2. %s …]", rows, north0, south1)
		}
	}
	ctx := s.tab("north-first", desktopW, desktopH)
	s.run(ctx, chromedp.Navigate(s.base+"/game/"+id))
	s.waitJS(ctx, `document.querySelectorAll("#moves tbody tr").length >= 2`, 10*time.Second)
	want(js[[][]string](s, ctx, movesRows))
	// A click on a move opens the replay at the end of that turn in the
	// same tab (no window.open, no target=_blank).
	s.run(ctx, runJS(`window.opened = 0; window.open = () => { window.opened++; return null; }`))
	if blank := js[int](s, ctx, `document.querySelectorAll('#moves a[target]').length`); blank != 0 {
		t.Errorf("%d moves open in another tab", blank)
	}
	ply := len(v.Turns[0])
	s.run(ctx, chromedp.Click(chromedp.CSS(`#moves a[data-turn="0"]`)))
	s.waitJS(ctx, `location.pathname === "/replay/`+id+`" && location.search === "?ply=`+strconv.Itoa(ply)+`" && document.querySelector("#player output") && document.querySelector("#player output").textContent.startsWith("`+strconv.Itoa(ply)+` /")`, 10*time.Second)

	s.run(ctx, chromedp.Navigate(s.base+"/replay/"+id))
	s.waitJS(ctx, `document.querySelector("#player output") && document.querySelectorAll("#moves tbody tr").length >= 2`, 10*time.Second)
	want(js[[][]string](s, ctx, movesRows))
	// Stepping highlights North's first turn in North's column.
	s.run(ctx, chromedp.Click(chromedp.CSS(`button[aria-label="Next action"]`)))
	s.waitJS(ctx, `document.querySelector("#moves td.last")`, 5*time.Second)
	if col := js[int](s, ctx, `[...document.querySelector("#moves td.last").parentElement.children].indexOf(document.querySelector("#moves td.last"))`); col != 2 {
		t.Errorf("North's first turn is highlighted in column %d, want 2 (North's)", col)
	}
	if p := s.text(ctx, "#moves p, #moves table"); strings.Contains(p, "South moves first") {
		t.Errorf("the move list says %q", p)
	}
}

// seatsAndBanners: an open seat says so, a spectator's result banner has
// the replay and a new game (no "null", no rematch), a game that does not
// exist does not say "connecting…", an imported record gets no "live"
// badge, one stone is "1 stone", and the page says "Computer", never "AI".
func seatsAndBanners(s *session) {
	t := s.t
	var c created
	if code := s.api("POST", "/api/games", "", map[string]any{"ruleset": "tsoro size=6", "opponent": "friend", "side": "S"}, &c); code != 201 {
		t.Fatalf("create a friend game: status %d", code)
	}
	eve := s.tab("seats-spectator", desktopW, desktopH)
	s.run(eve, chromedp.Navigate(s.base+"/game/"+c.ID))
	s.waitJS(eve, `document.querySelector("#seat-top .muted") && document.querySelector("#conn").textContent === "live"`, 10*time.Second)
	if north := s.text(eve, "#seat-top"); !strings.Contains(north, "waiting for a player") || strings.Contains(north, "Player") {
		t.Errorf("North's open seat reads %q", north)
	}
	// South resigns: the spectator's banner.
	var res any
	if code := s.api("POST", "/api/games/"+c.ID+"/resign", c.Token, map[string]any{}, &res); code != 200 {
		t.Fatalf("resign: status %d", code)
	}
	s.waitJS(eve, `!document.querySelector("#banner").classList.contains("hidden")`, 10*time.Second)
	banner := s.text(eve, "#banner")
	buttons := js[[]string](s, eve, `[...document.querySelectorAll("#banner a, #banner button")].map(b => b.textContent)`)
	if strings.Contains(banner, "null") || strings.Join(buttons, "|") != "Replay|Review this game|New game" {
		t.Errorf("the spectator's banner reads %q with the buttons %q", banner, buttons)
	}

	// A game that does not exist.
	s.run(eve, chromedp.Navigate(s.base+"/game/nosuchgame"))
	s.waitJS(eve, `document.querySelector("#title").textContent === "Game not found"`, 10*time.Second)
	time.Sleep(300 * time.Millisecond)
	if js[bool](s, eve, `!document.querySelector("#conn").classList.contains("hidden") || document.querySelector("main").innerText.includes("connecting")`) {
		t.Errorf("the page of a missing game shows %q", js[string](s, eve, `document.querySelector("main").innerText.slice(0, 300)`))
	}

	// An imported record: no live badge, ever.
	var imp struct {
		ID string `json:"id"`
	}
	if code := s.api("POST", "/api/records", "", "[Ruleset \"tsoro size=8\"]\n[Result \"*\"]\n\n1. a3,stop d6,stop 2. a6", &imp); code != 201 && code != 200 {
		t.Fatalf("import: status %d", code)
	}
	s.run(eve, chromedp.Navigate(s.base+"/game/"+imp.ID))
	s.waitJS(eve, `document.querySelector("#mode").textContent === "imported record"`, 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	if js[bool](s, eve, `!document.querySelector("#conn").classList.contains("hidden") || document.querySelector("#conn").textContent === "live"`) {
		t.Errorf("an imported record's page shows the connection badge %q", s.text(eve, "#conn"))
	}

	// One stone.
	q := url.Values{"ruleset": {"tsoro size=6 heads=none"}, "pos": {"0,0,0,0,0,1/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 S"}}
	s.run(eve, chromedp.Navigate(s.base+"/position?"+q.Encode()))
	s.waitJS(eve, `document.querySelector("#seat-top .count")`, 10*time.Second)
	if n := s.text(eve, "#seat-top .count"); n != "1 stone" {
		t.Errorf("North's count reads %q", n)
	}

	// "Computer", not "AI", on the form and on a game against it.
	s.run(eve, chromedp.Navigate(s.base+"/"))
	s.waitJS(eve, `document.querySelector('input[name="game"]')`, 10*time.Second)
	if js[bool](s, eve, `/\bAI\b/.test(document.body.innerText)`) {
		t.Errorf("the home page says AI: %q", js[string](s, eve, `document.body.innerText.match(/.{0,40}\bAI\b.{0,40}/)[0]`))
	}
	var ai created
	if code := s.api("POST", "/api/games", "", map[string]any{"ruleset": "tsoro size=6", "opponent": "ai", "level": 2, "side": "N"}, &ai); code != 201 {
		t.Fatalf("create a game against the computer: status %d", code)
	}
	s.run(eve, chromedp.Navigate(s.base+"/game/"+ai.ID))
	s.waitJS(eve, `document.querySelector("#seat-bottom .muted")`, 10*time.Second)
	if south := s.text(eve, "#seat-bottom .muted"); south != "Computer · level 2" {
		t.Errorf("the computer's seat reads %q", south)
	}
	if js[bool](s, eve, `/\bAI\b/.test(document.body.innerText)`) {
		t.Errorf("the game page says AI: %q", js[string](s, eve, `document.body.innerText.match(/.{0,40}\bAI\b.{0,40}/)[0]`))
	}
	// On a 360 px phone each seat is one line: the side, who sits there and
	// the stone count do not wrap.
	phone := s.tab("seats-phone", 360, 740)
	s.run(phone, chromedp.Navigate(s.base+"/game/"+ai.ID))
	s.waitJS(phone, `document.querySelector("#seat-bottom .count") && document.querySelector("#seat-top .count")`, 10*time.Second)
	for _, seat := range []string{"#seat-top", "#seat-bottom"} {
		lines := js[[]int](s, phone, `[...document.querySelectorAll("`+seat+` span:not(.dot)")].map(e => e.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(e).fontSize) ? 2 : 1)`)
		for i, n := range lines {
			if n > 1 {
				t.Errorf("on a 360 px phone, part %d of %s (%q) wraps", i, seat, s.text(phone, seat))
			}
		}
	}
}

// topbarPhone: on a 360 px phone the language menu sits on the brand's
// row, right of it, and the links wrap below: the top bar takes two rows
// of links and the brand's, not a row for the menu alone.
func topbarPhone(s *session) {
	ctx := s.tab("topbar-phone", 360, 740)
	s.run(ctx, chromedp.Navigate(s.base+"/"))
	s.waitJS(ctx, `document.querySelector("#lang-menu")`, 10*time.Second)
	type box struct{ Top, Bottom, Left, Right float64 }
	b := js[struct{ Brand, Menu, Nav box }](s, ctx, `(() => {
		const r = (sel) => { const x = document.querySelector(sel).getBoundingClientRect(); return {Top: x.top, Bottom: x.bottom, Left: x.left, Right: x.right}; };
		return {Brand: r(".topbar .brand"), Menu: r("#lang-menu"), Nav: r(".topbar .nav")};
	})()`)
	if b.Menu.Top >= b.Brand.Bottom || b.Menu.Bottom <= b.Brand.Top || b.Menu.Left <= b.Brand.Right {
		s.t.Errorf("on a 360 px phone the language menu %+v is not on the brand's row %+v", b.Menu, b.Brand)
	}
	if b.Nav.Top < b.Brand.Bottom-1 || b.Menu.Right > 360 {
		s.t.Errorf("on a 360 px phone the links %+v are not below the brand %+v (menu %+v)", b.Nav, b.Brand, b.Menu)
	}
	s.shot(ctx, "topbar-360")
}

// ratedBox: the home form offers "Rated" only for a game against a friend,
// the only kind that can be rated.
func ratedBox(s *session) {
	ctx := s.tab("rated-box", phoneW, phoneH)
	s.run(ctx, chromedp.Navigate(s.base+"/"))
	s.waitJS(ctx, `document.querySelector('input[name="game"]')`, 10*time.Second)
	for _, c := range []struct {
		opponent string
		shown    bool
	}{{"ai", false}, {"friend", true}, {"local", false}} {
		// The form is drawn again as the presets come: choose until it holds.
		s.waitJS(ctx, `(() => {
			const r = document.querySelector('input[name="opponent"][value="`+c.opponent+`"]');
			if (!r.checked) r.click();
			return r.checked && document.querySelector("#rated-box").classList.contains("hidden") === `+strconv.FormatBool(!c.shown)+`;
		})()`, 10*time.Second)
	}
}

// contrastJS is the contrast ratio (WCAG) of the text of the element sel
// on its own background colour.
const contrastJS = `((sel) => {
	const st = getComputedStyle(document.querySelector(sel));
	const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
	const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
	const [a, b] = [lum(st.color), lum(st.backgroundColor)];
	return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
})`

// statusBadges: the green and red badges (live, online, the editor's
// verdict) are readable in light and dark mode: contrast 4.5 at least.
func statusBadges(s *session) {
	ctx := s.tab("badges", desktopW, desktopH)
	for _, dark := range []bool{false, true} {
		s.run(ctx, darkMode(dark))
		for _, c := range []struct{ page, sel string }{
			{"/editor", "#e-badge.live"},
			{"/editor?ruleset=tsoro+size%3D6&pos=0%2C0%2C0%2C0%2C0%2C0%2F0%2C0%2C0%2C0%2C0%2C0%2F0%2C0%2C0%2C0%2C0%2C0%2F0%2C0%2C0%2C0%2C0%2C0+S", "#e-badge.invalid"},
			{"/offline", "#conn.live"},
		} {
			s.run(ctx, chromedp.Navigate(s.base+c.page))
			s.waitJS(ctx, `document.querySelector("`+c.sel+`")`, 15*time.Second)
			if r := js[float64](s, ctx, contrastJS+`("`+c.sel+`")`); r < 4.5 {
				s.t.Errorf("%s %s (dark %v): %q has contrast %.2f, want 4.5 at least", c.page, c.sel, dark, s.text(ctx, c.sel), r)
			}
		}
	}
	s.run(ctx, darkMode(false))
}

// midTurnPosition: the replay's "Open position" at a bonus pick opens the
// viewer on that decision (mid-turn, what is due, no sowing moves, no Play
// from here, with the reason); a turn start lists its legal actions in
// natural order (a2 before a10).
func midTurnPosition(s *session) {
	t := s.t
	const ruleset = "tsoro size=6 heads=none bonus=3"
	id, _ := s.playLocal(ruleset, 300)
	var rep struct {
		Actions []struct {
			Action   string `json:"action"`
			By       string `json:"by"`
			TurnEnd  bool   `json:"turn_end"`
			Decision string `json:"decision"`
			Pending  string `json:"pending"`
		} `json:"actions"`
	}
	s.api("GET", "/api/games/"+id+"/replay", "", nil, &rep)
	ply := 0
	for i, a := range rep.Actions {
		if !a.TurnEnd && a.Decision == "pick" {
			ply = i + 1
			break
		}
	}
	if ply == 0 {
		t.Fatalf("no bonus pick in the %d actions of game %s", len(rep.Actions), id)
	}
	ctx := s.tab("mid-turn", desktopW, desktopH)
	s.run(ctx, chromedp.Navigate(s.base+"/replay/"+id+"?ply="+strconv.Itoa(ply)))
	s.waitJS(ctx, `document.querySelector("#player output") && document.querySelector("#player output").textContent.startsWith("`+strconv.Itoa(ply)+` /")`, 10*time.Second)
	if c := s.text(ctx, "#player .caption"); !strings.Contains(c, "Mid-turn") || !strings.Contains(c, rep.Actions[ply-1].Pending) {
		t.Errorf("the replay's caption at a bonus pick says %q", c)
	}
	s.run(ctx, chromedp.Click(chromedp.CSS("#position-link")))
	s.waitJS(ctx, `location.pathname === "/position" && document.body.dataset.decision`, 10*time.Second)
	side := map[string]string{"S": "South", "N": "North"}[rep.Actions[ply-1].By]
	if d := js[string](s, ctx, `document.body.dataset.decision`); d != "pick" {
		t.Errorf("the viewer shows the decision %q, want pick", d)
	}
	if m := s.text(ctx, "#to-move"); m != side+" to move, mid-turn" {
		t.Errorf("the viewer's badge says %q", m)
	}
	info := s.text(ctx, "#info")
	if !strings.Contains(info, "Mid-turn") || !strings.Contains(info, rep.Actions[ply-1].Pending) || strings.Contains(info, "Legal:") {
		t.Errorf("the viewer says %q", info)
	}
	if h := s.legalHoles(ctx); len(h) != 0 {
		t.Errorf("the viewer offers the sowing holes %v mid-turn", h)
	}
	if js[bool](s, ctx, `document.querySelector("#play-link").hasAttribute("href") || document.querySelector("#play-link").getAttribute("aria-disabled") !== "true"`) {
		t.Error("Play from here is enabled mid-turn")
	}
	if r := s.text(ctx, "#play-reason"); !strings.Contains(r, "start of a turn") {
		t.Errorf("the reason Play from here is off: %q", r)
	}
	s.shot(ctx, "desktop-position-mid-turn")

	// A turn start: the legal actions in natural order.
	q := url.Values{"ruleset": {"tsoro size=12 heads=none"}}
	s.run(ctx, chromedp.Navigate(s.base+"/position?"+q.Encode()))
	s.waitJS(ctx, `document.querySelector("#info .text")`, 10*time.Second)
	if info := s.text(ctx, "#info .text"); !strings.HasPrefix(info, "Legal: a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12") {
		t.Errorf("the viewer lists %q", info)
	}
	if js[bool](s, ctx, `!document.querySelector("#play-link").hasAttribute("href")`) {
		t.Error("no Play from here at a turn start")
	}
}

// watchPrompt samples the game page at every frame and counts the frames
// where the board animates while the prompt still asks for a move, says
// the computer is thinking, or shows a button of a decision.
const watchPrompt = `(() => {
  window.stale = []; window.animFrames = 0; window.busyTexts = new Set();
  const tick = () => {
    if (document.body.dataset.animating) {
      window.animFrames++;
      const p = document.querySelector("#prompt");
      const text = p.textContent;
      if (/Your move|thinking|Relay from|Anticlockwise|Clockwise/.test(text) || p.querySelector("button[data-action]") || p.classList.contains("active")) window.stale.push(text);
      else window.busyTexts.add(text);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`

// promptsFollowBoard plays against the computer at normal speed: while a
// move (one's own or the computer's) animates, the prompt says who plays
// what, never "Your move" or "thinking…" nor a dead button; when it asks
// for a move, the board is the server's.
func promptsFollowBoard(s *session) {
	t := s.t
	ctx := s.tab("prompts", desktopW, desktopH)
	id := s.newGame(ctx, "tsoro", map[string]string{"size": "6", "bonus": "3"}, "ai", "1", "S")
	s.run(ctx, setSpeed("normal"), runJS(watchPrompt))
	rng := rand.New(rand.NewPCG(9, 10))
	for moves := 0; moves < 4; {
		v := s.synced(ctx, id)
		if v.Status == "over" {
			break
		}
		s.sameBoard(s.boardCounts(ctx, "#board"), v.Board.Rows)
		if p := s.text(ctx, "#prompt"); v.Decision == "start" && !strings.Contains(p, "Your move") {
			t.Errorf("at South's turn start the prompt says %q", p)
		}
		s.randomClick(ctx, rng)
		moves++
	}
	stale := js[[]string](s, ctx, `window.stale.slice(0, 5)`)
	frames := js[int](s, ctx, `window.animFrames`)
	busy := js[[]string](s, ctx, `[...window.busyTexts]`)
	if len(stale) > 0 {
		t.Errorf("while the board animated, the prompt said %q", stale)
	}
	if frames == 0 || !slices.ContainsFunc(busy, func(b string) bool { return strings.HasPrefix(b, "North plays") }) || !slices.ContainsFunc(busy, func(b string) bool { return strings.HasPrefix(b, "South plays") }) {
		t.Errorf("%d frames animated; the prompts then: %q", frames, busy)
	}
	s.noDesync(ctx, "prompts")
}

// rulesLinksAndHelp: each rules page's Play button opens the form on its
// game, whose help speaks of that game; the game page lists the keys the
// game uses; the import box's own example imports.
func rulesLinksAndHelp(s *session) {
	t := s.t
	ctx := s.tab("rules-links", desktopW, desktopH)
	for _, c := range []struct{ game, title string }{{"nsolo", "Nsolo"}, {"choro", "Choro"}, {"tsoro", "Tsoro"}} {
		s.run(ctx, chromedp.Navigate(s.base+"/rules/"+c.game))
		s.run(ctx, chromedp.Click(chromedp.CSS(`.intro a.btn.primary`)))
		s.waitJS(ctx, `location.pathname === "/" && document.querySelector('input[name="game"]:checked') && document.querySelector("#ruleset-text").textContent !== ""`, 10*time.Second)
		if got, rs := js[string](s, ctx, `document.querySelector('input[name="game"]:checked').value`), s.text(ctx, "#ruleset-text"); got != c.game || rs != c.game {
			t.Errorf("Play %s opens the form on %s (ruleset %q)", c.title, got, rs)
		}
		if c.game != "tsoro" {
			if opts := s.text(ctx, "#options"); strings.Contains(opts, "Tsoro") {
				t.Errorf("the %s form's help speaks of Tsoro: %q", c.title, opts)
			}
		}
	}
	for _, c := range []struct{ game, not string }{{"nsolo", "head"}, {"nsolo", "clockwise"}, {"tsoro", "clockwise"}, {"choro", "head"}} {
		var g created
		if code := s.api("POST", "/api/games", "", map[string]any{"ruleset": c.game, "opponent": "local"}, &g); code != 201 {
			t.Fatalf("create %s: status %d", c.game, code)
		}
		s.run(ctx, chromedp.Navigate(s.base+"/game/"+g.ID))
		s.waitJS(ctx, `document.querySelector("#keys-text").textContent.includes("hint")`, 10*time.Second)
		if k := s.text(ctx, "#keys-text"); strings.Contains(k, c.not) {
			t.Errorf("the %s page's keys say %q", c.game, k)
		}
	}

	// The import box's example, as the box shows it.
	s.run(ctx, chromedp.Navigate(s.base+"/archive"), chromedp.WaitVisible(chromedp.CSS("#record")))
	s.run(ctx, runJS(`document.querySelector("#record").value = document.querySelector("#record").placeholder`),
		chromedp.Click(chromedp.CSS(`#import button[type="submit"]`)))
	s.waitJS(ctx, `document.querySelector("#import-done a") || document.querySelector("#import-error").textContent`, 10*time.Second)
	if e := s.text(ctx, "#import-error"); e != "" {
		t.Errorf("the import box's own example: %s", e)
	}
}

// labReports: a lab run of level players that the time budget stops says
// how many of the games asked it finished and why, with no empty figures
// or charts; a run that finishes draws its charts, in dark colors in dark
// mode.
func labReports(s *session) {
	t := s.t
	ctx := s.tab("lab", desktopW, desktopH)
	s.run(ctx, chromedp.Navigate(s.base+"/lab"))
	s.waitJS(ctx, `document.querySelector('#player option[value="level:8"]')`, 10*time.Second)
	s.run(ctx, chromedp.SetValue(chromedp.ID("#rulesets"), "tsoro"),
		runJS(`(() => { const p = document.querySelector("#player"); p.value = "level:8"; p.dispatchEvent(new Event("change")); })()`),
		chromedp.SetValue(chromedp.ID("#games"), "2"),
		chromedp.Click(chromedp.ID("#run")))
	s.waitJS(ctx, `!document.querySelector("#results").classList.contains("hidden") && !document.querySelector("#run").disabled`, 30*time.Second)
	stopped := s.text(ctx, "#stopped")
	if !strings.Contains(stopped, "Finished 0 of the 2 games asked") || !strings.Contains(stopped, "10 s") || !strings.Contains(stopped, "matombo lab tsoro --games 2 --player level:8") {
		t.Errorf("the stopped run says %q", stopped)
	}
	if table := s.text(ctx, "#table tbody"); strings.Contains(table, "%") || !strings.Contains(table, "no game finished") {
		t.Errorf("the table of a run without a finished game reads %q", table)
	}
	if js[bool](s, ctx, `!document.querySelector(".lab-plots").classList.contains("hidden") || document.querySelector(".lab-plot svg") !== null`) {
		t.Error("charts shown for a run without a finished game")
	}
	s.shot(ctx, "desktop-lab-stopped")

	// A run that finishes: no notice, two charts; dark mode repaints them.
	s.run(ctx, chromedp.SetValue(chromedp.ID("#rulesets"), "tsoro size=8 bonus=0\ntsoro size=8 bonus=3"),
		runJS(`(() => { const p = document.querySelector("#player"); p.value = "random"; p.dispatchEvent(new Event("change")); })()`),
		chromedp.SetValue(chromedp.ID("#games"), "300"),
		chromedp.Click(chromedp.ID("#run")))
	s.waitJS(ctx, `document.querySelectorAll(".lab-plot svg").length === 2 && !document.querySelector("#run").disabled`, 30*time.Second)
	if js[bool](s, ctx, `!document.querySelector("#stopped").classList.contains("hidden")`) {
		t.Errorf("a finished run says %q", s.text(ctx, "#stopped"))
	}
	background := `getComputedStyle(document.querySelector('.lab-plot svg rect')).fill`
	if light := js[string](s, ctx, background); light != "rgb(255, 255, 255)" {
		t.Errorf("in light mode the chart's background is %s", light)
	}
	s.run(ctx, darkMode(true))
	defer s.run(ctx, darkMode(false))
	if dark := js[string](s, ctx, background); dark == "rgb(255, 255, 255)" {
		t.Error("in dark mode the charts stay white")
	}
	s.shot(ctx, "desktop-lab-dark")
}

// toastText reads the page's toast while it shows.
const toastText = `(() => { const t = document.querySelector("#toast"); return t && !t.classList.contains("hidden") ? t.textContent : ""; })()`

// keysAndClicks: the arrow keys step the replay and move on the live board
// without a click first; a click on a hole that cannot be played says why;
// the play and pause symbols are drawn, not font glyphs; on a phone the
// keyboard hints are hidden.
func keysAndClicks(s *session) {
	t := s.t
	id, _ := s.playLocal("tsoro size=6 heads=none bonus=3", 6)
	ctx := s.tab("keys", desktopW, desktopH)
	s.run(ctx, chromedp.Navigate(s.base+"/replay/"+id))
	s.waitJS(ctx, `document.querySelector("#player output") && document.querySelector("#player output").textContent.startsWith("0 /")`, 10*time.Second)
	if js[bool](s, ctx, `document.body.innerText.includes("⏸") || document.body.innerText.includes("▶") || !document.querySelector('#player button[aria-label="Play"] svg.icon.play')`) {
		t.Error("the play button is a font glyph, not a drawn symbol")
	}
	s.run(ctx, setSpeed("instant"), chromedp.KeyEvent(kb.ArrowRight))
	s.waitJS(ctx, `document.querySelector("#player output").textContent.startsWith("1 /")`, 5*time.Second)
	s.run(ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.End))
	s.waitJS(ctx, `document.querySelector("#player output").textContent.startsWith("6 /")`, 5*time.Second)
	s.run(ctx, setSpeed("slow"), chromedp.KeyEvent(kb.Home), chromedp.Click(chromedp.CSS(`#player button[aria-label="Play"]`)))
	s.waitJS(ctx, `document.querySelector('#player button[aria-label="Pause"] svg.icon.pause rect')`, 5*time.Second)
	if js[bool](s, ctx, `document.body.innerText.includes("⏸")`) {
		t.Error("the pause button is the emoji ⏸")
	}
	s.run(ctx, chromedp.Click(chromedp.CSS(`#player button[aria-label="Pause"]`)))

	// A live game on one device: arrows reach the board from the page.
	var g created
	if code := s.api("POST", "/api/games", "", map[string]any{"ruleset": "tsoro size=6 heads=none", "opponent": "local"}, &g); code != 201 {
		t.Fatalf("create a local game: status %d", code)
	}
	s.run(ctx, chromedp.Navigate(s.base+"/"), runJS(`localStorage.setItem("matombo.seats.`+g.ID+`", JSON.stringify(`+mustJSON(g.Tokens)+`))`))
	s.run(ctx, chromedp.Navigate(s.base+"/game/"+g.ID))
	s.waitJS(ctx, gameState+` === "act"`, 10*time.Second)
	s.run(ctx, setSpeed("instant"), chromedp.KeyEvent(kb.ArrowRight))
	s.waitJS(ctx, `document.activeElement && document.activeElement.matches("#board g.hole.legal")`, 5*time.Second)
	first := js[string](s, ctx, `document.activeElement.dataset.hole`)
	s.run(ctx, chromedp.KeyEvent(kb.ArrowRight))
	s.waitJS(ctx, `document.activeElement.dataset.hole !== "`+first+`"`, 5*time.Second)
	second := js[string](s, ctx, `document.activeElement.dataset.hole`)
	s.run(ctx, chromedp.KeyEvent(kb.Enter))
	s.waitJS(ctx, `document.querySelector("#moves td.last") && document.querySelector("#moves td.last").textContent === "`+second+`"`, 10*time.Second)

	// Clicks on holes that cannot be played: North to move now.
	s.waitJS(ctx, gameState+` === "act"`, 10*time.Second)
	var v gameView
	s.api("GET", "/api/games/"+g.ID, "", nil, &v)
	if v.ToMove != "N" {
		t.Fatalf("%s to move after South's turn", v.ToMove)
	}
	for hole, want := range map[string]string{"a1": "a1 is South's hole", "c3": "c3 is empty"} {
		s.run(ctx, runJS(`document.querySelector("#toast") && document.querySelector("#toast").classList.add("hidden")`), clickHole(hole))
		s.waitJS(ctx, toastText+` !== ""`, 5*time.Second)
		if got := js[string](s, ctx, toastText); !strings.HasPrefix(got, want) {
			t.Errorf("a click on %s says %q, want %q…", hole, got, want)
		}
	}

	// On a phone: no keyboard hints.
	phone := s.tab("keys-phone", phoneW, phoneH)
	s.run(phone, chromedp.Navigate(s.base+"/game/"+g.ID))
	s.waitJS(phone, `document.querySelector("#board svg")`, 10*time.Second)
	if !js[bool](s, phone, `matchMedia("(pointer: coarse)").matches`) {
		t.Fatal("the phone tab has no coarse pointer")
	}
	if n := js[int](s, phone, `[...document.querySelectorAll("kbd, .keys-help")].filter(e => e.offsetParent !== null).length`); n != 0 {
		t.Errorf("the phone shows %d keyboard hints", n)
	}
	if n := js[int](s, ctx, `[...document.querySelectorAll(".keys-help")].filter(e => e.offsetParent !== null).length`); n != 1 {
		t.Errorf("the desktop shows %d keyboard cards, want 1", n)
	}
}

// mustJSON writes v as JSON for a script.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// untimedRules: the game page states the rule that ends a game without a
// clock in the words of its mode: against the computer only the player can
// lose by it, on one device the game is aborted, between friends the side
// to move loses if the other was waiting.
func untimedRules(s *session) {
	ctx := s.tab("untimed-rules", phoneW, phoneH)
	for mode, want := range map[string]string{
		"ai":     "If you have played a turn, it counts as lost",
		"local":  "a game on one device left for 14 days is aborted",
		"friend": "The side to move loses if its opponent was waiting",
	} {
		var c created
		if code := s.api("POST", "/api/games", "", map[string]any{"ruleset": "tsoro size=6", "opponent": mode, "side": "S", "level": 1}, &c); code != 201 {
			s.t.Fatalf("create a %s game: status %d", mode, code)
		}
		s.run(ctx, chromedp.Navigate(s.base+"/game/"+c.ID+"#seat="+c.Token))
		s.waitJS(ctx, `!document.querySelector("#clock-rule").classList.contains("hidden") && document.querySelector("#clock-rule").textContent.includes(`+strconv.Quote(want)+`)`, 10*time.Second)
	}
}
