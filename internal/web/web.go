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
//	/archive                archive.html         stored games, import and export
//	/rules/tsoro            rules/tsoro.html     rules pages with a demo board
//	/rules/nsolo            rules/nsolo.html
//	/rules/choro            rules/choro.html
//	/leaderboard            leaderboard.html     the ratings of a preset (?ruleset=)
//	/login                  login.html           log in (an optional account), or log out
//	/signup                 signup.html          create an account
//	/profile/{name}         profile.html         a player's ratings, results and games
//	/static/...             the files of static/ (css/, js/, img/, demo/)
//
// Any other path is answered 404 with the notfound.html shell. The shells
// share their top bar and footer: each holds the markers <!--#topbar--> and
// <!--#footer-->, which Handler replaces once, at its start, by
// parts/topbar.html (with the page's own link in the menu marked
// aria-current) and parts/footer.html. HTML is sent
// with Cache-Control: no-cache; assets are revalidated too (they carry no
// version in their names), so a new binary is picked up at once. When the
// server has not set a Content-Security-Policy header, Handler sets a
// self-only one.
package web

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"
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

// Pages lists the routes of the HTML shells ("{}" stands for one path
// segment) and the shell each one serves.
func Pages() []Page {
	return []Page{
		{Route: "/", File: "index.html", Nav: "/"},
		{Route: "/game/{}", File: "game.html"},
		{Route: "/join/{}/{}", File: "join.html"},
		{Route: "/replay/{}", File: "replay.html"},
		{Route: "/position", File: "position.html"},
		{Route: "/archive", File: "archive.html", Nav: "/archive"},
		{Route: "/lab", File: "lab.html", Nav: "/lab"},
		{Route: "/rules/tsoro", File: "rules/tsoro.html", Nav: "/rules/tsoro"},
		{Route: "/rules/nsolo", File: "rules/nsolo.html", Nav: "/rules/nsolo"},
		{Route: "/rules/choro", File: "rules/choro.html", Nav: "/rules/choro"},
		{Route: "/leaderboard", File: "leaderboard.html", Nav: "/leaderboard"},
		{Route: "/login", File: "login.html", Nav: "/login"},
		{Route: "/signup", File: "signup.html"},
		{Route: "/profile/{}", File: "profile.html"},
	}
}

// Page is one route of the front-end and the HTML shell that serves it.
type Page struct {
	Route string
	File  string
	Nav   string // the menu link marked as the current page; "" for none
}

// notFound is the shell of every unknown path.
const notFound = "notfound.html"

// Shell returns the HTML shell file with its shared parts filled in, its
// menu link nav (if any) marked as the current page.
func Shell(file, nav string) ([]byte, error) {
	data, err := fs.ReadFile(FS, file)
	if err != nil {
		return nil, err
	}
	top, err := fs.ReadFile(FS, "parts/topbar.html")
	if err != nil {
		return nil, err
	}
	foot, err := fs.ReadFile(FS, "parts/footer.html")
	if err != nil {
		return nil, err
	}
	if nav != "" {
		link := []byte(`<a href="` + nav + `">`)
		if !bytes.Contains(top, link) {
			return nil, fmt.Errorf("web: %s: the menu has no link to %s", file, nav)
		}
		top = bytes.Replace(top, link, []byte(`<a href="`+nav+`" aria-current="page">`), 1)
	}
	for marker, part := range map[string][]byte{"<!--#topbar-->\n": top, "<!--#footer-->\n": foot} {
		if bytes.Count(data, []byte(marker)) != 1 {
			return nil, fmt.Errorf("web: %s has not exactly one %s marker", file, strings.TrimSpace(marker))
		}
		data = bytes.Replace(data, []byte(marker), part, 1)
	}
	return data, nil
}

// shells fills in every page's shell, and the not-found page's, once.
func shells() map[string][]byte {
	out := map[string][]byte{}
	for _, pg := range append(Pages(), Page{File: notFound}) {
		data, err := Shell(pg.File, pg.Nav)
		if err != nil {
			// The shells are embedded and checked by the tests: a broken
			// one is a build defect, not a runtime condition.
			panic(err)
		}
		out[pg.File] = data
	}
	return out
}

// match reports whether the URL path p fits the route pattern r.
func match(r, p string) bool {
	rs := strings.Split(strings.Trim(r, "/"), "/")
	ps := strings.Split(strings.Trim(p, "/"), "/")
	if len(rs) != len(ps) {
		return false
	}
	for i := range rs {
		if rs[i] == "{}" {
			if ps[i] == "" {
				return false
			}
			continue
		}
		if rs[i] != ps[i] {
			return false
		}
	}
	return true
}

// contentTypes maps the extensions of the embedded files to their types.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".json": "application/json",
	".png":  "image/png",
	".txt":  "text/plain; charset=utf-8",
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
		p := r.URL.Path
		if name, ok := strings.CutPrefix(p, "/static/"); ok {
			if name == "" || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".html") {
				serve(w, r, notFound, pages[notFound], http.StatusNotFound, started)
				return
			}
			data, err := fs.ReadFile(FS, path.Clean(name))
			if err != nil {
				serve(w, r, notFound, pages[notFound], http.StatusNotFound, started)
				return
			}
			serve(w, r, name, data, http.StatusOK, started)
			return
		}
		for _, pg := range Pages() {
			if match(pg.Route, p) {
				serve(w, r, pg.File, pages[pg.File], http.StatusOK, started)
				return
			}
		}
		serve(w, r, notFound, pages[notFound], http.StatusNotFound, started)
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
