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
//	/editor                 editor.html          board editor (?ruleset=...&pos=...): set up, check, play, share
//	/notation               notation.html        the notation explained, with examples checked by the engine
//	/archive                archive.html         stored games, import and export
//	/rules/tsoro            rules/tsoro.html     rules pages with a demo board
//	/rules/nsolo            rules/nsolo.html
//	/rules/choro            rules/choro.html
//	/offline                offline.html         play the computer in the browser, with or without a connection
//	/sw.js                  sw.js                the service worker (it must be served from / to control every page)
//	/manifest.webmanifest   manifest.webmanifest the web app manifest (its name and description in the page's language)
//	/favicon.ico            img/favicon.svg      the icon, for browsers that ask for it there
//	/leaderboard            leaderboard.html     the ratings of a preset (?ruleset=)
//	/login                  login.html           log in (an optional account), or log out
//	/signup                 signup.html          create an account
//	/profile/{name}         profile.html         a player's ratings, results and games
//	/puzzles                puzzles.html         puzzles: find the one winning move (?preset=&id=)
//	/lobby                  lobby.html           open challenges live, posting one, quick pairing
//	/static/...             the files of static/ (css/, js/, img/, demo/, engine.wasm)
//
// Any other path is answered 404 with the notfound.html shell (a request
// for an image, a script or data, by its Sec-Fetch-Dest, with one line of
// text). Handler routes with an http.ServeMux: each page's Route is a
// ServeMux pattern registered for GET (and so HEAD), with a trailing slash
// also accepted ("/game/{id}" and "/game/{id}/"). The shells are html/template
// templates sharing their top bar and footer: parts/topbar.html defines
// "topbar" and parts/footer.html "footer", which every shell calls once
// ({{template "topbar" .}}); the page's data (PageData) carries the menu,
// its own link marked as the current page (aria-current). Handler parses
// the parts and shells and renders every page once, at its start.
//
// # Weight and caching
//
// Every text file (the shells, the modules, CSS, SVG, JSON, the manifest
// and engine.wasm) is sent gzip-compressed to a client that accepts it,
// with Vary: Accept-Encoding; each file is hashed and compressed once, on
// its first request, and kept (a Handler is cheap to make; the 4 MB engine
// is compressed only when asked for). Each answer carries a strong ETag,
// a hash of the content (the gzip encoding has a tag of its own), and
// Cache-Control: no-cache: the browser keeps the file and revalidates it,
// and If-None-Match with its tag is answered 304 Not Modified without a
// body, on GET and HEAD. A new binary is thus picked up at the next load,
// and an unchanged file costs a header's bytes.
//
// The files keep their plain names rather than content-hashed ones with
// immutable caching: hashed names would need the server to rewrite, at
// start, every module's import specifiers (a module's hash then depends
// on its imports' hashes), the shells' links, the service worker's
// precache list, the worker's importScripts and the fetched URLs built in
// scripts, a rewriter of JavaScript source that a missed reference breaks
// silently; a revalidation is one small round trip per file, made in
// parallel. What costs round trips on a slow link is the import
// waterfall, one level of imports per round trip: each shell gets, after
// its page module's script, a <link rel="modulepreload"> for every module
// that module imports, directly or not (modules.go follows the static
// imports), so the browser asks for the whole graph at once.
//
// When the server has not set a Content-Security-Policy header, Handler
// sets a self-only one. The offline engine's worker (js/engine-worker.js)
// gets the same policy with 'wasm-unsafe-eval' added to script-src, the one
// source a browser needs to compile engine.wasm; no page gets it (see
// wasmbuild_test.go for how engine.wasm is built).
//
// # Languages
//
// Every text the pages show comes from the message catalogs of static/i18n
// (package internal/i18n). Handler renders each shell once per catalog,
// with the template function {{t "key" "name" value ...}}, and answers a
// page in the language the language menu chose (the LangCookie cookie),
// else the best of the request's Accept-Language, else English, with
// Content-Language and Vary: Accept-Language, Cookie. Each page embeds its
// language's catalog (<script type="application/json" id="i18n">) for the
// scripts, which format their texts with js/i18n.js.
package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"matombo/internal/i18n"
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
		{Route: "/editor", File: "editor.html", Nav: "/editor"},
		{Route: "/notation", File: "notation.html"},
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
		{Route: "/puzzles", File: "puzzles.html", Nav: "/puzzles"},
		{Route: "/lobby", File: "lobby.html", Nav: "/lobby"},
	}
}

// rootFiles are the files of static/ served at the root, not under /static/.
// Browsers ask for /favicon.ico whatever a page's icon link says: it gets
// the SVG icon rather than the not-found page.
var rootFiles = map[string]string{"/sw.js": "sw.js", "/manifest.webmanifest": "manifest.webmanifest", "/favicon.ico": "img/favicon.svg"}

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

// Menu lists the links of the top bar's main menu, in order; each label is
// a catalog key.
func Menu() []Link {
	return []Link{
		{Href: "/", Label: "nav.play"},
		{Href: "/lobby", Label: "nav.lobby"},
		{Href: "/archive", Label: "nav.archive"},
		{Href: "/rules/tsoro", Label: "nav.tsoro"},
		{Href: "/rules/nsolo", Label: "nav.nsolo"},
		{Href: "/rules/choro", Label: "nav.choro"},
		{Href: "/editor", Label: "nav.editor"},
		{Href: "/puzzles", Label: "nav.puzzles"},
		{Href: "/lab", Label: "nav.lab"},
		{Href: "/leaderboard", Label: "nav.ratings"},
		{Href: "/login", Label: "nav.login"},
	}
}

// Link is one link of the menu: its label is a catalog key; Current marks
// the page it is shown on.
type Link struct {
	Href, Label string
	Current     bool
}

// PageData is what a shell is rendered with: the menu, the page's own link
// (if it has one) marked as current, and the page's language.
type PageData struct {
	Menu []Link
	// Lang is the tag of the language the shell is rendered in.
	Lang string
	// Languages are the catalogs' languages, for the language menu.
	Languages []i18n.Meta
	// I18n is what the pages' scripts format their texts with
	// (static/js/i18n.js reads it from the page): a ScriptCatalog as JSON,
	// made once per language (encoding/json escapes <, > and &, so it is
	// safe inside its script element).
	I18n template.JS
}

// ScriptCatalog is the catalog a page embeds for its scripts.
type ScriptCatalog struct {
	Lang     string         `json:"lang"`
	Messages map[string]any `json:"messages"`
}

// ShellOnly reports whether the message key is written into the HTML by
// the shells alone, so that the pages' scripts never format it: the keys
// ending in "_html" (markup) and the rules pages' paragraphs
// (rules.tsoro.*, rules.nsolo.*, rules.choro.*; the demos' rules.demo.*
// are the scripts'). The pages embed the catalog without them, a third of
// its bytes.
func ShellOnly(key string) bool {
	if strings.HasSuffix(key, "_html") {
		return true
	}
	for _, p := range []string{"rules.tsoro.", "rules.nsolo.", "rules.choro."} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// ScriptMessages returns c's messages for the pages' scripts: every one
// but the ShellOnly keys.
func ScriptMessages(c *i18n.Catalog) map[string]any {
	out := c.Messages()
	for k := range out {
		if ShellOnly(k) {
			delete(out, k)
		}
	}
	return out
}

// Catalogs returns the message catalogs of static/i18n.
func Catalogs() (*i18n.Set, error) { return i18n.Load(FS, "i18n") }

// notFound is the shell of every unknown path.
const notFound = "notfound.html"

// parts are the templates every shell may call, each defined by its file.
var parts = []string{"parts/topbar.html", "parts/footer.html"}

// calls are the template calls every shell makes exactly once.
var calls = []string{`{{template "topbar" .}}`, `{{template "footer" .}}`}

// parseParts parses the shared parts into one template set, with the "t"
// function of the source catalog (render sets each language's).
func parseParts(cats *i18n.Set) (*template.Template, error) {
	return template.New("").Funcs(funcs(cats.Source())).ParseFS(FS, parts...)
}

// funcs are the template functions of a shell rendered in c's language:
// {{t "key" "name" value ...}} formats a message (a key ending in "_html"
// is trusted markup from the catalog, the rest are text).
func funcs(c *i18n.Catalog) template.FuncMap {
	return template.FuncMap{"t": func(key string, vars ...any) any {
		text := c.T(key, vars...)
		if strings.HasSuffix(key, "_html") {
			return template.HTML(text) // #nosec: the catalogs are the project's own files
		}
		return text
	}}
}

// Shell returns the HTML shell file rendered in English with its shared
// parts, its menu link nav (if any) marked as the current page.
func Shell(file, nav string) ([]byte, error) {
	return ShellIn(i18n.Source, file, nav)
}

// ShellIn is Shell rendered in the language lang.
func ShellIn(lang, file, nav string) ([]byte, error) {
	cats, err := Catalogs()
	if err != nil {
		return nil, err
	}
	c := cats.Get(lang)
	if c == nil {
		return nil, fmt.Errorf("web: no catalog for %q", lang)
	}
	r, err := newRenderer(cats)
	if err != nil {
		return nil, err
	}
	return r.render(c, file, nav)
}

// renderer renders shells: the parsed parts, the catalogs, each
// language's script catalog made once, and the module graph read once.
type renderer struct {
	base    *template.Template
	cats    *i18n.Set
	scripts map[string]template.JS
	modules *moduleGraph
}

// newRenderer parses the parts for the catalogs cats.
func newRenderer(cats *i18n.Set) (*renderer, error) {
	base, err := parseParts(cats)
	if err != nil {
		return nil, err
	}
	return &renderer{base: base, cats: cats, scripts: map[string]template.JS{}, modules: newModuleGraph()}, nil
}

// script returns the ScriptCatalog of c as JSON, made once.
func (r *renderer) script(c *i18n.Catalog) (template.JS, error) {
	if js, ok := r.scripts[c.Lang()]; ok {
		return js, nil
	}
	b, err := json.Marshal(ScriptCatalog{Lang: c.Lang(), Messages: ScriptMessages(c)})
	if err != nil {
		return "", err
	}
	r.scripts[c.Lang()] = template.JS(b)
	return r.scripts[c.Lang()], nil
}

// render parses the shell file on a copy of the parts and executes it in
// the language of c.
func (r *renderer) render(c *i18n.Catalog, file, nav string) ([]byte, error) {
	src, err := fs.ReadFile(FS, file)
	if err != nil {
		return nil, err
	}
	for _, call := range calls {
		if n := bytes.Count(src, []byte(call)); n != 1 {
			return nil, fmt.Errorf("web: %s calls %s %d times, want exactly once", file, call, n)
		}
	}
	script, err := r.script(c)
	if err != nil {
		return nil, err
	}
	data := PageData{Menu: Menu(), Lang: c.Lang(), I18n: script}
	for _, other := range r.cats.All() {
		data.Languages = append(data.Languages, other.Meta)
	}
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
	set, err := r.base.Clone()
	if err != nil {
		return nil, err
	}
	set.Funcs(funcs(c))
	t, err := set.New(file).Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("web: %s: %w", file, err)
	}
	var out bytes.Buffer
	if err := t.Execute(&out, data); err != nil {
		return nil, fmt.Errorf("web: %s: %w", file, err)
	}
	return r.modules.preloaded(out.Bytes())
}

// LangCookie is the cookie the language menu keeps its choice in.
const LangCookie = "matombo_lang"

// shellSet is every page's shell, and the not-found page's, rendered once
// in each language.
type shellSet struct {
	cats  *i18n.Set
	pages map[string]map[string][]byte // language, then shell file
}

// shells renders every shell in every language.
func shells() shellSet {
	cats, err := Catalogs()
	if err != nil {
		// The catalogs are embedded and checked by the tests: a broken
		// one is a build defect, not a runtime condition.
		panic(err)
	}
	r, err := newRenderer(cats)
	if err != nil {
		panic(err)
	}
	out := shellSet{cats: cats, pages: map[string]map[string][]byte{}}
	for _, c := range cats.All() {
		out.pages[c.Lang()] = map[string][]byte{}
		for _, pg := range append(Pages(), Page{File: notFound}) {
			data, err := r.render(c, pg.File, pg.Nav)
			if err != nil {
				panic(err)
			}
			out.pages[c.Lang()][pg.File] = data
		}
		m, err := Manifest(c)
		if err != nil {
			panic(err)
		}
		out.pages[c.Lang()][manifestFile] = m
	}
	return out
}

// pick returns the language r is answered in and the shells of that
// language: the language menu's cookie, else Accept-Language, else English.
func (s shellSet) pick(r *http.Request) (string, map[string][]byte) {
	chosen := ""
	if ck, err := r.Cookie(LangCookie); err == nil {
		chosen = ck.Value
	}
	lang := s.cats.Choose(chosen, r.Header.Get("Accept-Language")).Lang()
	return lang, s.pages[lang]
}

// Handler returns the handler of the pages and of /static/ (see the package
// documentation for the routes).
func Handler() http.Handler {
	set := shells()
	pages := map[string]map[string]*asset{} // language, then shell file
	for lang, files := range set.pages {
		pages[lang] = map[string]*asset{}
		for file, data := range files {
			pages[lang][file] = page(file, data)
		}
	}
	show := func(file string, status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			lang, _ := set.pick(r)
			w.Header().Set("Content-Language", lang)
			w.Header().Add("Vary", "Accept-Language, Cookie")
			serve(w, r, pages[lang][file], status)
		}
	}
	notFoundShell := show(notFound, http.StatusNotFound)
	notFoundPage := func(w http.ResponseWriter, r *http.Request) {
		if !missingFile(w, r) {
			notFoundShell(w, r)
		}
	}
	var files assets
	mux := http.NewServeMux()
	for route, name := range rootFiles {
		if files.static(name) == nil {
			// The root files are embedded and checked by the tests.
			panic("web: no " + name)
		}
		if name == manifestFile { // said in the page's language, like the pages
			mux.HandleFunc("GET "+route, show(name, http.StatusOK))
			continue
		}
		mux.HandleFunc("GET "+route, func(w http.ResponseWriter, r *http.Request) {
			serve(w, r, files.static(name), http.StatusOK)
		})
	}
	for _, pg := range Pages() {
		if pg.Route == "/" {
			mux.HandleFunc("GET /{$}", show(pg.File, http.StatusOK))
			continue
		}
		mux.HandleFunc("GET "+pg.Route, show(pg.File, http.StatusOK))
		// The routes have always taken a trailing slash too.
		mux.HandleFunc("GET "+pg.Route+"/{$}", show(pg.File, http.StatusOK))
	}
	mux.HandleFunc("GET /static/{name...}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		if name == "" || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".html") {
			notFoundPage(w, r)
			return
		}
		name = path.Clean(name)
		a := files.static(name)
		if a == nil {
			notFoundPage(w, r)
			return
		}
		if name == workerScript {
			w.Header().Set("Content-Security-Policy", WasmCSP(w.Header().Get("Content-Security-Policy")))
		}
		serve(w, r, a, http.StatusOK)
	})
	mux.HandleFunc("GET /", notFoundPage)
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
