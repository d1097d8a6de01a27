package i18n

import (
	"strings"
	"testing"
	"testing/fstest"
)

const enJSON = `{"meta": {"lang": "en", "name": "English", "english": "English", "checked": true},
 "messages": {"game.resign": "Resign", "game.stones": {"one": "{count} stone", "other": "{count} stones"},
  "game.only_en": "Only in English", "game.to_move": "{side} to move"}}`

const frJSON = `{"meta": {"lang": "fr", "name": "Français", "english": "French", "checked": false},
 "messages": {"game.resign": "Abandonner", "game.stones": {"one": "{count} graine", "other": "{count} graines"},
  "game.to_move": "Au tour de {side}"}}`

func testSet(t *testing.T) *Set {
	t.Helper()
	s, err := Load(fstest.MapFS{"c/en.json": {Data: []byte(enJSON)}, "c/fr.json": {Data: []byte(frJSON)}}, "c")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFormatting(t *testing.T) {
	s := testSet(t)
	en, fr := s.Get("en"), s.Get("fr")
	for _, c := range []struct {
		cat  *Catalog
		key  string
		vars []any
		want string
	}{
		{en, "game.resign", nil, "Resign"},
		{fr, "game.resign", nil, "Abandonner"},
		{en, "game.stones", []any{"count", 1}, "1 stone"},
		{en, "game.stones", []any{"count", 0}, "0 stones"},
		{en, "game.stones", []any{"count", 2}, "2 stones"},
		{fr, "game.stones", []any{"count", 0}, "0 graine"}, // French "one" is 0 and 1
		{fr, "game.stones", []any{"count", 1}, "1 graine"},
		{fr, "game.stones", []any{"count", 2}, "2 graines"},
		{fr, "game.to_move", []any{"side", "Nord"}, "Au tour de Nord"},
		{en, "game.to_move", nil, "{side} to move"},  // a name without a value stays
		{fr, "game.only_en", nil, "Only in English"}, // the source's text where fr lacks the key
		{fr, "game.nowhere", nil, "game.nowhere"},    // no catalog has it: the key shows
	} {
		if got := c.cat.T(c.key, c.vars...); got != c.want {
			t.Errorf("%s T(%q, %v) = %q, want %q", c.cat.Lang(), c.key, c.vars, got, c.want)
		}
	}
	if got := en.Placeholders("game.stones"); len(got) != 1 || got[0] != "count" {
		t.Errorf("placeholders of game.stones = %v", got)
	}
	msgs := fr.Messages()
	if msgs["game.only_en"] != "Only in English" || msgs["game.resign"] != "Abandonner" {
		t.Errorf("fr's script messages lack the fallback or the translation: %v", msgs)
	}
	if forms, ok := msgs["game.stones"].(map[string]string); !ok || forms["other"] != "{count} graines" {
		t.Errorf("fr's plural message for scripts = %#v", msgs["game.stones"])
	}
}

func TestChoose(t *testing.T) {
	s := testSet(t)
	for _, c := range []struct{ chosen, accept, want string }{
		{"", "", "en"},
		{"", "fr-FR,fr;q=0.9,en;q=0.8", "fr"},
		{"", "de-DE,en;q=0.5,fr;q=0.7", "fr"},
		{"", "de, pt", "en"},
		{"", "fr;q=0", "en"},
		{"", "fr;q=bad", "en"},
		{"en", "fr", "en"}, // the menu's choice wins
		{"FR", "", "fr"},
		{"xx", "fr", "fr"}, // an unknown choice is ignored
	} {
		if got := s.Choose(c.chosen, c.accept).Lang(); got != c.want {
			t.Errorf("Choose(%q, %q) = %s, want %s", c.chosen, c.accept, got, c.want)
		}
	}
	if all := s.All(); len(all) != 2 || all[0].Lang() != "en" {
		t.Errorf("All() does not start with the source: %v", all)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"not json", `{`, "unexpected EOF"},
		{"unknown lang", `{"meta": {"lang": "xx", "name": "X", "english": "X"}, "messages": {}}`, `"xx" has no plural rules`},
		{"no name", `{"meta": {"lang": "en"}, "messages": {}}`, "meta.name and meta.english"},
		{"bad key", `{"meta": {"lang": "en", "name": "E", "english": "E"}, "messages": {"Resign": "x"}}`, "keys are dotted"},
		{"bad value", `{"meta": {"lang": "en", "name": "E", "english": "E"}, "messages": {"a.b": 3}}`, "a text or an object"},
		{"bad form", `{"meta": {"lang": "en", "name": "E", "english": "E"}, "messages": {"a.b": {"few": "x", "one": "y", "other": "z"}}}`, `"few" is not one of`},
		{"missing form", `{"meta": {"lang": "en", "name": "E", "english": "E"}, "messages": {"a.b": {"other": "z"}}}`, `"one" is missing`},
		{"unknown field", `{"meta": {"lang": "en", "name": "E", "english": "E"}, "messages": {}, "extra": 1}`, "unknown field"},
	} {
		if _, err := Parse([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Parse error %v, want one saying %q", c.name, err, c.want)
		}
	}
	if _, err := Load(fstest.MapFS{"c/fr.json": {Data: []byte(frJSON)}}, "c"); err == nil || !strings.Contains(err.Error(), "source catalog") {
		t.Errorf("Load without en.json: %v", err)
	}
	if _, err := Load(fstest.MapFS{"c/en.json": {Data: []byte(enJSON)}, "c/pt.json": {Data: []byte(frJSON)}}, "c"); err == nil || !strings.Contains(err.Error(), "fr.json") {
		t.Errorf("Load of fr's catalog named pt.json: %v", err)
	}
}

func TestCategories(t *testing.T) {
	for _, l := range Languages() {
		cats, ok := Categories(l)
		if !ok || cats[len(cats)-1] != "other" {
			t.Errorf("%s: categories %v", l, cats)
		}
		for n := 0; n < 200; n++ {
			if c := Category(l, n); !contains(cats, c) {
				t.Errorf("%s: Category(%d) = %q, not one of %v", l, n, c, cats)
			}
		}
	}
	if Category("en", -1) != "one" || Category("zz", 1) != "other" {
		t.Error("Category of -1 in English or of an unknown language")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(enJSON))
	f.Add([]byte(frJSON))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			return
		}
		for _, k := range c.Keys() {
			_ = c.T(k, "count", 3, "side", "S")
		}
	})
}
