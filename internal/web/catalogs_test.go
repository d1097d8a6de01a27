package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"matombo/internal/i18n"
)

// languages are the catalogs the app must have (issue 15): English, the
// source, and French, Portuguese, Swahili, Shona and Chichewa (Nyanja).
var languages = []string{"en", "fr", "pt", "sw", "sn", "ny"}

// markup matches what an _html message's markup must keep: its tags, and
// the ids and links the scripts and readers rely on.
var markup = regexp.MustCompile(`<(/?[a-z]+)|\b(id|href)="[^"]*"`)

// TestCatalogsComplete: every catalog has exactly the keys of en.json;
// each translation keeps the English text's placeholders and adds none,
// has every plural form of its language where the English text has forms,
// and an _html message keeps the English one's tags, ids and links.
func TestCatalogsComplete(t *testing.T) {
	cats, err := Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	src := cats.Source()
	for _, lang := range languages {
		c := cats.Get(lang)
		if c == nil {
			t.Errorf("no catalog for %s: add static/i18n/%s.json (docs/TRANSLATING.md)", lang, lang)
			continue
		}
		if c == src {
			continue
		}
		keys := c.Keys()
		for _, k := range src.Keys() {
			if _, ok := c.Forms(k); !ok {
				t.Errorf("%s.json lacks the key %s (English: %q)", lang, k, src.T(k, "count", 1))
			}
		}
		for _, k := range keys {
			if _, ok := src.Forms(k); !ok {
				t.Errorf("%s.json has the key %s, which en.json lacks: remove it", lang, k)
			}
		}
		cats, _ := i18n.Categories(lang)
		for _, k := range keys {
			en, ok := src.Forms(k)
			if !ok {
				continue
			}
			if want, got := src.Placeholders(k), c.Placeholders(k); !slices.Equal(want, got) {
				t.Errorf("%s.json: %s has the placeholders %v; the English text has %v", lang, k, got, want)
			}
			forms, _ := c.Forms(k)
			if _, plural := en["one"]; plural {
				for _, cat := range cats {
					if _, ok := forms[cat]; !ok {
						t.Errorf("%s.json: %s lacks the plural form %q (the English text is plural; %s has %v)", lang, k, cat, lang, cats)
					}
				}
			}
			for cat, text := range forms {
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s.json: %s (%s) is empty", lang, k, cat)
				}
			}
			if strings.HasSuffix(k, "_html") {
				if want, got := markupOf(en["other"]), markupOf(forms["other"]); !slices.Equal(want, got) {
					t.Errorf("%s.json: %s has the markup %v; the English text has %v", lang, k, got, want)
				}
			}
		}
	}
}

// markupOf lists the tags, ids and links of an _html message, sorted.
func markupOf(text string) []string {
	out := markup.FindAllString(text, -1)
	sort.Strings(out)
	return out
}

// TestCatalogsSayWhoChecked: the source is English, checked; the menu
// marks each other catalog a native speaker has not checked (meta.checked
// false), and each catalog names its language in itself and in English.
func TestCatalogsSayWhoChecked(t *testing.T) {
	cats, err := Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cats.All() {
		if c.Meta.Name == "" || c.Meta.English == "" {
			t.Errorf("%s.json: meta.name and meta.english are needed for the language menu", c.Lang())
		}
		if c.Lang() == i18n.Source && !c.Meta.Checked {
			t.Errorf("en.json is the source: meta.checked should be true")
		}
	}
	b, err := ShellIn("sn", "index.html", "/")
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, c := range cats.All() {
		opt := regexp.MustCompile(`<option value="` + c.Lang() + `"[^>]*>([^<]*)</option>`).FindStringSubmatch(page)
		if opt == nil {
			t.Errorf("the language menu has no option for %s", c.Lang())
			continue
		}
		marked := strings.Contains(opt[1], cats.Get("sn").T("lang.unchecked"))
		if marked == c.Meta.Checked {
			t.Errorf("the language menu's option for %s is %q: checked %v, marked as unchecked %v", c.Lang(), opt[1], c.Meta.Checked, marked)
		}
	}
}

// TestManifestInLanguage: the web app manifest is served in the language
// the pages are, with its lang, name and description from the catalog.
func TestManifestInLanguage(t *testing.T) {
	cats, err := Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	h := Handler()
	for _, c := range cats.All() {
		req := httptest.NewRequest("GET", "/manifest.webmanifest", nil)
		req.AddCookie(&http.Cookie{Name: LangCookie, Value: c.Lang()})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var m struct{ Name, Description, Lang, StartURL string }
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %v", c.Lang(), rec.Code, err)
		}
		if m.Lang != c.Lang() || m.Name != c.T("manifest.name") || m.Description != c.T("offline.meta") {
			t.Errorf("%s: manifest %+v", c.Lang(), m)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/manifest+json" {
			t.Errorf("%s: Content-Type %q", c.Lang(), ct)
		}
	}
}
