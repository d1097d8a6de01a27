package web

import (
	"strings"
	"unicode"
)

// This file is the small JavaScript reader of TestNoTextOutsideCatalogs: it
// splits a module into tokens (strings, template-literal chunks, names,
// punctuation), enough to tell where a string literal stands. It knows
// comments, regular-expression literals and template literals with their
// ${...} expressions; it is not a parser.

// tokKind is the kind of a token.
type tokKind int

const (
	tokName     tokKind = iota // an identifier or keyword
	tokString                  // a '...' or "..." literal, text unquoted
	tokTemplate                // a static chunk of a `...` literal
	tokPunct                   // punctuation; "${" opens a template expression
	tokOther                   // a number or a regular-expression literal
)

// token is one token of a module and the line it starts on.
type token struct {
	kind tokKind
	text string
	line int
}

// regexAfter are the tokens after which a "/" starts a regular expression.
var regexAfter = map[string]bool{"(": true, ",": true, "=": true, ":": true, "[": true, "!": true, "&&": true, "||": true,
	"?": true, "{": true, "}": true, ";": true, "return": true, "typeof": true, "case": true, "=>": true, "??": true}

// jsTokens splits src into tokens.
func jsTokens(src string) []token {
	var out []token
	line := 1
	var stack []bool // braces: true for a template expression's
	i := 0
	prev := func() string {
		if len(out) == 0 {
			return ";"
		}
		return out[len(out)-1].text
	}
	emit := func(k tokKind, text string, at int) { out = append(out, token{k, text, at}) }
	// template reads a template literal's chunk from i (after ` or }).
	template := func() {
		start, at := i, line
		var b strings.Builder
		for i < len(src) {
			c := src[i]
			switch {
			case c == '\\' && i+1 < len(src):
				b.WriteByte(src[i+1])
				i += 2
				continue
			case c == '`':
				i++
				emit(tokTemplate, b.String(), at)
				return
			case c == '$' && i+1 < len(src) && src[i+1] == '{':
				i += 2
				emit(tokTemplate, b.String(), at)
				emit(tokPunct, "${", line)
				stack = append(stack, true)
				return
			case c == '\n':
				line++
			}
			b.WriteByte(c)
			i++
		}
		_ = start
		emit(tokTemplate, b.String(), at)
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case c == '"' || c == '\'':
			at := line
			var b strings.Builder
			i++
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) {
					b.WriteByte(src[i+1])
					i += 2
					continue
				}
				b.WriteByte(src[i])
				i++
			}
			i++
			emit(tokString, b.String(), at)
		case c == '`':
			i++
			template()
		case c == '/' && regexAfter[prev()]:
			start := i
			i++
			inClass := false
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' {
					i += 2
					continue
				}
				if src[i] == '[' {
					inClass = true
				} else if src[i] == ']' {
					inClass = false
				} else if src[i] == '/' && !inClass {
					break
				}
				i++
			}
			i++
			for i < len(src) && unicode.IsLetter(rune(src[i])) {
				i++
			}
			emit(tokOther, src[start:min(i, len(src))], line)
		case c == '{':
			stack = append(stack, false)
			emit(tokPunct, "{", line)
			i++
		case c == '}':
			if n := len(stack); n > 0 && stack[n-1] {
				stack = stack[:n-1]
				emit(tokPunct, "}$", line) // the end of a template expression
				i++
				template()
				continue
			} else if n > 0 {
				stack = stack[:n-1]
			}
			emit(tokPunct, "}", line)
			i++
		case isNameByte(c):
			start := i
			for i < len(src) && isNameByte(src[i]) {
				i++
			}
			word := src[start:i]
			if c >= '0' && c <= '9' {
				emit(tokOther, word, line)
			} else {
				emit(tokName, word, line)
			}
		default:
			for _, op := range []string{"===", "!==", "=>", "==", "!=", "&&", "||", "??", "?.", "..."} {
				if strings.HasPrefix(src[i:], op) {
					emit(tokPunct, op, line)
					i += len(op)
					goto next
				}
			}
			emit(tokPunct, string(c), line)
			i++
		next:
		}
	}
	return out
}

func isNameByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
