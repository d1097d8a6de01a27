package web

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"sync"
	"testing"
)

func get(t *testing.T, h http.Handler, method, target string) *http.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, target, nil))
	return rec.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// files lists every embedded file.
func files(t *testing.T) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("only %d embedded files: %v", len(out), out)
	}
	return out
}

func TestPagesServeTheirShells(t *testing.T) {
	h := Handler()
	cases := map[string]string{
		"/":                       "index.html",
		"/game/abc123":            "game.html",
		"/join/abc123/code":       "join.html",
		"/replay/abc123":          "replay.html",
		"/replay/abc123?ply=4":    "replay.html",
		"/position?ruleset=tsoro": "position.html",
		"/archive":                "archive.html",
		"/rules/tsoro":            "rules/tsoro.html",
		"/rules/nsolo":            "rules/nsolo.html",
		"/rules/choro":            "rules/choro.html",
	}
	for target, file := range cases {
		res := get(t, h, "GET", target)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: status %d", target, res.StatusCode)
			continue
		}
		if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("GET %s: Content-Type %q", target, ct)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("GET %s: CSP %q", target, csp)
		}
		var nav string
		for _, pg := range Pages() {
			if pg.File == file {
				nav = pg.Nav
			}
		}
		want, err := Shell(file, nav)
		if err != nil {
			t.Fatal(err)
		}
		if got := body(t, res); got != string(want) {
			t.Errorf("GET %s did not serve %s", target, file)
		}
	}
	for _, pg := range Pages() {
		if _, err := fs.Stat(FS, pg.File); err != nil {
			t.Errorf("route %s: %v", pg.Route, err)
		}
	}
}

func TestNotFoundAndMethods(t *testing.T) {
	h := Handler()
	for _, target := range []string{"/nope", "/game/", "/game/a/b", "/rules/chess", "/static/", "/static/missing.js",
		"/static/index.html", "/join/abc", "/archive/x"} {
		res := get(t, h, "GET", target)
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", target, res.StatusCode)
		}
		if b := body(t, res); !strings.Contains(b, "Nothing here") {
			t.Errorf("GET %s: not the 404 page", target)
		}
	}
	// A path with dot segments is sent to its clean form, never served.
	res := get(t, h, "GET", "/static/../web.go")
	if res.StatusCode/100 != 3 || res.Header.Get("Location") != "/web.go" {
		t.Errorf("GET /static/../web.go: status %d, Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = get(t, h, "POST", "/")
	if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /: status %d, Allow %q", res.StatusCode, res.Header.Get("Allow"))
	}
	res = get(t, h, "HEAD", "/static/css/app.css")
	if res.StatusCode != http.StatusOK || body(t, res) != "" {
		t.Errorf("HEAD: status %d", res.StatusCode)
	}
}

func TestAssetsServedWithTheirTypes(t *testing.T) {
	h := Handler()
	want := map[string]string{
		".js":   "text/javascript; charset=utf-8",
		".css":  "text/css; charset=utf-8",
		".svg":  "image/svg+xml",
		".json": "application/json",
		".html": "text/html; charset=utf-8",
		".png":  "image/png",
		".wasm": "application/wasm",

		".webmanifest": "application/manifest+json",
	}
	for _, f := range files(t) {
		ext := path.Ext(f)
		ct, ok := want[ext]
		if !ok {
			t.Errorf("%s: no known content type for %q files", f, ext)
			continue
		}
		if got := ContentType(f); got != ct {
			t.Errorf("%s: ContentType %q, want %q", f, got, ct)
		}
		if ext == ".html" {
			continue // shells are served at their routes, not under /static/
		}
		res := get(t, h, "GET", "/static/"+f)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET /static/%s: status %d", f, res.StatusCode)
			continue
		}
		if got := res.Header.Get("Content-Type"); got != ct {
			t.Errorf("GET /static/%s: Content-Type %q, want %q", f, got, ct)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET /static/%s: no nosniff", f)
		}
	}
}

var (
	attrRef   = regexp.MustCompile(`(?:src|href|action)="([^"]*)"`)
	importRef = regexp.MustCompile(`(?m)^import\s.*?from\s+"([^"]+)";|^import\s+"([^"]+)";`)
	staticRef = regexp.MustCompile("[\"'`](/static/[^\"'`$]+)[\"'`$]")
	urlRef    = regexp.MustCompile(`(?i)(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	cssURL    = regexp.MustCompile(`url\(([^)]*)\)`)
)

// linkHandler is one Handler for routeExists (making one renders every
// shell in every language).
var linkHandler = sync.OnceValue(Handler)

// routeExists reports whether a site-relative link (without query or
// fragment) is a page route, an embedded asset or an API path.
func routeExists(link string) bool {
	if name, ok := strings.CutPrefix(link, "/static/"); ok {
		_, err := fs.Stat(FS, name)
		return err == nil && !strings.HasSuffix(name, ".html")
	}
	if _, ok := rootFiles[link]; ok || strings.HasPrefix(link, "/api/") {
		return true
	}
	res := httptest.NewRecorder()
	linkHandler().ServeHTTP(res, httptest.NewRequest("GET", link, nil))
	return res.Code == http.StatusOK
}

func TestShellsReferenceOnlyExistingAssets(t *testing.T) {
	for _, f := range files(t) {
		if path.Ext(f) != ".html" || strings.HasPrefix(f, "parts/") {
			continue // the parts are checked within the shells
		}
		b, err := Shell(f, "")
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		refs := attrRef.FindAllStringSubmatch(text, -1)
		if len(refs) < 3 {
			t.Errorf("%s: only %d links", f, len(refs))
		}
		for _, m := range refs {
			link := m[1]
			if link == "" || strings.HasPrefix(link, "#") {
				continue
			}
			if !strings.HasPrefix(link, "/") {
				t.Errorf("%s: link %q is not site-relative", f, link)
				continue
			}
			link, _, _ = strings.Cut(link, "?")
			link, _, _ = strings.Cut(link, "#")
			if !routeExists(link) {
				t.Errorf("%s: link %q leads nowhere", f, link)
			}
		}
		for _, need := range []string{`<link rel="stylesheet" href="/static/css/app.css">`, `<script type="module" src="/static/js/`, `<html lang="en">`, `name="viewport"`} {
			if !strings.Contains(text, need) {
				t.Errorf("%s: missing %s", f, need)
			}
		}
		if strings.Contains(text, "style=") || strings.Contains(text, "onclick=") || strings.Contains(text, "<script>") {
			t.Errorf("%s: inline style or script (the CSP allows neither)", f)
		}
	}
}

// TestShellsShareTheirParts: every page is served with the one top bar and
// footer, its own menu link (if it has one) marked as the current page,
// and no marker left; a shell without its markers is refused.
func TestShellsShareTheirParts(t *testing.T) {
	h := Handler()
	foot := `<footer class="footer">`
	menu := `<nav class="nav" aria-label="Main"><a href="/">Play</a><a href="/lobby">Lobby</a><a href="/archive">Archive</a>`
	wildcard := regexp.MustCompile(`\{[^}]*\}`)
	for _, pg := range append(Pages(), Page{Route: "/no/such/page", File: "notfound.html"}) {
		route := wildcard.ReplaceAllString(pg.Route, "x")
		text := body(t, get(t, h, "GET", route))
		if strings.Contains(text, "{{") || strings.Contains(text, "<!--#") {
			t.Errorf("%s: a template call or marker is left", route)
		}
		if n, m := strings.Count(text, `<header class="topbar">`), strings.Count(text, foot); n != 1 || m != 1 {
			t.Errorf("%s: %d top bars, %d footers", route, n, m)
		}
		if links := regexp.MustCompile(`<nav class="nav"[^>]*>(?:<a [^>]*>[^<]*</a>)+</nav>`).FindString(text); strings.Count(links, "<a ") != len(Menu()) {
			t.Errorf("%s: the menu is %q, want its %d links", route, links, len(Menu()))
		}
		current := regexp.MustCompile(`<a href="([^"]*)" aria-current="page">`).FindAllStringSubmatch(text, -1)
		switch {
		case pg.Nav == "" && (len(current) != 0 || !strings.Contains(text, menu)):
			t.Errorf("%s: the menu marks %v as current, want none", route, current)
		case pg.Nav != "" && (len(current) != 1 || current[0][1] != pg.Nav):
			t.Errorf("%s: the menu marks %v as current, want %s", route, current, pg.Nav)
		}
	}
	if _, err := Shell("parts/topbar.html", ""); err == nil || !strings.Contains(err.Error(), "exactly once") {
		t.Errorf("a file without its template calls: %v", err)
	}
	if _, err := Shell("index.html", "/nowhere"); err == nil || !strings.Contains(err.Error(), "no link to /nowhere") {
		t.Errorf("a current page that is not in the menu: %v", err)
	}
}

func TestModulesImportExistingModules(t *testing.T) {
	for _, f := range files(t) {
		if path.Ext(f) != ".js" {
			continue
		}
		b, _ := fs.ReadFile(FS, f)
		text := string(b)
		for _, m := range importRef.FindAllStringSubmatch(text, -1) {
			ref := m[1] + m[2]
			if !strings.HasPrefix(ref, "./") {
				t.Errorf("%s: import %q is not a relative module", f, ref)
				continue
			}
			target := path.Join(path.Dir(f), ref)
			if _, err := fs.Stat(FS, target); err != nil {
				t.Errorf("%s: import %q: %v", f, ref, err)
			}
		}
		for _, m := range staticRef.FindAllStringSubmatch(text, -1) {
			if strings.HasSuffix(m[1], "/") {
				continue // a template's prefix, such as /static/demo/${game}.json: checked below
			}
			if !routeExists(m[1]) {
				t.Errorf("%s: asset %q does not exist", f, m[1])
			}
		}
		if strings.Contains(text, "eval(") || strings.Contains(text, "new Function") || strings.Contains(text, "innerHTML") {
			t.Errorf("%s: eval, new Function or innerHTML", f)
		}
	}
	// The rules pages fetch /static/demo/<game>.json.
	for _, g := range []string{"tsoro", "nsolo", "choro"} {
		b, _ := fs.ReadFile(FS, "rules/"+g+".html")
		if !strings.Contains(string(b), `data-game="`+g+`"`) {
			t.Errorf("rules/%s.html: no data-game", g)
		}
		if _, err := fs.Stat(FS, "demo/"+g+".json"); err != nil {
			t.Errorf("demo for %s: %v", g, err)
		}
	}
}

func TestNoExternalURLs(t *testing.T) {
	// XML namespace names identify, they are never fetched.
	allowed := map[string]bool{"http://www.w3.org": true}
	for _, f := range files(t) {
		if f == "engine.wasm" {
			continue // a binary; its strings are no links
		}
		b, _ := fs.ReadFile(FS, f)
		text := string(b)
		if f == "js/wasm_exec.js" {
			// The Go toolchain's own glue names an issue in a comment.
			text = strings.Replace(text, "https://github.com/golang/go/issues/28975", "", 1)
		}
		for _, u := range urlRef.FindAllString(text, -1) {
			if !allowed[strings.ToLower(u)] {
				t.Errorf("%s: external URL %q", f, u)
			}
		}
		if path.Ext(f) == ".css" {
			for _, m := range cssURL.FindAllStringSubmatch(text, -1) {
				if !strings.HasPrefix(m[1], "#") {
					t.Errorf("%s: url(%s) is not a local reference", f, m[1])
				}
			}
			if strings.Contains(text, "@import") || strings.Contains(text, "@font-face") {
				t.Errorf("%s: @import or @font-face", f)
			}
		}
	}
	// The check itself catches what it should.
	for _, bad := range []string{`<script src="https://cdn.example.com/x.js">`, `url(//fonts.example.org/f.woff)`, `fetch("http://evil.test/a")`} {
		if len(urlRef.FindAllString(bad, -1)) == 0 {
			t.Errorf("urlRef misses %q", bad)
		}
	}
}

// TestRoutes: the ServeMux patterns take what the pages always took, a
// trailing slash included, and nothing else.
func TestRoutes(t *testing.T) {
	h := Handler()
	cases := map[string]int{
		"/":             http.StatusOK,
		"/x":            http.StatusNotFound,
		"/game/abc":     http.StatusOK,
		"/game/abc/":    http.StatusOK,
		"/game/":        http.StatusNotFound,
		"/game":         http.StatusNotFound,
		"/join/a/b":     http.StatusOK,
		"/join/a/b/":    http.StatusOK,
		"/join/a":       http.StatusNotFound,
		"/archive":      http.StatusOK,
		"/archive/":     http.StatusOK,
		"/archives":     http.StatusNotFound,
		"/rules/choro/": http.StatusOK,
		"/rules/":       http.StatusNotFound,
	}
	for target, want := range cases {
		if got := get(t, h, "GET", target).StatusCode; got != want {
			t.Errorf("GET %s: status %d, want %d", target, got, want)
		}
	}
}
