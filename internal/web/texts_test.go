package web

import (
	"fmt"
	"html"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
)

// The convention TestNoTextOutsideCatalogs checks: every text a page shows
// comes from the message catalogs. In the HTML shells, a text node or a
// shown attribute (title, aria-label, placeholder, alt, content of the
// description, value of a button) holds only template actions
// ({{t "key"}}) and no words. In the scripts, a string literal holds no
// words where it would reach the page: as a child of h(...), in a call of
// toast, alert, confirm, append and the other writers of uiCalls, as the
// value of an object key such as label or title, assigned to textContent
// or title, or returned as a sentence; texts there come from t("key").
//
// The exceptions, words that are the same in every language:
var sameInEveryLanguage = []*regexp.Regexp{
	// The names of the site and of the games.
	regexp.MustCompile(`\b(matombo|Tsoro|Nsolo|Choro)\b`),
	// Names of keys on the keyboard.
	regexp.MustCompile(`\b(Esc|Enter|Ctrl)\b`),
	// Notation: holes (a3, xd5, a1cw), ruleset options (size=8), rulesets
	// and record headers as written in the notation.
	regexp.MustCompile(`\bx?[a-d][0-9]{1,2}(cw)?\b`),
	regexp.MustCompile(`\b(tsoro|nsolo|choro|misoro-tsoro|musoro-tsoro)\b`),
	regexp.MustCompile(`\b[a-z]+=[a-z0-9:]+\b`),
	regexp.MustCompile(`\[(Ruleset|Result) "[^"]*"\]`),
	regexp.MustCompile(`[0-9*,]+(/[0-9*,]+){3} [SN]( opening)?`), // a position

	regexp.MustCompile(`\bstop\b`),
}

// catalogKey matches a message key ("game.resign"): a key, not a text.
var catalogKey = regexp.MustCompile(`^[a-z0-9_]+(\.[a-zA-Z0-9_-]+)+$`)

// word is a run of two letters or more: what a text in some language has.
var word = regexp.MustCompile(`\p{L}{2,}`)

// hasWords reports whether s holds words once the exceptions are removed.
func hasWords(s string) bool {
	for _, re := range sameInEveryLanguage {
		s = re.ReplaceAllString(s, " ")
	}
	return word.MatchString(s)
}

// uiCalls are the functions whose arguments reach the page; h and el take
// their children from the third argument on, setAttribute its value when
// the attribute is one of uiAttrs; the pages' own button and prompt
// helpers take ids, states and classes too (lower-case words, not texts).
var uiCalls = map[string]bool{"h": true, "el": true, "toast": true, "alert": true, "confirm": true, "announce": true,
	"drawBusy": true, "prompt": true, "append": true, "prepend": true, "createTextNode": true, "setAttribute": true,
	"button": true, "fail": true, "Error": true, "EngineError": true, "replaceChildren": true, "insertAdjacentText": true}

// uiAttrs are the attributes people read (or hear).
var uiAttrs = map[string]bool{"title": true, "aria-label": true, "placeholder": true, "alt": true, "aria-description": true}

// uiKeys are the object keys whose values the pages show.
var uiKeys = map[string]bool{"label": true, "text": true, "sub": true, "title": true, "help": true, "detail": true,
	"placeholder": true, "aria-label": true, "hint": true, "alt": true}

// uiProps are the properties whose assignment the pages show.
var uiProps = map[string]bool{"textContent": true, "innerText": true, "innerHTML": true, "title": true, "placeholder": true, "label": true}

// frame is an open bracket of a module while it is read.
type frame struct {
	kind     byte   // '(' a call or group, '[' an array, 'o' an object, 'b' a block, '$' a template expression
	callee   string // the function a '(' calls
	arg      int    // the argument being read
	firstArg string // the first argument, when a string
	key      string // an object's key being read
	assign   bool   // a shown property is being assigned in this frame
	ret      bool   // a return expression is being read in this frame
}

// identifier matches lower-case words, hyphenated or spaced: an id
// ("decline-offer") or classes ("btn small danger").
var identifier = regexp.MustCompile(`^[a-z]+(-[a-z]+)*( [a-z]+(-[a-z]+)*)*$`)

// compare are the operators whose operands are values, not texts.
var compare = map[string]bool{"===": true, "!==": true, "==": true, "!=": true}

// objectAfter are the tokens after which "{" opens an object, not a block.
var objectAfter = map[string]bool{"(": true, ",": true, "=": true, ":": true, "[": true, "?": true, "return": true,
	"??": true, "||": true, "&&": true, "...": true}

// jsTexts returns the string literals of a module that reach the page
// holding words, as "line: text".
func jsTexts(src string) []string {
	toks := jsTokens(src)
	stack := []*frame{{kind: 'b'}}
	top := func() *frame { return stack[len(stack)-1] }
	// home is the frame that decides a string's place: brackets and
	// template expressions are transparent.
	home := func() *frame {
		for i := len(stack) - 1; i > 0; i-- {
			if k := stack[i].kind; k != '[' && k != '$' {
				return stack[i]
			}
		}
		return stack[0]
	}
	var out []string
	for i, tk := range toks {
		prev, next := token{text: ";"}, token{}
		if i > 0 {
			prev = toks[i-1]
		}
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		switch tk.kind {
		case tokString, tokTemplate:
			f := home()
			if f.kind == '(' && f.arg == 0 && tk.kind == tokString && f.firstArg == "" {
				f.firstArg = tk.text
			}
			if next.text == ":" && f.kind == 'o' && (prev.text == "{" || prev.text == ",") {
				f.key = tk.text
				continue
			}
			if compare[prev.text] || compare[next.text] { // v.status === "over": a value, not a text
				continue
			}
			shown := false
			switch {
			case f.kind == 'o':
				shown = uiKeys[f.key]
			case f.kind == '(' && uiCalls[f.callee]:
				switch f.callee {
				case "h", "el":
					shown = f.arg >= 2
				case "setAttribute":
					shown = f.arg == 1 && uiAttrs[f.firstArg]
				case "button", "prompt":
					// Pages name their own helpers so: a lower-case word
					// there (an id, a state, a path) is not a text.
					shown = !identifier.MatchString(tk.text)
				default:
					shown = true
				}
			case f.assign:
				shown = true
			case f.ret:
				shown = len(word.FindAllString(tk.text, -1)) >= 2 && strings.Contains(strings.TrimSpace(tk.text), " ")
			}
			if shown && hasWords(tk.text) && !catalogKey.MatchString(tk.text) {
				out = append(out, fmt.Sprintf("%d: %q", tk.line, tk.text))
			}
		case tokName:
			if tk.text == "return" {
				top().ret = true
			}
			if next.text == ":" && top().kind == 'o' && (prev.text == "{" || prev.text == ",") {
				top().key = tk.text
			}
		case tokPunct:
			switch tk.text {
			case "(":
				callee := ""
				if prev.kind == tokName && !(i >= 2 && toks[i-2].text == "function") {
					callee = prev.text
				}
				stack = append(stack, &frame{kind: '(', callee: callee})
			case "[":
				stack = append(stack, &frame{kind: '['})
			case "{":
				kind := byte('b')
				if objectAfter[prev.text] {
					kind = 'o'
				}
				stack = append(stack, &frame{kind: kind})
			case "${":
				stack = append(stack, &frame{kind: '$'})
			case ")", "]", "}", "}$":
				if len(stack) > 1 {
					stack = stack[:len(stack)-1]
				}
			case ",":
				f := top()
				f.arg++
				f.key = ""
				f.assign = false
			case ";":
				f := top()
				f.assign, f.ret = false, false
			case "=":
				if prev.kind == tokName && uiProps[prev.text] && i >= 2 && toks[i-2].text == "." {
					top().assign = true
				}
			}
		}
	}
	return out
}

// tag matches an HTML tag, its name and its attributes.
var tag = regexp.MustCompile(`(?s)<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>`)

// attr matches one attribute of a tag.
var attr = regexp.MustCompile(`([a-zA-Z-:]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?`)

// action matches a template action.
var action = regexp.MustCompile(`(?s)\{\{.*?\}\}`)

// htmlTexts returns the texts of an HTML shell (or part) outside template
// actions that hold words, as "line: text".
func htmlTexts(src string) []string {
	var out []string
	line := func(at int) int { return 1 + strings.Count(src[:at], "\n") }
	check := func(at int, where, text string) {
		text = html.UnescapeString(action.ReplaceAllString(text, " "))
		if hasWords(text) {
			out = append(out, fmt.Sprintf("%d: %s %q", line(at), where, strings.Join(strings.Fields(text), " ")))
		}
	}
	pos := 0
	skipTo := "" // the end tag of a script or style, whose content is not text
	for _, m := range tag.FindAllStringSubmatchIndex(src, -1) {
		closing, name, attrs := src[m[2]:m[3]] == "/", strings.ToLower(src[m[4]:m[5]]), src[m[6]:m[7]]
		if skipTo != "" {
			if closing && name == skipTo {
				skipTo = ""
				pos = m[1]
			}
			continue
		}
		if text := src[pos:m[0]]; !strings.HasPrefix(strings.TrimSpace(text), "<!") {
			check(pos, "text", text)
		}
		pos = m[1]
		if closing {
			continue
		}
		if name == "script" || name == "style" {
			skipTo = name
		}
		values := map[string]string{}
		for _, a := range attr.FindAllStringSubmatch(action.ReplaceAllString(attrs, " "), -1) {
			values[strings.ToLower(a[1])] = strings.Trim(a[2], `"'`)
		}
		for k, v := range values {
			shown := uiAttrs[k]
			switch k {
			case "content":
				shown = values["name"] == "description"
			case "value":
				t := values["type"]
				shown = name == "button" || name == "input" && (t == "submit" || t == "button" || t == "reset")
			}
			if shown {
				check(m[0], name+" "+k, v)
			}
		}
	}
	if pos < len(src) {
		check(pos, "text", src[pos:])
	}
	return out
}

// shellFiles lists the HTML files of FS: the shells and their parts.
func shellFiles(t *testing.T) []string {
	var files []string
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".html" {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNoTextOutsideCatalogs fails on any text of a shell or a module that
// does not come from the message catalogs (see the convention above).
func TestNoTextOutsideCatalogs(t *testing.T) {
	for _, file := range shellFiles(t) {
		src, err := fs.ReadFile(FS, file)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range htmlTexts(string(src)) {
			t.Errorf("%s:%s: a text outside the catalogs; write {{t \"key\"}} and add the key to i18n/en.json", file, s)
		}
	}
	mods, err := fs.Glob(FS, "js/*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range mods {
		// wasm_exec.js is Go's own loader of WebAssembly: it shows nothing.
		// engine-worker.js runs in a Web Worker, without a page and so
		// without a catalog: its reports reach the page as the engine's
		// sentence inside a translated frame (ui.js errorText, error.engine).
		if file == "js/wasm_exec.js" || file == "js/engine-worker.js" {
			continue
		}
		src, err := fs.ReadFile(FS, file)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range jsTexts(string(src)) {
			t.Errorf("%s:%s: a text outside the catalogs; write t(\"key\") and add the key to i18n/en.json", file, s)
		}
	}
}

// TestTextCheckerFinds: the checker finds the texts it is there to find,
// and lets the catalog's keys, notation and markup through.
func TestTextCheckerFinds(t *testing.T) {
	js := `
import { t } from "./i18n.js";
const re = /["'](x)/g; // a regular expression with quotes
function f(box, n, hole) {
  box.textContent = n ? "Two words" : t("game.x");
  box.append(h("b", { class: "btn primary", title: "A title" }, "Child text", t("k.ey"), hole));
  toast(` + "`Sow ${hole} now`" + `);
  box.setAttribute("aria-label", "Labelled");
  box.setAttribute("data-x", "not shown");
  const o = { label: "Label text", kind: "stop" };
  console.warn("not shown either");
  if (!window.confirm("Resign?")) return "A sentence returned";
  return { text: ` + "`${n ? \"nested word\" : \"\"}`" + ` };
}`
	got := strings.Join(jsTexts(js), "\n")
	for _, want := range []string{`"Two words"`, `"A title"`, `"Child text"`, `"Sow "`, `"Labelled"`, `"Label text"`, `"Resign?"`, `"A sentence returned"`, `"nested word"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the JavaScript checker missed %s; it found:\n%s", want, got)
		}
	}
	for _, not := range []string{"game.x", "k.ey", "btn primary", "not shown", "stop"} {
		if strings.Contains(got, not) {
			t.Errorf("the JavaScript checker took %q for a text; it found:\n%s", not, got)
		}
	}
	page := `<html lang="{{.Lang}}"><head><title>{{t "title.x"}} · matombo</title>
<meta name="description" content="Words here"><script>var x = "<b>no</b>";</script></head>
<body><h1>Heading</h1><p>{{t "a.b"}} <code>a3</code></p><input placeholder="type here" value="tsoro size=8">
<button value="Press">{{t "b.c"}}</button><img alt="A picture"></body></html>`
	found := strings.Join(htmlTexts(page), "\n")
	for _, want := range []string{`"Words here"`, `"Heading"`, `"type here"`, `"Press"`, `"A picture"`} {
		if !strings.Contains(found, want) {
			t.Errorf("the HTML checker missed %s; it found:\n%s", want, found)
		}
	}
	for _, not := range []string{"matombo", "a3", "tsoro", "no"} {
		if strings.Contains(found, `"`+not+`"`) {
			t.Errorf("the HTML checker took %q for a text; it found:\n%s", not, found)
		}
	}
}

// scriptKeys returns the keys a module formats, t("key"), and the
// prefixes it builds keys from, t(`prefix.${...}`), read from its tokens
// (comments aside).
func scriptKeys(src string) (keys, prefixes []string) {
	toks := jsTokens(src)
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].kind != tokName || toks[i].text != "t" || toks[i+1].text != "(" || (i > 0 && toks[i-1].text == ".") {
			continue
		}
		switch a := toks[i+2]; {
		case a.kind == tokString:
			keys = append(keys, a.text)
		case a.kind == tokTemplate && i+3 < len(toks) && toks[i+3].text == "${":
			prefixes = append(prefixes, a.text)
		}
	}
	return keys, prefixes
}

// TestScriptKeysEmbedded: every key a module formats, and every prefix it
// builds keys from, is in the catalog the pages embed for the scripts
// (not one the shells alone write, see ShellOnly), and each literal key
// is in en.json.
func TestScriptKeysEmbedded(t *testing.T) {
	cats, err := Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	src := cats.Source()
	mods, err := fs.Glob(FS, "js/*.js")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, file := range mods {
		b, err := fs.ReadFile(FS, file)
		if err != nil {
			t.Fatal(err)
		}
		keys, prefixes := scriptKeys(string(b))
		n += len(keys) + len(prefixes)
		for _, key := range keys {
			if ShellOnly(key) {
				t.Errorf("%s formats %s, a key only the shells get; rename it", file, key)
			} else if _, ok := src.Forms(key); !ok {
				t.Errorf("%s formats %s, which en.json lacks", file, key)
			}
		}
		for _, prefix := range prefixes {
			if ShellOnly(prefix + "x") {
				t.Errorf("%s builds keys from %s, which only the shells get", file, prefix)
			}
		}
	}
	if n < 100 {
		t.Errorf("found only %d keys formatted in the modules; the pattern no longer matches them", n)
	}
}
