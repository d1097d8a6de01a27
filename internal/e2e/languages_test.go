package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"matombo/internal/i18n"
	"matombo/internal/web"
)

// acceptLanguage makes the tab send header as its Accept-Language.
func acceptLanguage(header string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": header}})
		return err
	})
}

// TestLanguages opens the home page in each of the six languages, three
// by the browser's Accept-Language and three by the language menu (which
// must then hold for the next pages), starts a game against the computer
// and plays a move, checking that the page's texts are the catalog's:
// the home page's title, the game page's badge and prompt, the
// computer's announced move, the seat's count of stones (a plural), and no
// message key shown in place of a text.
func TestLanguages(t *testing.T) {
	cats, err := web.Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t)
	byMenu := map[string]bool{"pt": true, "sn": true, "ny": true}
	for _, lang := range []string{"en", "fr", "pt", "sw", "sn", "ny"} {
		c := cats.Get(lang)
		if c == nil {
			t.Fatalf("no catalog for %s", lang)
		}
		t.Run(lang, func(t *testing.T) { playIn(s.with(t), c, byMenu[lang]) })
	}
}

// playIn plays a move in the language of c, chosen by the menu or by the
// browser's Accept-Language.
func playIn(s *session, c *i18n.Catalog, menu bool) {
	t := s.t
	lang := c.Lang()
	ctx := s.tab("lang-"+lang, desktopW, desktopH)
	if menu {
		// A browser that asks for another language; the menu's choice wins.
		s.run(ctx, acceptLanguage("de-DE, de;q=0.9"), chromedp.Navigate(s.base+"/"), chromedp.WaitVisible(chromedp.ID("#lang-menu")))
		if got := js[string](s, ctx, `document.documentElement.lang`); got != "en" {
			t.Fatalf("a browser asking for German gets the page in %q, want English", got)
		}
		s.run(ctx, runJS(fmt.Sprintf(`(() => { const m = document.querySelector("#lang-menu"); m.value = %q; m.dispatchEvent(new Event("change")); })()`, lang)))
		s.waitJS(ctx, fmt.Sprintf(`document.documentElement.lang === %q && document.readyState === "complete"`, lang), 15*time.Second)
		if kept := js[string](s, ctx, `localStorage.getItem("matombo.pref.lang") || ""`); kept != lang {
			t.Errorf("the menu kept %q in localStorage, want %q", kept, lang)
		}
	} else {
		s.run(ctx, acceptLanguage(lang+", en;q=0.5"), chromedp.Navigate(s.base+"/"))
		s.waitJS(ctx, fmt.Sprintf(`document.documentElement.lang === %q`, lang), 15*time.Second)
	}
	if h1, want := s.text(ctx, ".hero h1"), c.T("home.hero.title"); h1 != want {
		t.Errorf("home page's title %q, want %q", h1, want)
	}
	if got, want := js[string](s, ctx, `document.querySelector("#lang-menu").value`), lang; got != want {
		t.Errorf("the language menu shows %q, want %q", got, want)
	}
	s.noKeysShown(ctx, c, "home")

	s.newGame(ctx, "tsoro", map[string]string{"size": "6", "heads": "none"}, "ai", "1", "S")
	if got := js[string](s, ctx, `document.documentElement.lang`); got != lang {
		t.Fatalf("the game page is in %q, want %q (the choice was not kept)", got, lang)
	}
	if badge, want := s.text(ctx, "#mode"), c.T("game.mode.you_play", "side", c.T("side.S")); badge != want {
		t.Errorf("badge %q, want %q", badge, want)
	}
	s.run(ctx, setSpeed("instant"))
	s.waitJS(ctx, gameState+` === "act"`, 15*time.Second)
	if prompt, want := s.text(ctx, "#prompt b"), c.T("game.prompt.move"); prompt != want {
		t.Errorf("prompt %q, want %q", prompt, want)
	}
	s.run(ctx, clickHole("a3"))
	s.waitJS(ctx, `(() => { const td = document.querySelector("#moves td"); return td && td.textContent === "a3"; })()`, 15*time.Second)
	// The computer answers; its move is announced in the language, and the
	// prompt is the language's again.
	s.waitJS(ctx, gameState+` === "act"`, 30*time.Second)
	north := c.T("side.N")
	s.waitJS(ctx, fmt.Sprintf(`document.querySelector("#announce").textContent.startsWith(%q)`, north+" d"), 15*time.Second)
	if prompt, want := s.text(ctx, "#prompt b"), c.T("game.prompt.move"); prompt != want {
		t.Errorf("prompt after the computer's move %q, want %q", prompt, want)
	}
	// The seats count the stones in the language's plural.
	stones := js[int](s, ctx, `Number(document.querySelector("#seat-bottom .count").textContent.match(/[0-9]+/)[0])`)
	if got, want := s.text(ctx, "#seat-bottom .count"), c.T("common.stones", "count", stones); got != want {
		t.Errorf("South's seat counts %q, want %q", got, want)
	}
	s.noKeysShown(ctx, c, "game")
	s.shot(ctx, "lang-"+lang+"-game")
}

// noKeysShown fails if the page shows a message key instead of its text
// (i18n.js's t answers a key it lacks with the key itself).
func (s *session) noKeysShown(ctx context.Context, c *i18n.Catalog, page string) {
	s.t.Helper()
	keys, err := json.Marshal(c.Keys())
	if err != nil {
		s.t.Fatal(err)
	}
	shown := js[[]string](s, ctx, `(() => { const text = document.body.innerText; return `+string(keys)+`.filter(k => text.includes(k)); })()`)
	if len(shown) > 0 {
		s.t.Errorf("%s page in %s shows message keys instead of texts: %v", page, c.Lang(), shown)
	}
}
