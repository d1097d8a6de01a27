// Package i18n holds the app's message catalogs: one file per language,
// each a JSON object with the language's facts and its messages.
//
//	{
//	  "meta": {"lang": "sn", "name": "chiShona", "english": "Shona", "checked": false},
//	  "messages": {
//	    "game.resign": "Resign",
//	    "game.stones": {"one": "{count} stone", "other": "{count} stones"}
//	  }
//	}
//
// A message is a text, or an object of plural forms keyed by the CLDR
// category names the language uses (see Categories); placeholders are
// written {name} and filled by the caller's values, {count} choosing the
// plural form. English is the source catalog: every other catalog has
// exactly its keys, and a text missing from one falls back to English.
//
// The web package renders its HTML shells once per language with a "t"
// template function and embeds the catalog in each page for the scripts
// (static/js/i18n.js), which format messages by the same rules.
package i18n

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Source is the language every other catalog is translated from.
const Source = "en"

// Meta is what a catalog says of its language.
type Meta struct {
	Lang    string `json:"lang"`    // the language's BCP 47 tag: "en", "sn", "ny"
	Name    string `json:"name"`    // its name in itself: "chiShona"
	English string `json:"english"` // its name in English: "Shona"
	// Checked reports whether a native speaker has checked the catalog;
	// the language menu says so of those that are not.
	Checked bool `json:"checked"`
}

// Forms are the texts of one message: "other" alone for a plain text, or
// one per plural category of the language.
type Forms map[string]string

// Catalog is the messages of one language.
type Catalog struct {
	Meta     Meta
	messages map[string]Forms
	fallback *Catalog // the source catalog, or nil for the source itself
}

// placeholder matches a {name} in a text.
var placeholder = regexp.MustCompile(`\{([a-zA-Z_][a-zA-Z0-9_]*)\}`)

// keyPattern is what a message key may look like: dotted lower-case words.
var keyPattern = regexp.MustCompile(`^[a-z0-9_]+(\.[a-zA-Z0-9_-]+)+$`)

// file is a catalog as written.
type file struct {
	Meta     Meta                       `json:"meta"`
	Messages map[string]json.RawMessage `json:"messages"`
}

// Parse reads a catalog. It refuses a file whose language is not one of
// Languages' rules, a malformed key, and a message that is neither a text
// nor an object of the language's plural forms.
func Parse(data []byte) (*Catalog, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("i18n: %w", err)
	}
	cats, ok := Categories(f.Meta.Lang)
	if !ok {
		return nil, fmt.Errorf("i18n: meta.lang %q has no plural rules here; known: %s", f.Meta.Lang, strings.Join(Languages(), ", "))
	}
	if f.Meta.Name == "" || f.Meta.English == "" {
		return nil, fmt.Errorf("i18n: %s: meta.name and meta.english are required", f.Meta.Lang)
	}
	c := &Catalog{Meta: f.Meta, messages: make(map[string]Forms, len(f.Messages))}
	for key, raw := range f.Messages {
		if !keyPattern.MatchString(key) {
			return nil, fmt.Errorf("i18n: %s: key %q: keys are dotted words such as \"game.resign\"", f.Meta.Lang, key)
		}
		var text string
		if err := json.Unmarshal(raw, &text); err == nil {
			c.messages[key] = Forms{"other": text}
			continue
		}
		var forms Forms
		if err := json.Unmarshal(raw, &forms); err != nil {
			return nil, fmt.Errorf("i18n: %s: %s: a message is a text or an object of plural forms", f.Meta.Lang, key)
		}
		for cat := range forms {
			if !contains(cats, cat) {
				return nil, fmt.Errorf("i18n: %s: %s: plural form %q is not one of %s's: %s", f.Meta.Lang, key, cat, f.Meta.Lang, strings.Join(cats, ", "))
			}
		}
		for _, cat := range cats {
			if _, ok := forms[cat]; !ok {
				return nil, fmt.Errorf("i18n: %s: %s: plural form %q is missing (%s has %s)", f.Meta.Lang, key, cat, f.Meta.Lang, strings.Join(cats, ", "))
			}
		}
		c.messages[key] = forms
	}
	return c, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Lang returns the catalog's language tag.
func (c *Catalog) Lang() string { return c.Meta.Lang }

// Keys returns the catalog's keys, sorted.
func (c *Catalog) Keys() []string {
	keys := make([]string, 0, len(c.messages))
	for k := range c.messages {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Forms returns the forms of the message key, and whether the catalog has it.
func (c *Catalog) Forms(key string) (Forms, bool) {
	f, ok := c.messages[key]
	return f, ok
}

// Placeholders returns the names of the placeholders in every form of the
// message key, sorted and without repeats.
func (c *Catalog) Placeholders(key string) []string {
	seen := map[string]bool{}
	for _, text := range c.messages[key] {
		for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
			seen[m[1]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Messages returns the catalog's messages as they are sent to the pages'
// scripts: each key's text, or its forms for a plural message, with the
// source catalog's text where this one lacks a key.
func (c *Catalog) Messages() map[string]any {
	out := map[string]any{}
	if c.fallback != nil {
		for k, v := range c.fallback.Messages() {
			out[k] = v
		}
	}
	for k, f := range c.messages {
		if len(f) == 1 {
			if text, ok := f["other"]; ok {
				out[k] = text
				continue
			}
		}
		out[k] = map[string]string(f)
	}
	return out
}

// T formats the message key with vars, given as name, value pairs:
// T("game.stones", "count", 3). The value of "count", an integer, chooses
// the plural form. A key this catalog lacks is taken from the source
// catalog; a key no catalog has comes back as itself, so that it shows.
func (c *Catalog) T(key string, vars ...any) string {
	forms, ok := c.messages[key]
	lang := c.Meta.Lang
	if !ok && c.fallback != nil {
		forms, ok = c.fallback.messages[key]
		lang = c.fallback.Meta.Lang
	}
	if !ok {
		return key
	}
	values := map[string]string{}
	count, counted := 0, false
	for i := 0; i+1 < len(vars); i += 2 {
		name := fmt.Sprint(vars[i])
		values[name] = fmt.Sprint(vars[i+1])
		if name == "count" {
			if n, err := strconv.Atoi(values[name]); err == nil {
				count, counted = n, true
			}
		}
	}
	text, ok := forms["other"]
	if counted {
		if f, has := forms[Category(lang, count)]; has {
			text = f
		}
	} else if !ok {
		text = forms[Category(lang, 1)]
	}
	return Fill(text, values)
}

// Fill replaces each {name} of text by values[name]; a name without a value
// stays as written.
func Fill(text string, values map[string]string) string {
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		if v, ok := values[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}
