package server

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/app"
)

// forged sends a request with the headers h (and "Host" as the Host) and
// returns the status and body.
func (e *testEnv) forged(method, path, token, body string, h map[string]string) (int, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.http.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Seat "+token)
	}
	for k, v := range h {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := e.http.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var data strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		data.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, []byte(data.String())
}

// stateRoutes are the state-changing requests of the API, with bodies that
// would be accepted from the server's own pages.
func stateRoutes(id, invite string) []struct{ method, path, body string } {
	return []struct{ method, path, body string }{
		{"POST", "/api/games", `{"ruleset":"nsolo","opponent":"local"}`},
		{"POST", "/api/games/" + id + "/join", `{"invite":"` + invite + `"}`},
		{"POST", "/api/games/" + id + "/actions", `{"action":"a1","ply":0}`},
		{"POST", "/api/games/" + id + "/resign", ``},
		{"POST", "/api/games/" + id + "/rematch", ``},
		{"POST", "/api/games/" + id + "/abort", ``},
		{"POST", "/api/games/" + id + "/draw", ``},
		{"POST", "/api/games/" + id + "/takeback", ``},
		{"POST", "/api/games/" + id + "/decline", ``},
		{"POST", "/api/records", `not a record`},
		{"POST", "/api/lab", `{"rulesets":["tsoro size=6"],"games":1}`},
	}
}

// TestCrossOriginRefused: every state-changing route refuses another
// site's page (a foreign Origin, the "null" origin of a sandboxed page, a
// browser's Sec-Fetch-Site: cross-site) with 403 and changes nothing.
func TestCrossOriginRefused(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "friend"})
	before := e.view(c.ID, c.Token)
	for _, h := range []map[string]string{
		{"Origin": "https://evil.example"},
		{"Origin": "http://evil.example:" + e.http.URL[strings.LastIndexByte(e.http.URL, ':')+1:]},
		{"Origin": "null"},
		{"Origin": "http://192.0.2.7"}, // another machine's page
		{"Sec-Fetch-Site": "cross-site"},
	} {
		for _, rt := range stateRoutes(c.ID, "x") {
			status, data := e.forged(rt.method, rt.path, c.Token, rt.body, h)
			wantError(t, rt.method+" "+rt.path+" from "+h["Origin"]+h["Sec-Fetch-Site"], status, data, http.StatusForbidden, app.EForbidden, "refused", "only")
		}
	}
	var list struct{ Games []app.Summary }
	e.call("GET", "/api/games", "", nil, http.StatusOK, &list)
	if len(list.Games) != 1 {
		t.Errorf("%d games in the archive after the refused creations, want 1", len(list.Games))
	}
	if v := e.view(c.ID, c.Token); !reflect.DeepEqual(v, before) {
		t.Errorf("the game changed:\n%+v\nwas\n%+v", v, before)
	}
}

// TestSameOriginAccepted: the server's own pages, pages of a listed host
// (a proxy's public name) and clients without Origin pass the check.
func TestSameOriginAccepted(t *testing.T) {
	e := newEnvWith(t, Options{Hosts: []string{"games.example.com", "*.example.org"}})
	host := strings.TrimPrefix(e.http.URL, "http://")
	for _, h := range []map[string]string{
		{},
		{"Origin": e.http.URL},
		{"Origin": "https://games.example.com"},
		{"Origin": "https://play.example.org"},
		{"Origin": "https://games.example.com", "Host": "games.example.com"},
		{"Origin": "http://localhost:" + host[strings.IndexByte(host, ':')+1:], "Host": "localhost:" + host[strings.IndexByte(host, ':')+1:]},
		{"Sec-Fetch-Site": "same-origin"},
	} {
		status, data := e.forged("POST", "/api/games", "", `{"ruleset":"nsolo","opponent":"local"}`, h)
		if status != http.StatusCreated {
			t.Errorf("create with %v: %d %s", h, status, data)
		}
	}
}

// TestForeignHostRefused: a Host the server does not answer for (a DNS
// rebinding attack's) gets 421 on every route, reads included, and on the
// WebSocket; /healthz answers any Host, for load balancers.
func TestForeignHostRefused(t *testing.T) {
	e := newEnvWith(t, Options{Hosts: []string{"games.example.com"}})
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "friend"})
	foreign := map[string]string{"Host": "evil.example:8080", "Origin": "http://evil.example:8080"}
	routes := stateRoutes(c.ID, "x")
	for _, p := range []string{"/api/games", "/api/games/" + c.ID, "/api/games/" + c.ID + "/record", "/api/games/" + c.ID + "/replay", "/metrics", "/", "/api/rulesets"} {
		routes = append(routes, struct{ method, path, body string }{"GET", p, ""})
	}
	for _, rt := range routes {
		status, data := e.forged(rt.method, rt.path, c.Token, rt.body, foreign)
		wantError(t, rt.method+" "+rt.path+" for evil.example", status, data, http.StatusMisdirectedRequest, app.EMisdirected, `"evil.example:8080"`, "--host")
	}
	// Rebinding to a name under a listed one is still foreign.
	status, data := e.forged("GET", "/api/games", "", "", map[string]string{"Host": "games.example.com.evil.example"})
	wantError(t, "a suffix of a listed name", status, data, http.StatusMisdirectedRequest, app.EMisdirected)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(e.http.URL, "http") + "/api/games/" + c.ID + "/ws"
	_, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{Host: "evil.example:8080"})
	if err == nil || resp == nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("WebSocket for a foreign host: %v, response %v", err, resp)
	}

	for _, host := range []string{"evil.example", "10.1.2.3:80"} {
		status, data := e.forged("GET", "/healthz", "", "", map[string]string{"Host": host})
		if status != http.StatusOK || string(data) != "ok\n" {
			t.Errorf("/healthz for host %q: %d %q", host, status, data)
		}
	}
	// Listed names, loopback names and addresses are answered.
	for _, host := range []string{"games.example.com", "GAMES.example.com.:443", "localhost:1", "127.0.0.1", "[::1]:8080", "192.0.2.7:8080", "[2001:db8::1]"} {
		if status, data := e.forged("GET", "/api/games", "", "", map[string]string{"Host": host}); status != http.StatusOK {
			t.Errorf("GET /api/games for host %q: %d %s", host, status, data)
		}
	}
}

// TestWebSocketOrigin: the WebSocket takes the same origins as the API: a
// foreign one is refused 403 before the upgrade, with a JSON message; a
// listed one is accepted.
func TestWebSocketOrigin(t *testing.T) {
	e := newEnvWith(t, Options{Hosts: []string{"games.example.com"}})
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(e.http.URL, "http") + "/api/games/" + c.ID + "/ws"
	for _, origin := range []string{"https://evil.example", "null", "http://192.0.2.7:8080"} {
		_, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {origin}}})
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("WebSocket from %s: %v, response %v", origin, err, resp)
		}
	}
	for _, origin := range []string{"https://games.example.com", e.http.URL} {
		cl, err := e.dial(c.ID, http.Header{"Origin": {origin}})
		if err != nil {
			t.Fatalf("WebSocket from %s: %v", origin, err)
		}
		if s := cl.hello(c.Token, 0); s.You != "S" {
			t.Errorf("WebSocket from %s: state %+v", origin, s)
		}
	}
}

// TestJSONContentType: the routes with JSON bodies refuse other types with
// 415 and a message naming the type to send; the record import takes text.
func TestJSONContentType(t *testing.T) {
	e := newEnv(t)
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "local"})
	for _, rt := range stateRoutes(c.ID, "x") {
		if rt.body == "" || rt.path == "/api/records" {
			continue
		}
		for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
			status, data := e.forged(rt.method, rt.path, c.Token, rt.body, map[string]string{"Content-Type": ct})
			wantError(t, rt.path+" as "+ct, status, data, http.StatusUnsupportedMediaType, app.EUnsupportedMedia, "Content-Type: application/json", rt.path)
		}
	}
	if status, data := e.forged("POST", "/api/games", "", `{"ruleset":"nsolo","opponent":"local"}`, map[string]string{"Content-Type": "application/json; charset=utf-8"}); status != http.StatusCreated {
		t.Errorf("JSON with a charset: %d %s", status, data)
	}
	if status, data := e.forged("POST", "/api/records", "", "not a record", map[string]string{"Content-Type": "text/plain"}); status != http.StatusBadRequest {
		t.Errorf("a record as text: %d %s, want 400 (the record's fault, not its type's)", status, data)
	}
}

func TestHostPolicy(t *testing.T) {
	p := newHostPolicy([]string{"Games.Example.com:443", "*.example.org", "bad host"}, "192.168.1.5:8080", []string{"*.trusted.example:*"})
	for host, want := range map[string]bool{
		"games.example.com": true, "games.example.com:80": true, "a.example.org": true, "example.org": false,
		"localhost:8080": true, "127.0.0.1:1": true, "[::1]:2": true, "10.0.0.1": true, "[fe80::1]:80": true,
		"evil.example": false, "": false, "[::1": false, "bad host": false, "localhost.evil.example": false,
	} {
		if got := p.hostAllowed(host); got != want {
			t.Errorf("hostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
	for _, tc := range []struct {
		origin, host string
		want         bool
	}{
		{"", "anything", true},
		{"http://10.0.0.1:8080", "10.0.0.1:8080", true},
		{"http://10.0.0.1:9090", "10.0.0.1:8080", false},
		{"http://192.168.1.5:3000", "x", true}, // the listen address is listed
		{"https://games.example.com", "127.0.0.1:8080", true},
		{"https://x.trusted.example:8443", "127.0.0.1:8080", true},
		{"https://trusted.example", "127.0.0.1:8080", false},
		{"file://", "127.0.0.1:8080", false},
		{"null", "127.0.0.1:8080", false},
		{"javascript:alert(1)", "127.0.0.1:8080", false},
	} {
		if got := p.originAllowed(tc.origin, tc.host); got != tc.want {
			t.Errorf("originAllowed(%q, %q) = %v, want %v", tc.origin, tc.host, got, tc.want)
		}
	}
	if any := newHostPolicy([]string{"*"}, "", nil); !any.hostAllowed("evil.example") || !any.originAllowed("https://evil.example", "x") {
		t.Error("* does not admit every host")
	}
	for _, bad := range []string{"", "bad host", "a..b", "http://x", "x/y", "x:port", "a@b"} {
		if err := CheckHosts([]string{bad}); err == nil || !strings.Contains(err.Error(), "give a host name") {
			t.Errorf("CheckHosts(%q) = %v", bad, err)
		}
	}
	if err := CheckHosts([]string{"a.example", "*.b.example", "*", "[::1]:80", "192.0.2.1"}); err != nil {
		t.Error(err)
	}
}
