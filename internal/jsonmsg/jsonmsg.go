// Package jsonmsg turns the errors of encoding/json into sentences for
// people: they name the field and the kind of value expected ("field "ply"
// must be a whole number, not a string"), never a Go type.
package jsonmsg

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// Describe returns what is wrong with a JSON body whose decoding into v
// (a pointer, as given to Decode) failed with err.
func Describe(err error, v any) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "the body is empty; send a JSON object"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends early (unexpected end of input)"
	case errors.As(err, &syntax):
		return fmt.Sprintf("not valid JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typ):
		got := valueKind(typ.Value)
		if typ.Field == "" {
			return fmt.Sprintf("the body must be %s, not %s", kind(typ.Type), got)
		}
		return fmt.Sprintf("field %q must be %s, not %s", typ.Field, kind(typ.Type), got)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		msg := "unknown field " + name
		if fields := fieldNames(v); len(fields) > 0 {
			msg += "; the fields are " + strings.Join(fields, ", ")
		}
		return msg
	}
	return "not a JSON object of the expected form"
}

// kind names what a value of Go type t is in JSON.
func kind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a whole number in range"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list of " + plural(kind(t.Elem()))
	case reflect.Map, reflect.Struct:
		return "a JSON object"
	}
	return "another kind of value"
}

// plural turns "a string" into "strings", "a whole number in range" into
// "whole numbers in range".
func plural(k string) string {
	k = strings.TrimPrefix(strings.TrimPrefix(k, "a "), "an ")
	word, rest, _ := strings.Cut(k, " in ")
	if rest != "" {
		rest = " in " + rest
	}
	switch {
	case word == "true or false":
		return "true or false values"
	case strings.HasPrefix(word, "list of "):
		return "lists of " + strings.TrimPrefix(word, "list of ")
	}
	return word + "s" + rest
}

// valueKind names the JSON value encoding/json found ("string", "number",
// "number 1e40", "bool", "array", "object").
func valueKind(v string) string {
	switch {
	case v == "string":
		return "a string"
	case v == "bool":
		return "true or false"
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "number":
		return "a number"
	case strings.HasPrefix(v, "number "):
		return "the number " + strings.TrimPrefix(v, "number ")
	}
	return v
}

// fieldNames returns the JSON names of the fields of the struct v points
// to, sorted; nil if v is not one.
func fieldNames(v any) []string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
