// Package web is the front-end of the matombo web app: HTML shells, plain ES
// modules, CSS and SVG, embedded in the binary. There is no build step, no
// framework and nothing fetched from elsewhere: every asset is served from
// this package under /static/, so a Content-Security-Policy of 'self' holds.
//
// # Mounting
//
// The server registers its API routes (/api/..., /healthz) on its mux first
// and mounts Handler for everything else; Go's ServeMux picks the longest
// pattern, so the API keeps its routes:
//
//	mux := http.NewServeMux()
//	mux.Handle("/api/", api)        // the JSON API and the WebSocket
//	mux.HandleFunc("/healthz", ...)
//	mux.Handle("/", web.Handler())  // pages and /static/
//
// Handler answers GET and HEAD only. It serves these HTML shells; each one
// loads its page module, which reads the id from the path and calls the API:
//
//	/                       index.html           new game form, games in progress, recent games
//	/game/{id}              game.html            the board (players and spectators; seat token in #seat=)
//	/join/{id}/{code}       join.html            an invite link: joins the game, then opens /game/{id}
//	/replay/{id}            replay.html          replay of a stored game (?ply=N)
//	/position               position.html        position viewer (?ruleset=...&pos=...)
//	/analysis               analysis.html        analysis board and game review (?ruleset=...&pos=...&moves=..., or ?game=ID)
//	/archive                archive.html         stored games, import and export
//	/rules/tsoro            rules/tsoro.html     rules pages with a demo board
//	/rules/nsolo            rules/nsolo.html
//	/rules/choro            rules/choro.html
//	/offline                offline.html         play the computer in the browser, with or without a connection
//	/sw.js                  sw.js                the service worker (it must be served from / to control every page)
//	/manifest.webmanifest   manifest.webmanifest the web app manifest
//	/leaderboard            leaderboard.html     the ratings of a preset (?ruleset=)
//	/login                  login.html           log in (an optional account), or log out
//	/signup                 signup.html          create an account
//	/profile/{name}         profile.html         a player's ratings, results and games
//	/static/...             the files of static/ (css/, js/, img/, demo/, engine.wasm)
//
// Any other path is answered 404 with the notfound.html shell. Handler
// routes with an http.ServeMux: each page's Route is a ServeMux pattern
// registered for GET (and so HEAD), with a trailing slash also accepted
// ("/game/{id}" and "/game/{id}/"). The shells are html/template
// templates sharing their top bar and footer: parts/topbar.html defines
// "topbar" and parts/footer.html "footer", which every shell calls once
// ({{template "topbar" .}}); the page's data (PageData) carries the menu,
// its own link marked as the current page (aria-current). Handler parses
// the parts and shells and renders every page once, at its start. HTML is
// sent with Cache-Control: no-cache; assets are revalidated too (they carry
// no version in their names), so a new binary is picked up at once. When
// the server has not set a Content-Security-Policy header, Handler sets a
// self-only one. The offline engine's worker (js/engine-worker.js) gets the
// same policy with 'wasm-unsafe-eval' added to script-src, the one source a
// browser needs to compile engine.wasm; no page gets it. engine.wasm is sent
// gzip-compressed to clients that accept it (see wasmbuild_test.go for how
// it is built).
package web

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

//go:embed static
var embedded embed.FS

// FS is the static/ tree: the HTML shells at its root and the assets below.
var FS fs.FS = mustSub(embedded, "static")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		// fs.Sub fails only on an invalid dir name, a constant here.
		panic("web: " + err.Error())
	}
	return sub
}

// CSP is the Content-Security-Policy the pages are written for.
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Pages lists the routes of the HTML shells, as http.ServeMux patterns
// without their method, and the shell each one serves.
func Pages() []Page {
	return []Page{
		{Route: "/", File: "index.html", Nav: "/"},
		{Route: "/game/{id}", File: "game.html"},
		{Route: "/join/{id}/{code}", File: "join.html"},
		{Route: "/replay/{id}", File: "replay.html"},
		{Route: "/position", File: "position.html"},
		{Route: "/analysis", File: "analysis.html"},
		{Route: "/archive", File: "archive.html", Nav: "/archive"},
		{Route: "/lab", File: "lab.html", Nav: "/lab"},
		{Route: "/rules/tsoro", File: "rules/tsoro.html", Nav: "/rules/tsoro"},
		{Route: "/rules/nsolo", File: "rules/nsolo.html", Nav: "/rules/nsolo"},
		{Route: "/rules/choro", File: "rules/choro.html", Nav: "/rules/choro"},
		{Route: "/offline", File: "offline.html"},
		{Route: "/leaderboard", File: "leaderboard.html", Nav: "/leaderboard"},
		{Route: "/login", File: "login.html", Nav: "/login"},
		{Route: "/signup", File: "signup.html"},
		{Route: "/profile/{name}", File: "profile.html"},
	}
}

// rootFiles are the files of static/ served at the root, not under /static/.
var rootFiles = map[string]string{"/sw.js": "sw.js", "/manifest.webmanifest": "manifest.webmanifest"}

// workerScript is the engine's Web Worker, the one script that compiles
// WebAssembly.
const workerScript = "js/engine-worker.js"

// WasmCSP returns the policy csp with 'wasm-unsafe-eval' added to its
// script-src: the policy of the engine's worker.
func WasmCSP(csp string) string {
	return strings.Replace(csp, "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", 1)
}

// Page is one route of the front-end and the HTML shell that serves it.
type Page struct {
	Route string // an http.ServeMux pattern without its method: "/game/{id}"
	File  string // the shell, a path in FS
	Nav   string // the menu link marked as the current page; "" for none
}

// Menu lists the links of the top bar's main menu, in order.
func Menu() []Link {
	return []Link{
		{Href: "/", Label: "Play"},
		{Href: "/archive", Label: "Archive"},
		{Href: "/rules/tsoro", Label: "Tsoro"},
		{Href: "/rules/nsolo", Label: "Nsolo"},
		{Href: "/rules/choro", Label: "Choro"},
		{Href: "/lab", Label: "Lab"},
		{Href: "/leaderboard", Label: "Ratings"},
		{Href: "/login", Label: "Log in"},
	}
}

// Link is one link of the menu; Current marks the page it is shown on.
type Link struct {
	Href, Label string
	Current     bool
}

// PageData is what a shell is rendered with: the menu, the page's own link
// (if it has one) marked as current.
type PageData struct {
	Menu []Link
}

// notFound is the shell of every unknown path.
const notFound = "notfound.html"

// parts are the templates every shell may call, each defined by its file.
var parts = []string{"parts/topbar.html", "parts/footer.html"}

// calls are the template calls every shell makes exactly once.
var calls = []string{`{{template "topbar" .}}`, `{{template "footer" .}}`}

// parseParts parses the shared parts into one template set.
func parseParts() (*template.Template, error) {
	return template.ParseFS(FS, parts...)
}

// Shell returns the HTML shell file rendered with its shared parts, its
// menu link nav (if any) marked as the current page.
func Shell(file, nav string) ([]byte, error) {
	base, err := parseParts()
	if err != nil {
		return nil, err
	}
	return render(base, file, nav)
}

// render parses the shell file on a copy of the parts and executes it.
func render(base *template.Template, file, nav string) ([]byte, error) {
	src, err := fs.ReadFile(FS, file)
	if err != nil {
		return nil, err
	}
	for _, c := range calls {
		if n := bytes.Count(src, []byte(c)); n != 1 {
			return nil, fmt.Errorf("web: %s calls %s %d times, want exactly once", file, c, n)
		}
	}
	data := PageData{Menu: Menu()}
	if nav != "" {
		found := false
		for i := range data.Menu {
			if data.Menu[i].Href == nav {
				data.Menu[i].Current, found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("web: %s: the menu has no link to %s", file, nav)
		}
	}
	set, err := base.Clone()
	if err != nil {
		return nil, err
	}
	t, err := set.New(file).Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("web: %s: %w", file, err)
	}
	var out bytes.Buffer
	if err := t.Execute(&out, data); err != nil {
		return nil, fmt.Errorf("web: %s: %w", file, err)
	}
	return out.Bytes(), nil
}

// shells renders every page's shell, and the not-found page's, once.
func shells() map[string][]byte {
	base, err := parseParts()
	if err != nil {
		panic(err)
	}
	out := map[string][]byte{}
	for _, pg := range append(Pages(), Page{File: notFound}) {
		data, err := render(base, pg.File, pg.Nav)
		if err != nil {
			// The shells are embedded and checked by the tests: a broken
			// one is a build defect, not a runtime condition.
			panic(err)
		}
		out[pg.File] = data
	}
	return out
}

// contentTypes maps the extensions of the embedded files to their types.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".svg":         "image/svg+xml",
	".json":        "application/json",
	".png":         "image/png",
	".txt":         "text/plain; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
}

// ContentType returns the type a file is served with, by its extension.
func ContentType(name string) string {
	if t, ok := contentTypes[path.Ext(name)]; ok {
		return t
	}
	return "application/octet-stream"
}

// Handler returns the handler of the pages and of /static/ (see the package
// documentation for the routes).
func Handler() http.Handler {
	started := time.Now()
	pages := shells()
	page := func(file string, status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			serve(w, r, file, pages[file], status, started)
		}
	}
	var gz compressed
	mux := http.NewServeMux()
	for route, name := range rootFiles {
		data, err := fs.ReadFile(FS, name)
		if err != nil {
			// The root files are embedded and checked by the tests.
			panic("web: " + err.Error())
		}
		mux.HandleFunc("GET "+route, func(w http.ResponseWriter, r *http.Request) {
			serve(w, r, name, data, http.StatusOK, started)
		})
	}
	for _, pg := range Pages() {
		if pg.Route == "/" {
			mux.HandleFunc("GET /{$}", page(pg.File, http.StatusOK))
			continue
		}
		mux.HandleFunc("GET "+pg.Route, page(pg.File, http.StatusOK))
		// The routes have always taken a trailing slash too.
		mux.HandleFunc("GET "+pg.Route+"/{$}", page(pg.File, http.StatusOK))
	}
	mux.HandleFunc("GET /static/{name...}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		if name == "" || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".html") {
			serve(w, r, notFound, pages[notFound], http.StatusNotFound, started)
			return
		}
		data, err := fs.ReadFile(FS, path.Clean(name))
		if err != nil {
			serve(w, r, notFound, pages[notFound], http.StatusNotFound, started)
			return
		}
		name = path.Clean(name)
		if name == workerScript {
			w.Header().Set("Content-Security-Policy", WasmCSP(w.Header().Get("Content-Security-Policy")))
		}
		if path.Ext(name) == ".wasm" {
			w.Header().Add("Vary", "Accept-Encoding")
			if acceptsGzip(r) {
				w.Header().Set("Content-Encoding", "gzip")
				data = gz.of(name, data)
			}
		}
		serve(w, r, name, data, http.StatusOK, started)
	})
	mux.HandleFunc("GET /", page(notFound, http.StatusNotFound))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "web: method "+r.Method+" is not allowed; use GET or HEAD", http.StatusMethodNotAllowed)
			return
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			w.Header().Set("Content-Security-Policy", CSP)
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		mux.ServeHTTP(w, r)
	})
}

// serve answers data, the content of the file name, with status.
func serve(w http.ResponseWriter, r *http.Request, name string, data []byte, status int, modtime time.Time) {
	w.Header().Set("Content-Type", ContentType(name))
	w.Header().Set("Cache-Control", "no-cache")
	if status != http.StatusOK {
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			_, _ = w.Write(data)
		}
		return
	}
	http.ServeContent(w, r, name, modtime, bytes.NewReader(data))
}

// compressed keeps the gzip encoding of the large files, made on first use.
type compressed struct {
	mu    sync.Mutex
	files map[string][]byte
}

// of returns the gzip encoding of data, the content of the file name.
func (c *compressed) of(name string, data []byte) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if z, ok := c.files[name]; ok {
		return z
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level: no error
	_, _ = zw.Write(data)                                    // writes to a bytes.Buffer do not fail
	_ = zw.Close()
	if c.files == nil {
		c.files = map[string][]byte{}
	}
	c.files[name] = buf.Bytes()
	return c.files[name]
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") || strings.TrimSpace(coding) == "*" {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
