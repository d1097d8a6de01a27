package i18n

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Set is the catalogs of the app, the source catalog among them.
type Set struct {
	catalogs map[string]*Catalog
}

// Load reads every <lang>.json file of dir in fsys. The source catalog
// (en.json) must be there, and each file's name must be its meta.lang.
func Load(fsys fs.FS, dir string) (*Set, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	s := &Set{catalogs: map[string]*Catalog{}}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		c, err := Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if want := strings.TrimSuffix(path.Base(name), ".json"); c.Meta.Lang != want {
			return nil, fmt.Errorf("i18n: %s says meta.lang %q; the file of %q is %s.json", name, c.Meta.Lang, c.Meta.Lang, c.Meta.Lang)
		}
		s.catalogs[c.Meta.Lang] = c
	}
	src, ok := s.catalogs[Source]
	if !ok {
		return nil, fmt.Errorf("i18n: %s has no %s.json, the source catalog", dir, Source)
	}
	for _, c := range s.catalogs {
		if c != src {
			c.fallback = src
		}
	}
	return s, nil
}

// Source returns the source (English) catalog.
func (s *Set) Source() *Catalog { return s.catalogs[Source] }

// Get returns the catalog of lang, or nil.
func (s *Set) Get(lang string) *Catalog { return s.catalogs[lang] }

// All returns the catalogs, the source first and then by tag.
func (s *Set) All() []*Catalog {
	out := make([]*Catalog, 0, len(s.catalogs))
	for _, c := range s.catalogs {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Meta.Lang == Source) != (out[j].Meta.Lang == Source) {
			return out[i].Meta.Lang == Source
		}
		return out[i].Meta.Lang < out[j].Meta.Lang
	})
	return out
}

// Choose returns the catalog for a request: the language chosen (a tag the
// page's language menu keeps, "" for none) if the set has it, else the
// best of the Accept-Language header's languages, else the source.
func (s *Set) Choose(chosen, acceptLanguage string) *Catalog {
	if c := s.catalogs[strings.ToLower(strings.TrimSpace(chosen))]; c != nil {
		return c
	}
	best, bestQ := s.Source(), 0.0
	for _, part := range strings.Split(acceptLanguage, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				continue
			}
			q = f
		}
		base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if c := s.catalogs[base]; c != nil && q > bestQ {
			best, bestQ = c, q
		}
	}
	return best
}
