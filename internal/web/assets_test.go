package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// served lists what Handler serves: every page route (by an example
// path), the root files and every asset under /static/, with its content.
func served(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, pg := range Pages() {
		target := strings.NewReplacer("{id}", "x1", "{code}", "c", "{name}", "ada").Replace(pg.Route)
		b, err := Shell(pg.File, pg.Nav)
		if err != nil {
			t.Fatal(err)
		}
		out[target] = b
	}
	for route, name := range rootFiles {
		b, _ := fs.ReadFile(FS, name)
		out[route] = b
	}
	for _, f := range files(t) {
		if path.Ext(f) == ".html" {
			continue
		}
		b, _ := fs.ReadFile(FS, f)
		out["/static/"+f] = b
	}
	return out
}

func request(h http.Handler, method, target string, header ...string) *http.Response {
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func gunzip(t *testing.T, z []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCompressedWithEntityTags: every compressible file goes gzip-encoded
// to a client that accepts it (unless gzip would make it larger), with
// Vary: Accept-Encoding and a strong entity tag per encoding, and each tag
// gets 304 Not Modified, on GET and on HEAD.
func TestCompressedWithEntityTags(t *testing.T) {
	h := Handler()
	var plainBytes, gzBytes int
	for target, want := range served(t) {
		ext := path.Ext(strings.TrimSuffix(target, "/"))
		if !strings.HasPrefix(target, "/static/") && !strings.HasSuffix(target, ".js") && !strings.HasSuffix(target, ".webmanifest") {
			ext = ".html"
		}
		plain := request(h, "GET", target)
		pb, _ := io.ReadAll(plain.Body)
		if plain.StatusCode != http.StatusOK || !bytes.Equal(pb, want) || plain.Header.Get("Content-Encoding") != "" {
			t.Errorf("GET %s: status %d, %d bytes of %d, encoding %q", target, plain.StatusCode, len(pb), len(want), plain.Header.Get("Content-Encoding"))
			continue
		}
		tag := plain.Header.Get("ETag")
		if !strings.HasPrefix(tag, `"`) || len(tag) < 10 || plain.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s: ETag %q, Cache-Control %q", target, tag, plain.Header.Get("Cache-Control"))
		}
		z := request(h, "GET", target, "Accept-Encoding", "gzip, deflate, br")
		zb, _ := io.ReadAll(z.Body)
		ztag := z.Header.Get("ETag")
		if compressible[ext] {
			if !strings.Contains(strings.Join(z.Header.Values("Vary"), ", "), "Accept-Encoding") {
				t.Errorf("GET %s: Vary %q", target, z.Header.Values("Vary"))
			}
			if z.Header.Get("Content-Encoding") == "gzip" {
				if got := gunzip(t, zb); !bytes.Equal(got, want) || len(zb) >= len(want) {
					t.Errorf("GET %s gzip: %d bytes decode to %d, want %d", target, len(zb), len(got), len(want))
				}
				if ztag == tag || ztag == "" {
					t.Errorf("GET %s: the gzip encoding's tag %q, the file's %q", target, ztag, tag)
				}
			} else if len(want) > 512 {
				t.Errorf("GET %s: %d bytes not compressed", target, len(want))
			}
			if ext != ".wasm" {
				plainBytes += len(want)
				gzBytes += len(zb)
			}
		} else if z.Header.Get("Content-Encoding") != "" || !bytes.Equal(zb, want) {
			t.Errorf("GET %s: %s compressed", target, ext)
		}
		for _, tc := range []struct {
			method, tag, ae string
		}{{"GET", tag, ""}, {"HEAD", tag, ""}, {"GET", ztag, "gzip"}, {"HEAD", ztag, "gzip"}, {"GET", `"other", W/` + ztag, "gzip"}, {"GET", "*", ""}} {
			res := request(h, tc.method, target, "If-None-Match", tc.tag, "Accept-Encoding", tc.ae)
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != http.StatusNotModified || len(b) != 0 || res.Header.Get("ETag") == "" {
				t.Errorf("%s %s If-None-Match %s: status %d, %d bytes, ETag %q", tc.method, target, tc.tag, res.StatusCode, len(b), res.Header.Get("ETag"))
			}
		}
		if res := request(h, "GET", target, "If-None-Match", `"stale"`); res.StatusCode != http.StatusOK {
			t.Errorf("GET %s with a stale tag: status %d", target, res.StatusCode)
		}
		if res := request(h, "HEAD", target, "Accept-Encoding", "gzip"); res.StatusCode != http.StatusOK || res.Header.Get("ETag") != ztag {
			t.Errorf("HEAD %s: status %d, ETag %q, want %q", target, res.StatusCode, res.Header.Get("ETag"), ztag)
		}
	}
	t.Logf("text files: %d bytes, %d gzip-compressed", plainBytes, gzBytes)
	// The tags come from the content: another handler gives the same, and
	// two files differ.
	a := request(Handler(), "GET", "/static/js/game.js").Header.Get("ETag")
	if b := request(h, "GET", "/static/js/game.js").Header.Get("ETag"); a != b {
		t.Errorf("two handlers tag game.js %q and %q", a, b)
	}
	if b := request(h, "GET", "/static/js/home.js").Header.Get("ETag"); a == b {
		t.Errorf("game.js and home.js share the tag %q", a)
	}
	// An unknown path is the 404 page, compressed too, with no tag.
	res := request(h, "GET", "/no/such/page", "Accept-Encoding", "gzip")
	if b, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusNotFound || res.Header.Get("ETag") != "" ||
		res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(string(gunzip(t, b)), "Nothing here") {
		t.Errorf("404: status %d, ETag %q, encoding %q", res.StatusCode, res.Header.Get("ETag"), res.Header.Get("Content-Encoding"))
	}
}

// TestShellsPreloadTheirModules: each shell has a modulepreload link for
// every module its module scripts import, directly or not, and for no
// other.
func TestShellsPreloadTheirModules(t *testing.T) {
	for _, pg := range append(Pages(), Page{File: notFound}) {
		b, err := Shell(pg.File, pg.Nav)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		scripts := moduleScript.FindAllStringSubmatch(text, -1)
		if scripts == nil {
			t.Errorf("%s: no page module", pg.File)
			continue
		}
		// The imports, followed with the test's own pattern.
		want := []string{}
		seen := map[string]bool{}
		var queue []string
		for _, m := range scripts {
			seen[m[1]] = true
			queue = append(queue, m[1])
		}
		for ; len(queue) > 0; queue = queue[1:] {
			src, _ := fs.ReadFile(FS, queue[0])
			for _, im := range importRef.FindAllStringSubmatch(string(src), -1) {
				dep := path.Join(path.Dir(queue[0]), im[1]+im[2])
				if !seen[dep] {
					seen[dep] = true
					want = append(want, "/static/"+dep)
					queue = append(queue, dep)
				}
			}
		}
		var got []string
		for _, l := range preloadLink.FindAllStringSubmatch(text, -1) {
			got = append(got, l[1])
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s preloads %v, want %v", pg.File, got, want)
		}
		if i := strings.LastIndex(text, `rel="modulepreload"`); i > strings.Index(text, "</head>") {
			t.Errorf("%s: the preload links are not in the head", pg.File)
		}
	}
	if _, err := preloaded([]byte(`<script type="module" src="/static/js/nowhere.js"></script>`)); err == nil {
		t.Error("a page module that does not exist is not refused")
	}
}

var preloadLink = regexp.MustCompile(`<link rel="modulepreload" href="([^"]+)">`)

// TestNotFoundByDestination: a missing page gets the not-found page; a
// missing image, script or fetch gets a line of text.
func TestNotFoundByDestination(t *testing.T) {
	h := Handler()
	for dest, page := range map[string]bool{"": true, "document": true, "iframe": true, "image": false, "script": false, "empty": false} {
		for _, target := range []string{"/apple-touch-icon.png", "/static/js/missing.js", "/nope"} {
			res := request(h, "GET", target, "Sec-Fetch-Dest", dest, "Accept-Encoding", "gzip")
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("%s (%s): status %d", target, dest, res.StatusCode)
			}
			if got := res.Header.Get("Content-Type") == "text/html; charset=utf-8"; got != page {
				t.Errorf("%s (%s): Content-Type %q, the page: %v", target, dest, res.Header.Get("Content-Type"), page)
			}
			if !page && (len(b) > 100 || !strings.Contains(string(b), target)) {
				t.Errorf("%s (%s): %q", target, dest, b)
			}
		}
	}
}
