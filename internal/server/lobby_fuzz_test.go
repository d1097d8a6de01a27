package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"matombo/internal/app"
	"matombo/internal/lobby"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// FuzzLobbyPost posts arbitrary bodies to the lobby's challenges and quick
// pairing: the answer is a new challenge, a pairing or a JSON error with a
// client status, never a server fault.
func FuzzLobbyPost(f *testing.F) {
	for _, seed := range []string{
		`{"ruleset":"tsoro"}`, `{"ruleset":"nsolo","time_control":"3+2","side":"N"}`, `{"ruleset":"choro","rated":true}`,
		`{"ruleset":"tsoro","to":"ada"}`, `{"ruleset":"tsoro size=99"}`, `{"ruleset":"tsoro","time_control":"corr:9999"}`,
		`{"ruleset":"tsoro","side":"E"}`, `{}`, `null`, `[]`, `{"ruleset":1}`, `{"ruleset":"tsoro","x":1}`, "\xff",
		`{"ruleset":"tsoro","keys":["a","b"]}`, `{"ruleset":"tsoro","time_control":"\u0000"}`,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	store, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer store.Close()
	svc := app.NewService(app.Config{Store: store, AI: search.NewGreedyLevels(1)})
	defer svc.Close()
	srv := New(svc, Options{Lobby: store})
	defer srv.Shutdown()
	var n atomic.Uint32 // each input from an address of its own: the limit per address is not what is fuzzed
	f.Fuzz(func(t *testing.T, body []byte, quick bool) {
		path := "/api/lobby/challenges"
		if quick {
			path = "/api/lobby/quick"
		}
		req := httptest.NewRequest("POST", path, bytes.NewReader(body))
		req.Host = "127.0.0.1:8080"
		i := n.Add(1)
		req.RemoteAddr = fmt.Sprintf("10.%d.%d.%d:1234", byte(i>>16), byte(i>>8), byte(i))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		switch w.Code {
		case 200, 201:
			var q struct {
				lobby.Posted
				lobby.Quick
			}
			if err := json.Unmarshal(w.Body.Bytes(), &q); err != nil || q.Key == "" && q.Quick.Posted == nil && q.Accepted == nil {
				t.Fatalf("success answer %s: %v", w.Body, err)
			}
		case 400, 401, 404, 409, 413, 503:
			var e errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" || e.Code == "" {
				t.Fatalf("error answer %s: %v", w.Body, err)
			}
		default:
			t.Fatalf("body %q: status %d %s", body, w.Code, w.Body)
		}
	})
}

// FuzzDecodeLobbyMsg checks the lobby socket's decoder on any input: it
// never panics, and what it accepts is hello or ping.
func FuzzDecodeLobbyMsg(f *testing.F) {
	for _, seed := range []string{`{"type":"hello","keys":["k"]}`, `{"type":"ping"}`, `{"type":"hello","keys":"k"}`, `{"type":"say"}`, `{}`, "\x00"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeLobbyMsg(data)
		if err != nil {
			if app.ErrorCode(err) != app.EInvalid {
				t.Fatalf("%q: error %v is not a bad request", data, err)
			}
			return
		}
		if m.Type != "hello" && m.Type != "ping" {
			t.Fatalf("%q: accepted type %q", data, m.Type)
		}
		if _, err := keySet(m.Keys); err != nil && app.ErrorCode(err) != app.EInvalid {
			t.Fatalf("%q: keys: %v", data, err)
		}
	})
}
