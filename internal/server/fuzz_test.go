package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"matombo/internal/app"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// FuzzActionHandler posts arbitrary bodies to the action route of a game:
// the answer is always a JSON error with a client status or a success, and
// never a server fault.
func FuzzActionHandler(f *testing.F) {
	for _, seed := range []string{
		`{"action":"a1","ply":0}`, `{"action":"a1","ply":-1}`, `{"action":"stop","ply":0}`, `{"action":"xd5","ply":0}`,
		`{"action":"a3cw","ply":0}`, `{"action":"","ply":0}`, `{}`, `null`, `[]`, `{"action":1}`,
		`{"action":"a1","ply":1e40}`, `{"action":"\u0000","ply":0}`, `{"action":"a1","ply":0,"x":1}`, "\xff\xfe",
	} {
		f.Add([]byte(seed))
	}
	store, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer store.Close()
	svc := app.NewService(app.Config{Store: store, AI: search.NewGreedyLevels(1)})
	defer svc.Close()
	srv := New(svc, Options{})
	c, err := svc.Create(context.Background(), app.CreateRequest{Ruleset: "tsoro size=6", Opponent: "local"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", "/api/games/"+c.ID+"/actions", bytes.NewReader(body))
		req.Host = "127.0.0.1:8080" // httptest's example.com is not a host the server answers for
		req.Header.Set("Authorization", "Seat "+c.Tokens["S"])
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		switch w.Code {
		case 200:
			var res app.ActResult
			if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil || res.Game == nil {
				t.Fatalf("success answer %s: %v", w.Body, err)
			}
		case 400, 403, 409, 413:
			var e errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" || e.Code == "" {
				t.Fatalf("error answer %s: %v", w.Body, err)
			}
		default:
			t.Fatalf("body %q: status %d %s", body, w.Code, w.Body)
		}
	})
}

// FuzzDecodeClientMsg checks the WebSocket message decoder on any input:
// it never panics, and what it accepts is a known type with its fields.
func FuzzDecodeClientMsg(f *testing.F) {
	for _, seed := range []string{
		`{"type":"hello","token":"abc","ply":3}`, `{"type":"action","action":"a1","ply":0}`, `{"type":"ping"}`,
		`{"type":"action","action":"a1"}`, `{"type":"hello"}`, `{"type":"x"}`, `{}`, `null`, `{"type":"ping"}{}`,
		`{"type":"hello","ply":"3"}`, "\x00", `{"type":"hello","extra":true}`, `{"type":"say","say":"good_luck"}`,
		`{"type":"hello","token":"","presence":true}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeClientMsg(data)
		if err != nil {
			if app.ErrorCode(err) != app.EInvalid {
				t.Fatalf("%q: error %v is not a bad request", data, err)
			}
			return
		}
		switch m.Type {
		case "hello", "ping", "say":
		case "action":
			if m.Ply == nil {
				t.Fatalf("%q: action accepted without a ply", data)
			}
		default:
			t.Fatalf("%q: accepted type %q", data, m.Type)
		}
	})
}
