package jsonmsg

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

type request struct {
	Action  string            `json:"action"`
	Ply     *int              `json:"ply"`
	Games   int               `json:"games"`
	Rate    float64           `json:"rate"`
	Fast    bool              `json:"fast"`
	Names   []string          `json:"names"`
	Opts    map[string]string `json:"opts"`
	Skipped string            `json:"-"`
	Plain   string
	//lint:ignore U1000 an unexported field, which the list of fields leaves out
	hidden string
}

func TestDescribe(t *testing.T) {
	for body, want := range map[string]string{
		``:                         "the body is empty; send a JSON object",
		`{"action":`:               "the JSON ends early (unexpected end of input)",
		`{"action" "a1"}`:          `not valid JSON at byte 11: invalid character '"' after object key`,
		`{"ply":"3"}`:              `field "ply" must be a whole number in range, not a string`,
		`{"ply":1.5}`:              `field "ply" must be a whole number in range, not the number 1.5`,
		`{"games":1e40}`:           `field "games" must be a whole number in range, not the number 1e40`,
		`{"action":3}`:             `field "action" must be a string, not a number`,
		`{"rate":"x"}`:             `field "rate" must be a number, not a string`,
		`{"fast":"yes"}`:           `field "fast" must be true or false, not a string`,
		`{"names":"a"}`:            `field "names" must be a list of strings, not a string`,
		`{"names":[1]}`:            `field "names" must be a string, not a number`,
		`{"opts":[]}`:              `field "opts" must be a JSON object, not a list`,
		`[]`:                       `the body must be a JSON object, not a list`,
		`"text"`:                   `the body must be a JSON object, not a string`,
		`{"nope":1}`:               `unknown field "nope"; the fields are Plain, action, fast, games, names, opts, ply, rate`,
		`{"action":"a1","ply":{}}`: `field "ply" must be a whole number in range, not an object`,
	} {
		var v request
		dec := json.NewDecoder(bytes.NewReader([]byte(body)))
		dec.DisallowUnknownFields()
		err := dec.Decode(&v)
		if err == nil {
			t.Errorf("%s: decoded", body)
			continue
		}
		got := Describe(err, &v)
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", body, got, want)
		}
		for _, goWord := range []string{"Go ", "struct", "int", "float64", "map[", "[]string", "request", "json:"} {
			if strings.Contains(got, goWord) {
				t.Errorf("%s: %q names a Go type (%q)", body, got, goWord)
			}
		}
	}
}
