package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
)

// embeddedCatalog matches the catalog every page carries for its scripts.
var embeddedCatalog = regexp.MustCompile(`<script type="application/json" id="i18n">([^<]*)</script>`)

// TestShellsInEveryLanguage renders every shell in every catalog's
// language: each names its language and embeds that catalog for the
// scripts, as valid JSON.
func TestShellsInEveryLanguage(t *testing.T) {
	cats, err := Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cats.All() {
		for _, pg := range append(Pages(), Page{File: notFound}) {
			b, err := ShellIn(c.Lang(), pg.File, pg.Nav)
			if err != nil {
				t.Fatalf("%s in %s: %v", pg.File, c.Lang(), err)
			}
			if !regexp.MustCompile(`<html lang="` + c.Lang() + `"`).Match(b) {
				t.Errorf("%s in %s: the html element does not name the language", pg.File, c.Lang())
			}
			m := embeddedCatalog.FindSubmatch(b)
			if m == nil {
				t.Fatalf("%s in %s: no embedded catalog", pg.File, c.Lang())
			}
			var sc ScriptCatalog
			if err := json.Unmarshal(m[1], &sc); err != nil || sc.Lang != c.Lang() || len(sc.Messages) < len(cats.Source().Keys()) {
				t.Errorf("%s in %s: the embedded catalog is %v (%d messages), want %s's with every key", pg.File, c.Lang(), err, len(sc.Messages), c.Lang())
			}
		}
	}
	if _, err := ShellIn("xx", "index.html", "/"); err == nil {
		t.Error("a shell in a language without a catalog was rendered")
	}
}

// TestLanguageChoice: the language menu's cookie wins over Accept-Language,
// which wins over English; pages say their language and that they vary by
// both.
func TestLanguageChoice(t *testing.T) {
	cats, err := Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	h := Handler()
	for _, c := range cats.All() {
		for _, how := range []string{"cookie", "header"} {
			req := httptest.NewRequest("GET", "/", nil)
			if how == "cookie" {
				req.AddCookie(&http.Cookie{Name: LangCookie, Value: c.Lang()})
				req.Header.Set("Accept-Language", "zz")
			} else {
				req.Header.Set("Accept-Language", "zz-ZZ, "+c.Lang()+";q=0.8")
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if got := rec.Header().Get("Content-Language"); got != c.Lang() {
				t.Errorf("%s by %s: Content-Language %q", c.Lang(), how, got)
			}
			if rec.Header().Get("Vary") == "" {
				t.Errorf("%s by %s: no Vary header", c.Lang(), how)
			}
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/nowhere", nil))
	if rec.Code != http.StatusNotFound || rec.Header().Get("Content-Language") != "en" {
		t.Errorf("unknown path: %d, Content-Language %q", rec.Code, rec.Header().Get("Content-Language"))
	}
}
