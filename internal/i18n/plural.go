package i18n

import "sort"

// plural is a language's plural rule for whole numbers (CLDR): its
// categories and the category of n.
type plural struct {
	categories []string
	of         func(n int) string
}

// oneIsOne is the rule of languages whose "one" is exactly 1.
var oneIsOne = plural{[]string{"one", "other"}, func(n int) string {
	if n == 1 {
		return "one"
	}
	return "other"
}}

// zeroAndOne is the rule of languages whose "one" is 0 and 1 (French,
// Portuguese: CLDR's i = 0,1 for whole numbers).
var zeroAndOne = plural{[]string{"one", "other"}, func(n int) string {
	if n == 0 || n == 1 {
		return "one"
	}
	return "other"
}}

// rules are the plural rules of the languages the app may have catalogs
// for; static/js/i18n.js holds the same table.
var rules = map[string]plural{
	"en": oneIsOne,
	"fr": zeroAndOne,
	"pt": zeroAndOne,
	"sw": oneIsOne,
	"sn": oneIsOne,
	"ny": oneIsOne,
}

// Languages returns the tags of the languages with plural rules here.
func Languages() []string {
	out := make([]string, 0, len(rules))
	for l := range rules {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Categories returns the plural categories of lang, and whether lang has
// rules here.
func Categories(lang string) ([]string, bool) {
	p, ok := rules[lang]
	return p.categories, ok
}

// Category returns the plural category of the whole number n in lang
// ("other" for a language without rules).
func Category(lang string, n int) string {
	p, ok := rules[lang]
	if !ok {
		return "other"
	}
	if n < 0 {
		n = -n
	}
	return p.of(n)
}
