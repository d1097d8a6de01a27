package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
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

func getWith(t *testing.T, h http.Handler, target string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestRootFiles(t *testing.T) {
	h := Handler()
	for target, ct := range map[string]string{
		"/sw.js":                "text/javascript; charset=utf-8",
		"/manifest.webmanifest": "application/manifest+json",
	} {
		res := get(t, h, "GET", target)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != ct || res.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s: %d %q %q", target, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"))
		}
	}
	res := get(t, h, "GET", "/offline")
	if res.StatusCode != http.StatusOK || !strings.Contains(body(t, res), `src="/static/js/offline.js"`) {
		t.Errorf("GET /offline: %d", res.StatusCode)
	}
	if res := get(t, h, "GET", "/static/sw.js"); res.StatusCode != http.StatusOK {
		t.Errorf("GET /static/sw.js: %d", res.StatusCode) // the same file; only /sw.js can control the site
	}
}

func TestManifest(t *testing.T) {
	data, err := fs.ReadFile(FS, "manifest.webmanifest")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Name, ShortName, StartURL, Scope, Display string
		Icons                                     []struct{ Src, Sizes, Type string }
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	var raw map[string]any
	_ = json.Unmarshal(data, &raw)
	m.ShortName, _ = raw["short_name"].(string)
	m.StartURL, _ = raw["start_url"].(string)
	if m.Name == "" || m.ShortName == "" || m.Display != "standalone" || m.Scope != "/" || m.StartURL != "/offline" {
		t.Errorf("manifest fields: %+v", m)
	}
	sizes := map[string]bool{}
	for _, ic := range m.Icons {
		if !routeExists(ic.Src) || ContentType(ic.Src) != ic.Type {
			t.Errorf("icon %s: missing or of another type than %s", ic.Src, ic.Type)
		}
		sizes[ic.Sizes] = true
	}
	if !sizes["192x192"] || !sizes["512x512"] {
		t.Errorf("an installable app needs 192x192 and 512x512 icons: %v", sizes)
	}
}

func TestEngineWasmServedGzipped(t *testing.T) {
	h := Handler()
	raw, err := fs.ReadFile(FS, "engine.wasm")
	if err != nil {
		t.Fatal(err)
	}
	plain := getWith(t, h, "/static/engine.wasm", nil)
	if b, _ := io.ReadAll(plain.Body); !bytes.Equal(b, raw) || plain.Header.Get("Content-Encoding") != "" {
		t.Errorf("without Accept-Encoding: %d bytes, encoding %q", len(b), plain.Header.Get("Content-Encoding"))
	}
	if ct := plain.Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("Content-Type %q", ct)
	}
	for _, ae := range []string{"gzip, deflate, br", "br;q=1.0, GZIP;q=0.5", "*"} {
		res := getWith(t, h, "/static/engine.wasm", map[string]string{"Accept-Encoding": ae})
		if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: encoding %q, vary %q", ae, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
			continue
		}
		z, _ := io.ReadAll(res.Body)
		if len(z) > maxWasmGzip {
			t.Errorf("%s: %d bytes sent (%d uncompressed)", ae, len(z), len(raw))
		}
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(b, raw) {
			t.Errorf("%s: the gzip body does not decode to engine.wasm: %v", ae, err)
		}
	}
	for _, ae := range []string{"gzip;q=0", "br", "identity"} {
		res := getWith(t, h, "/static/engine.wasm", map[string]string{"Accept-Encoding": ae})
		if res.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: sent %q", ae, res.Header.Get("Content-Encoding"))
		}
	}
}

func TestWasmCSPOnlyForTheWorker(t *testing.T) {
	h := Handler()
	res := get(t, h, "GET", "/static/js/engine-worker.js")
	if csp := res.Header.Get("Content-Security-Policy"); csp != WasmCSP(CSP) || !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval';") {
		t.Errorf("worker CSP %q", csp)
	}
	for _, target := range []string{"/offline", "/", "/static/js/offline.js", "/sw.js", "/static/engine.wasm"} {
		if csp := get(t, h, "GET", target).Header.Get("Content-Security-Policy"); csp != CSP {
			t.Errorf("%s: CSP %q", target, csp)
		}
	}
	// A policy the server set (with its WebSocket origins) is extended, not replaced.
	server := strings.Replace(CSP, "connect-src 'self'", "connect-src 'self' ws://h:1", 1)
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Security-Policy", server)
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/static/js/engine-worker.js", nil))
	if got := rec.Result().Header.Get("Content-Security-Policy"); got != WasmCSP(server) || !strings.Contains(got, "ws://h:1") {
		t.Errorf("server CSP extended to %q", got)
	}
}

var (
	precacheList = regexp.MustCompile(`(?s)const PRECACHE = \[(.*?)\];`)
	quoted       = regexp.MustCompile(`"([^"]+)"`)
	relImport    = regexp.MustCompile(`(?m)^import\s.*?from\s+"\./([^"]+)";`)
)

// TestServiceWorkerCachesTheOfflinePage: the service worker's PRECACHE
// holds the offline page and every file it loads, followed through the
// shell's links, the modules' imports, the worker's scripts and the
// manifest's icons, and nothing that does not exist.
func TestServiceWorkerCachesTheOfflinePage(t *testing.T) {
	sw, err := fs.ReadFile(FS, "sw.js")
	if err != nil {
		t.Fatal(err)
	}
	m := precacheList.FindSubmatch(sw)
	if m == nil {
		t.Fatal("sw.js has no PRECACHE list")
	}
	var cached []string
	for _, q := range quoted.FindAllSubmatch(m[1], -1) {
		cached = append(cached, string(q[1]))
	}
	for _, u := range cached {
		if !routeExists(u) {
			t.Errorf("PRECACHE has %s, which does not exist", u)
		}
	}
	shell, err := Shell("offline.html", "")
	if err != nil {
		t.Fatal(err)
	}
	need := map[string]bool{"/offline": true}
	var queue []string
	add := func(u string) {
		u, _, _ = strings.Cut(u, "?")
		if !need[u] {
			need[u] = true
			queue = append(queue, u)
		}
	}
	for _, ref := range attrRef.FindAllStringSubmatch(string(shell), -1) {
		if strings.HasPrefix(ref[1], "/static/") || ref[1] == "/manifest.webmanifest" {
			add(ref[1])
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		name := strings.TrimPrefix(u, "/static/")
		if u == "/manifest.webmanifest" {
			name = "manifest.webmanifest"
		}
		ext := path.Ext(name)
		if ext != ".js" && ext != ".webmanifest" && ext != ".css" {
			continue
		}
		data, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		for _, r := range relImport.FindAllSubmatch(data, -1) {
			add("/static/" + path.Join(path.Dir(name), string(r[1])))
		}
		for _, r := range staticRef.FindAllSubmatch(data, -1) {
			add(string(r[1]))
		}
	}
	for u := range need {
		if !slices.Contains(cached, u) {
			t.Errorf("the offline page needs %s, which sw.js does not cache", u)
		}
	}
	for _, must := range []string{"/static/engine.wasm", "/static/js/wasm_exec.js", "/static/js/engine-worker.js", "/static/js/board.js"} {
		if !need[must] {
			t.Errorf("the walk did not reach %s: the test misses a link", must)
		}
	}
}
