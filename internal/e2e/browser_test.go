// Package e2e drives the matombo web app in a real browser (Debian's
// chromium, through chromedp) against the real server started in-process.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromium finds the browser: $MATOMBO_CHROMIUM, else chromium on PATH or
// /usr/bin/chromium. Without it the tests fail under CI=true (CI must
// install it) and are skipped, loudly, elsewhere.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("MATOMBO_CHROMIUM"), "chromium", "/usr/bin/chromium", "chromium-browser"} {
		if p == "" {
			continue
		}
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	msg := "e2e: chromium is not installed (apt-get install -y chromium); the browser tests did NOT run"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	fmt.Fprintln(os.Stderr, "\n*** "+msg+" ***")
	t.Skip(msg)
	return ""
}

// session is one browser with the server under test, shared by subtests.
type session struct {
	t       *testing.T
	base    string
	server  *testServer
	browser context.Context
	shots   string
	log     *errLog
}

// errLog collects the errors the pages report.
type errLog struct {
	mu   sync.Mutex
	errs []string
}

func (l *errLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, fmt.Sprintf(format, args...))
}

// with returns the session for a subtest.
func (s *session) with(t *testing.T) *session {
	c := *s
	c.t = t
	return &c
}

// newSession starts the server and a headless chromium.
func newSession(t *testing.T) *session {
	t.Helper()
	exe := chromium(t)
	return newSessionOn(t, exe, startServer(t))
}

// newSessionOn starts a headless chromium (exe) on the server srv.
func newSessionOn(t *testing.T, exe string, srv *testServer) *session {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1366, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	if err := chromedp.Do(browser); err != nil {
		cancelBrowser()
		cancelAlloc()
		t.Fatalf("e2e: start chromium: %v", err)
	}
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
	})
	shots := os.Getenv("MATOMBO_SCREENSHOTS")
	if shots == "" {
		shots = filepath.Join(os.TempDir(), "matombo-screenshots")
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, base: srv.url, server: srv, browser: browser, shots: shots, log: &errLog{}}
	t.Cleanup(func() {
		s.log.mu.Lock()
		defer s.log.mu.Unlock()
		for _, e := range s.log.errs {
			t.Errorf("browser: %s", e)
		}
	})
	return s
}

// tab opens a tab in a fresh browser context (its own storage, like another
// person's browser), sized w×h, that records page errors.
func (s *session) tab(name string, w, h int) context.Context {
	s.t.Helper()
	ctx, cancel := chromedp.NewContext(s.browser, chromedp.WithNewBrowserContext())
	s.t.Cleanup(cancel)
	// The tab lives as long as the context of its first run: no deadline here.
	if err := chromedp.Do(ctx); err != nil {
		s.t.Fatalf("e2e: open a tab: %v", err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			s.log.add("%s: exception: %s", name, exceptionText(e.ExceptionDetails))
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				msg := strings.Join(parts, " ")
				s.log.add("%s: console error: %s", name, msg)
			}
		}
	})
	if err != nil {
		s.t.Fatal(err)
	}
	if w < 600 {
		s.run(ctx, chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	} else {
		s.run(ctx, chromedp.EmulateViewport(int64(w), int64(h)))
	}
	return ctx
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "?"
	}
	text := fmt.Sprintf("%s (%s:%d:%d)", d.Text, d.URL, d.LineNumber+1, d.ColumnNumber+1)
	if d.Exception != nil {
		text += ": " + d.Exception.Description
	}
	return text
}

// slack multiplies every wait: the tests share two cores with the rest of
// the suite, and a wait only matters when something is wrong.
const slack = 3

// run runs actions with a deadline, failing the test on error.
func (s *session) run(ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	c, cancel := context.WithTimeout(ctx, slack*20*time.Second)
	defer cancel()
	if err := chromedp.Do(c, actions...); err != nil {
		s.t.Fatalf("e2e: %v", err)
	}
}

// value runs an action that returns a value, failing the test on error.
func value[T any](s *session, ctx context.Context, a chromedp.Action[T]) T {
	s.t.Helper()
	c, cancel := context.WithTimeout(ctx, slack*20*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, a)
	if err != nil {
		s.t.Fatalf("e2e: %v", err)
	}
	return v
}

// js evaluates a JavaScript expression.
func js[T any](s *session, ctx context.Context, expr string) T {
	s.t.Helper()
	return value(s, ctx, chromedp.Evaluate[T](expr))
}

// text reads the text of the first element a CSS selector finds.
func (s *session) text(ctx context.Context, sel string) string {
	s.t.Helper()
	return value(s, ctx, chromedp.Text(chromedp.CSS(sel)))
}

// waitJS polls a JavaScript expression until it is true.
func (s *session) waitJS(ctx context.Context, expr string, timeout time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(slack * timeout)
	for {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+expr+")")); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			html, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("main")||document.body).innerText.slice(0, 1500)`))
			s.t.Fatalf("e2e: timed out waiting for %s; the page says:\n%s", expr, html)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// noDesync checks that every animation on the page ended on the server's
// board (the page counts misses in body[data-desync]).
func (s *session) noDesync(ctx context.Context, name string) {
	s.t.Helper()
	if n := js[string](s, ctx, `document.body.dataset.desync || ""`); n != "" {
		s.t.Errorf("%s: %s animations ended on another board than the server's", name, n)
	}
}

// shot saves a full-page screenshot as <name>.png.
func (s *session) shot(ctx context.Context, name string) {
	s.t.Helper()
	buf := value(s, ctx, chromedp.FullScreenshot(100))
	if len(buf) < 1000 {
		s.t.Fatalf("screenshot %s: only %d bytes", name, len(buf))
	}
	path := filepath.Join(s.shots, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.t.Logf("screenshot %s", path)
}

// api calls the server's JSON API directly.
func (s *session) api(method, path, token string, body, out any) int {
	s.t.Helper()
	var r io.Reader
	if b, ok := body.(string); ok {
		r = strings.NewReader(b)
	} else if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			s.t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	if err != nil {
		s.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Seat "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil {
		if p, ok := out.(*string); ok {
			*p = string(data)
		} else if err := json.Unmarshal(data, out); err != nil {
			s.t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
	return res.StatusCode
}

// gameView is the part of the server's GameView the tests read.
type gameView struct {
	ID       string     `json:"id"`
	Status   string     `json:"status"`
	Ply      int        `json:"ply"`
	ToMove   string     `json:"to_move"`
	Decision string     `json:"decision"`
	Legal    []string   `json:"legal"`
	Result   string     `json:"result"`
	Reason   string     `json:"reason"`
	Position string     `json:"position"`
	Ruleset  string     `json:"ruleset"`
	Record   string     `json:"record"`
	Turns    [][]string `json:"turns"`
	Moves    []struct {
		Number int    `json:"number"`
		Side   string `json:"side"`
		Text   string `json:"text"`
	} `json:"moves"`
	Board struct {
		Rows map[string][]int `json:"rows"`
	} `json:"board"`
	You string `json:"you"`
}
