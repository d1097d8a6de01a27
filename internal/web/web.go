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
//	/static/...             the files of static/ (css/, js/, img/, demo/)
//
// Any other path is answered 404 with the notfound.html shell. HTML is sent
// with Cache-Control: no-cache; assets are revalidated too (they carry no
// version in their names), so a new binary is picked up at once. When the
// server has not set a Content-Security-Policy header, Handler sets a
// self-only one.
package web

import (
	"bytes"
	"embed"
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
		{Route: "/", File: "index.html"},
		{Route: "/game/{}", File: "game.html"},
		{Route: "/join/{}/{}", File: "join.html"},
		{Route: "/replay/{}", File: "replay.html"},
		{Route: "/position", File: "position.html"},
		{Route: "/archive", File: "archive.html"},
		{Route: "/lab", File: "lab.html"},
		{Route: "/rules/tsoro", File: "rules/tsoro.html"},
		{Route: "/rules/nsolo", File: "rules/nsolo.html"},
		{Route: "/rules/choro", File: "rules/choro.html"},
	}
}

// Page is one route of the front-end and the HTML shell that serves it.
type Page struct {
	Route string
	File  string
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
				serveFile(w, r, "notfound.html", http.StatusNotFound, started)
				return
			}
			serveFile(w, r, path.Clean(name), http.StatusOK, started)
			return
		}
		for _, pg := range Pages() {
			if match(pg.Route, p) {
				serveFile(w, r, pg.File, http.StatusOK, started)
				return
			}
		}
		serveFile(w, r, "notfound.html", http.StatusNotFound, started)
	})
}

func serveFile(w http.ResponseWriter, r *http.Request, name string, status int, modtime time.Time) {
	data, err := fs.ReadFile(FS, name)
	if err != nil {
		data, err = fs.ReadFile(FS, "notfound.html")
		if err != nil {
			http.Error(w, "web: not found", http.StatusNotFound)
			return
		}
		name, status = "notfound.html", http.StatusNotFound
	}
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
