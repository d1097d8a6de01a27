package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// fuzzServer is a server with accounts and one account, ada, logged in:
// its session token and CSRF token.
func fuzzServer(f *testing.F) (*Server, string, string) {
	store, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { store.Close() })
	svc := app.NewService(app.Config{Store: store, AI: search.NewGreedyLevels(1)})
	f.Cleanup(svc.Close)
	acc := accounts.New(accounts.Config{Store: store, Games: store, Params: testParams})
	li, err := acc.SignUp(context.Background(), "ada", "password-of-ada")
	if err != nil {
		f.Fatal(err)
	}
	return New(svc, Options{Accounts: acc, Limits: Limits{}}), li.Token, li.CSRF
}

// FuzzLogin posts arbitrary bodies to the log-in route: the answer is a
// success only for ada's password, else a JSON error with a client status
// (the limits' 429 included), and never a server fault.
func FuzzLogin(f *testing.F) {
	for _, seed := range []string{
		`{"name":"ada","password":"password-of-ada"}`, `{"name":"ADA","password":"password-of-ada"}`, `{"name":"ada","password":"wrong"}`,
		`{"name":"","password":""}`, `{}`, `null`, `[]`, `{"name":1}`, `{"name":"ada","password":"x","more":1}`, `{"name":"ada\u0000","password":"p"}`,
		`{"name":"` + string(bytes.Repeat([]byte("a"), 5000)) + `","password":"p"}`, "\xff\xfe", `{"name":"ada","password":"password-of-ada"} {}`,
	} {
		f.Add([]byte(seed))
	}
	srv, _, _ := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", "/api/account/login", bytes.NewReader(body))
		req.Host = "127.0.0.1:8080"
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = "192.0.2.1:1234"
		// A fresh address and account limit per input: the limits are
		// tested elsewhere, the parser here.
		srv.accts.loginAddr = newLimiter(loginsPerAddr, loginWindow, "")
		srv.accts.loginAcct = newLimiter(loginsPerAccount, loginWindow, "")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		var c credentials
		json.Unmarshal(body, &c)
		switch w.Code {
		case 200:
			if c.Password != "password-of-ada" || w.Result().Cookies() == nil {
				t.Fatalf("body %q logged in: %s", body, w.Body)
			}
		case 400, 401, 413:
			var e errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" || e.Code == "" {
				t.Fatalf("error answer %s: %v", w.Body, err)
			}
			if len(w.Result().Cookies()) != 0 {
				t.Fatalf("a refused log-in set cookies")
			}
		default:
			t.Fatalf("body %q: status %d %s", body, w.Code, w.Body)
		}
	})
}

// FuzzCSRF sends arbitrary session cookies and CSRF headers to a
// state-changing route of the account: only ada's session with its own
// CSRF token passes; anything else is refused with 401 or 403, never a
// server fault.
func FuzzCSRF(f *testing.F) {
	srv, session, csrf := fuzzServer(f)
	for _, seed := range [][2]string{
		{session, csrf}, {session, ""}, {session, csrf + "x"}, {session, csrf[:31]}, {"", csrf}, {session + "a", csrf},
		{session, accounts.CSRFToken(session + "a")}, {"x", accounts.CSRFToken("x")}, {"", ""}, {session, " " + csrf + " "}, {"\x00", "\xff"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, cookie, header string) {
		req := httptest.NewRequest("POST", "/api/account/games/nosuchgame/seat", nil)
		req.Host = "127.0.0.1:8080"
		req.Header.Set("Cookie", sessionCookie+"="+cookie)
		req.Header.Set(csrfHeader, header)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		got, _ := req.Cookie(sessionCookie)
		valid := got != nil && got.Value == session && accounts.CheckCSRF(session, header) || got != nil && got.Value == session && accounts.CheckCSRF(session, trimSpace(header))
		switch {
		case valid && w.Code == 403: // past the CSRF check: ada holds no seat in no game
			var e errorBody
			json.Unmarshal(w.Body.Bytes(), &e)
			if e.Code != app.EForbidden || bytes.Contains([]byte(e.Error), []byte("CSRF")) {
				t.Fatalf("ada's own session and token refused: %s", w.Body)
			}
		case !valid && (w.Code == 401 || w.Code == 403):
			var e errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" {
				t.Fatalf("error answer %s: %v", w.Body, err)
			}
			if w.Code == 403 && !bytes.Contains([]byte(e.Error), []byte("CSRF")) {
				t.Fatalf("cookie %q header %q passed the CSRF check: %s", cookie, header, w.Body)
			}
		default:
			t.Fatalf("cookie %q header %q (valid %v): status %d %s", cookie, header, valid, w.Code, w.Body)
		}
	})
}

// trimSpace is strings.TrimSpace, as the header is read.
func trimSpace(s string) string {
	return string(bytes.TrimSpace([]byte(s)))
}
