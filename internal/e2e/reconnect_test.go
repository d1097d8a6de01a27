package e2e

import (
	"context"
	"strconv"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// deafSockets wraps the page's WebSocket before its scripts run: while
// window.__deaf is true the page hears no message, and window.__ws holds
// the sockets, so that a test can close them as a dropped network would.
const deafSockets = `(() => {
  const Real = window.WebSocket;
  window.__ws = [];
  window.__deaf = false;
  window.WebSocket = class extends Real {
    constructor(...args) { super(...args); window.__ws.push(this); }
    addEventListener(type, fn, ...rest) {
      if (type !== "message") return super.addEventListener(type, fn, ...rest);
      return super.addEventListener(type, (ev) => { if (!window.__deaf) fn(ev); }, ...rest);
    }
  };
})()`

// onNewDocument runs script in every page the tab opens, before its own.
func onNewDocument(script string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	})
}

// reconnectCatchUp: a spectator misses two actions (its socket hears
// nothing, then drops); on reconnecting, its hello names the ply it saw,
// and the page animates the missed actions from the events the state
// carries, ending on the server's board.
func reconnectCatchUp(s *session) {
	t := s.t
	var c created
	if code := s.api("POST", "/api/games", "", map[string]any{"ruleset": "nsolo", "opponent": "local"}, &c); code != 201 {
		t.Fatalf("create: status %d", code)
	}
	ctx := s.tab("reconnect", desktopW, desktopH)
	s.run(ctx, onNewDocument(deafSockets), chromedp.Navigate(s.base+"/game/"+c.ID))
	s.waitJS(ctx, `document.querySelector("#conn").textContent === "live" && document.querySelector("#board svg")`, 10*time.Second)
	s.run(ctx, setSpeed("fast"), runJS(`window.__deaf = true`))
	laps := js[int](s, ctx, `Number(document.body.dataset.laps || 0)`)

	var v gameView
	s.api("GET", "/api/games/"+c.ID, "", nil, &v)
	for range 2 {
		var res struct {
			Game gameView `json:"game"`
		}
		body := map[string]any{"action": v.Legal[0], "ply": v.Ply}
		if code := s.api("POST", "/api/games/"+c.ID+"/actions", c.Tokens[v.ToMove], body, &res); code != 200 {
			t.Fatalf("action %s: status %d", v.Legal[0], code)
		}
		v = res.Game
	}
	time.Sleep(300 * time.Millisecond) // the updates reach the deaf page, which ignores them
	if shown := s.movesShown(ctx); shown != 0 {
		t.Fatalf("the deaf page shows %d turns", shown)
	}
	s.run(ctx, runJS(`window.__deaf = false; window.__ws.forEach((w) => w.close())`))
	s.waitJS(ctx, `Number(document.body.dataset.laps || 0) > `+strconv.Itoa(laps), 15*time.Second)
	s.waitJS(ctx, `document.querySelector("#conn").textContent === "live"`, 15*time.Second)
	s.waitJS(ctx, `[...document.querySelectorAll("#moves td")].filter(td => td.textContent.trim()).length === `+strconv.Itoa(len(v.Turns)), 15*time.Second)
	s.sameBoard(s.boardCounts(ctx, "#board"), v.Board.Rows)
	s.noDesync(ctx, "reconnect catch-up")
	t.Logf("game %s: after the reconnect the page animated %d laps it had missed", c.ID, js[int](s, ctx, `Number(document.body.dataset.laps || 0)`)-laps)
}
