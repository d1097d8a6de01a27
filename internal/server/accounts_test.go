package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// testParams are Argon2id parameters cheap enough for tests.
var testParams = accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}

// accountEnv is a server with accounts on a fresh SQLite database.
type accountEnv struct {
	*testEnv
	sq *sqlite.Store
}

func newAccountEnv(t *testing.T) *accountEnv {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := app.NewService(app.Config{Store: store, AI: search.NewGreedyLevels(7), Workers: 2})
	acc := accounts.New(accounts.Config{Store: store, Games: store, Params: testParams})
	srv := New(svc, Options{Accounts: acc})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Shutdown()
		hs.Close()
		svc.Close()
		store.Close()
	})
	return &accountEnv{testEnv: &testEnv{t: t, srv: srv, http: hs, store: store}, sq: store}
}

// browser is one player's browser: its cookies and the CSRF token its
// pages send.
type browser struct {
	e      *accountEnv
	client *http.Client
	csrf   string
	// seen collects every answer's headers and body, for the leak test.
	seen *bytes.Buffer
}

func (e *accountEnv) browser() *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return &browser{e: e, client: &http.Client{Jar: jar}, seen: &bytes.Buffer{}}
}

// do sends a request as the browser's pages do (JSON bodies, the CSRF
// header once logged in, a seat token if given) and returns the status
// and body.
func (b *browser) do(method, path, seat string, body any) (int, []byte) {
	b.e.t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			b.e.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, b.e.http.URL+path, r)
	if err != nil {
		b.e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.csrf != "" {
		req.Header.Set(csrfHeader, b.csrf)
	}
	if seat != "" {
		req.Header.Set("Authorization", "Seat "+seat)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		b.e.t.Fatal(err)
	}
	resp.Header.Write(b.seen)
	b.seen.Write(data)
	return resp.StatusCode, data
}

// call is do that checks the status and decodes the answer into out.
func (b *browser) call(method, path, seat string, body any, want int, out any) {
	b.e.t.Helper()
	status, data := b.do(method, path, seat, body)
	if status != want {
		b.e.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, status, want, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			b.e.t.Fatalf("%s %s: bad JSON %s: %v", method, path, data, err)
		}
	}
}

// signUp signs the browser up as name and keeps the CSRF token.
func (b *browser) signUp(name string) {
	b.e.t.Helper()
	var me accounts.Me
	b.call("POST", "/api/account/signup", "", credentials{Name: name, Password: "password-of-" + name}, http.StatusCreated, &me)
	if me.Name != name || me.CSRF == "" {
		b.e.t.Fatalf("sign-up answer %+v", me)
	}
	b.csrf = me.CSRF
}

func TestSignUpLogInLogOut(t *testing.T) {
	e := newAccountEnv(t)
	b := e.browser()
	b.signUp("Ada")
	var me accounts.Me
	b.call("GET", "/api/account", "", nil, http.StatusOK, &me)
	if me.Name != "Ada" || me.CSRF != b.csrf {
		t.Errorf("me %+v", me)
	}
	// The cookies: the session HttpOnly, both SameSite=Lax, not Secure
	// over plain http from a plain page.
	status, h, _ := e.doHeader("POST", "/api/account/login", "", credentials{Name: "ada", Password: "password-of-Ada"})
	if status != http.StatusOK {
		t.Fatalf("log-in by the name in another case: %d", status)
	}
	cookies := strings.Join(h.Values("Set-Cookie"), "\n")
	for _, want := range []string{sessionCookie + "=", "HttpOnly", "SameSite=Lax", csrfCookie + "="} {
		if !strings.Contains(cookies, want) {
			t.Errorf("cookies %q lack %q", cookies, want)
		}
	}
	if strings.Contains(cookies, "Secure") {
		t.Errorf("cookies over plain http are Secure: %q", cookies)
	}
	// Behind an https proxy (the page's Origin is https), they are Secure.
	req, _ := http.NewRequest("POST", e.http.URL+"/api/account/login", strings.NewReader(`{"name":"ada","password":"password-of-Ada"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://127.0.0.1")
	req.Host = "127.0.0.1"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if c := resp.Cookies(); resp.StatusCode != 200 || len(c) != 2 || !c[0].Secure || !c[1].Secure {
		t.Errorf("log-in from an https page: %d, cookies %v", resp.StatusCode, c)
	}
	// Taken names, bad names and passwords.
	other := e.browser()
	status, data := other.do("POST", "/api/account/signup", "", credentials{Name: "ADA", Password: "another password"})
	wantError(t, "a taken name", status, data, http.StatusConflict, app.EConflict, "taken")
	status, data = other.do("POST", "/api/account/signup", "", credentials{Name: "a b", Password: "another password"})
	wantError(t, "a bad name", status, data, http.StatusBadRequest, app.EInvalid, "letters")
	status, data = other.do("POST", "/api/account/signup", "", credentials{Name: "bob", Password: "short"})
	wantError(t, "a short password", status, data, http.StatusBadRequest, app.EInvalid, "at least 8")
	status, data = other.do("POST", "/api/account/login", "", credentials{Name: "ada", Password: "wrong password"})
	wantError(t, "a wrong password", status, data, http.StatusUnauthorized, app.EUnauthorized, "wrong user name or password")
	status, data = other.do("POST", "/api/account/login", "", credentials{Name: "nobody", Password: "wrong password"})
	wantError(t, "an unknown name", status, data, http.StatusUnauthorized, app.EUnauthorized, "wrong user name or password")
	// Log-out ends the session on the server: the old cookie no longer works.
	old := b.cookie()
	b.call("POST", "/api/account/logout", "", nil, http.StatusOK, nil)
	status, data = b.do("GET", "/api/account", "", nil)
	wantError(t, "after log-out", status, data, http.StatusUnauthorized, app.EUnauthorized, "not logged in")
	replay := e.browser()
	replay.setCookie(old)
	replay.csrf = b.csrf
	status, data = replay.do("GET", "/api/account", "", nil)
	wantError(t, "the cookie of a logged-out session", status, data, http.StatusUnauthorized, app.EUnauthorized, "log in")
}

// cookie returns the browser's session cookie value.
func (b *browser) cookie() string {
	u, _ := http.NewRequest("GET", b.e.http.URL, nil)
	for _, c := range b.client.Jar.Cookies(u.URL) {
		if c.Name == sessionCookie {
			return c.Value
		}
	}
	return ""
}

// setCookie puts a session cookie in the browser.
func (b *browser) setCookie(v string) {
	u, _ := http.NewRequest("GET", b.e.http.URL, nil)
	b.client.Jar.SetCookies(u.URL, []*http.Cookie{{Name: sessionCookie, Value: v, Path: "/"}})
}

func TestChangePasswordRevokesOtherSessions(t *testing.T) {
	e := newAccountEnv(t)
	b1, b2 := e.browser(), e.browser()
	b1.signUp("ada")
	b2.call("POST", "/api/account/login", "", credentials{Name: "ada", Password: "password-of-ada"}, http.StatusOK, nil)
	b2.csrf = b1.csrf // wrong for b2's session
	status, data := b2.do("GET", "/api/account", "", nil)
	var me accounts.Me
	json.Unmarshal(data, &me)
	b2.csrf = me.CSRF
	if status != 200 || me.CSRF == b1.csrf {
		t.Fatalf("two sessions share a CSRF token: %d %s", status, data)
	}
	status, data = b1.do("POST", "/api/account/password", "", passwordRequest{Old: "wrong one", New: "a new password"})
	wantError(t, "a wrong old password", status, data, http.StatusForbidden, app.EForbidden, "current password is wrong")
	status, data = b1.do("POST", "/api/account/password", "", passwordRequest{Old: "password-of-ada", New: "short"})
	wantError(t, "a short new password", status, data, http.StatusBadRequest, app.EInvalid, "at least 8")
	b1.call("POST", "/api/account/password", "", passwordRequest{Old: "password-of-ada", New: "a new password"}, http.StatusOK, nil)
	b1.call("GET", "/api/account", "", nil, http.StatusOK, nil)
	status, data = b2.do("GET", "/api/account", "", nil)
	wantError(t, "the other session after a password change", status, data, http.StatusUnauthorized, app.EUnauthorized, "not logged in")
	status, _ = b2.do("POST", "/api/account/login", "", credentials{Name: "ada", Password: "password-of-ada"})
	if status != http.StatusUnauthorized {
		t.Errorf("the old password logs in: %d", status)
	}
	b2.call("POST", "/api/account/login", "", credentials{Name: "ada", Password: "a new password"}, http.StatusOK, nil)
}

func TestCSRFRequired(t *testing.T) {
	e := newAccountEnv(t)
	b := e.browser()
	b.signUp("ada")
	good := b.csrf
	var c app.Created
	b.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend"}, http.StatusCreated, &c)
	for _, csrf := range []string{"", "x", good[:len(good)-1], strings.ToUpper(good), accounts.CSRFToken("another session token")} {
		b.csrf = csrf
		for _, rt := range []struct {
			method, path string
			body         any
		}{
			{"POST", "/api/account/logout", nil},
			{"POST", "/api/account/password", passwordRequest{Old: "password-of-ada", New: "a new password"}},
			{"POST", "/api/account/games/" + c.ID + "/seat", nil},
			{"POST", "/api/account/games/" + c.ID + "/claim", nil},
			{"POST", "/api/games", app.CreateRequest{Ruleset: "nsolo", Opponent: "ai"}},
			{"POST", "/api/games/" + c.ID + "/join", joinRequest{Invite: strings.TrimPrefix(c.Invite, "/join/"+c.ID+"/")}},
		} {
			status, data := b.do(rt.method, rt.path, "", rt.body)
			wantError(t, rt.path+" with CSRF token "+csrf, status, data, http.StatusForbidden, app.EForbidden, "CSRF", csrfHeader)
		}
	}
	// Without the cookie, the same requests are anonymous and work as before.
	anon := e.browser()
	anon.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "ai"}, http.StatusCreated, nil)
	b.csrf = good
	b.call("GET", "/api/account", "", nil, http.StatusOK, nil)
	// A session's cookie from another site's page is refused by the
	// Origin check too, CSRF token or not.
	req, _ := http.NewRequest("POST", e.http.URL+"/api/account/logout", nil)
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set(csrfHeader, good)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: b.cookie()})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("log-out from another origin: %d", resp.StatusCode)
	}
	b.call("GET", "/api/account", "", nil, http.StatusOK, nil)
}

func TestLoginRateLimited(t *testing.T) {
	e := newAccountEnv(t)
	e.browser().signUp("ada")
	b := e.browser()
	for i := range loginsPerAccount {
		status, _ := b.do("POST", "/api/account/login", "", credentials{Name: "ada", Password: "guess"})
		if status != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i, status)
		}
	}
	status, data := b.do("POST", "/api/account/login", "", credentials{Name: "ADA", Password: "password-of-ada"})
	wantError(t, "past the account's limit", status, data, http.StatusTooManyRequests, app.ERateLimited, "too many log-in attempts on this account", "retry in")
	// Other accounts from the same address have the rest of its limit.
	e.browser().signUp("bob")
	b.call("POST", "/api/account/login", "", credentials{Name: "bob", Password: "password-of-bob"}, http.StatusOK, nil)
	for i := 0; ; i++ {
		status, data = b.do("POST", "/api/account/login", "", credentials{Name: "x" + strings.Repeat("y", i%20+2), Password: "guess"})
		if status == http.StatusTooManyRequests {
			wantError(t, "past the address's limit", status, data, http.StatusTooManyRequests, app.ERateLimited, "too many log-in attempts from your address")
			if i+loginsPerAccount != loginsPerAddr {
				t.Errorf("the address was refused after %d attempts, want %d", i+loginsPerAccount, loginsPerAddr)
			}
			break
		}
		if i > loginsPerAddr {
			t.Fatal("no limit per address")
		}
	}
}

// TestSeatsFollowTheAccount: a game created or joined while logged in is
// on the profile, and its seat token is given to the account in any
// browser, and to no other account.
func TestSeatsFollowTheAccount(t *testing.T) {
	e := newAccountEnv(t)
	ada, bob := e.browser(), e.browser()
	ada.signUp("ada")
	bob.signUp("bob")
	var c app.Created
	ada.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "tsoro size=8", Opponent: "friend", Side: "N"}, http.StatusCreated, &c)
	var j app.Joined
	bob.call("POST", "/api/games/"+c.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(c.Invite, "/join/"+c.ID+"/")}, http.StatusOK, &j)

	// Ada, in another browser, gets a seat token for North.
	ada2 := e.browser()
	ada2.call("POST", "/api/account/login", "", credentials{Name: "ada", Password: "password-of-ada"}, http.StatusOK, nil)
	var me accounts.Me
	ada2.call("GET", "/api/account", "", nil, http.StatusOK, &me)
	ada2.csrf = me.CSRF
	var seat accounts.Seat
	ada2.call("POST", "/api/account/games/"+c.ID+"/seat", "", nil, http.StatusOK, &seat)
	if seat.Seat != "N" || seat.Token == "" || seat.Token == c.Token {
		t.Fatalf("ada's seat %+v", seat)
	}
	if v := e.view(c.ID, seat.Token); v.You != "N" {
		t.Errorf("ada's account token seats %q, want N", v.You)
	}
	var bobSeat accounts.Seat
	bob.call("POST", "/api/account/games/"+c.ID+"/seat", "", nil, http.StatusOK, &bobSeat)
	if bobSeat.Seat != "S" || e.view(c.ID, bobSeat.Token).You != "S" {
		t.Errorf("bob's seat %+v", bobSeat)
	}

	// The profiles list the game from each side.
	var list struct{ Games []accounts.GameSummary }
	ada.call("GET", "/api/players/ada/games", "", nil, http.StatusOK, &list)
	if len(list.Games) != 1 || list.Games[0].ID != c.ID || list.Games[0].Side != "N" || list.Games[0].Outcome != "playing" {
		t.Errorf("ada's games %+v", list.Games)
	}

	// Cara's session moves no one's seats: no seat token of their game,
	// no claim without a seat token, and her cookie is no seat.
	cara := e.browser()
	cara.signUp("cara")
	status, data := cara.do("POST", "/api/account/games/"+c.ID+"/seat", "", nil)
	wantError(t, "another account's seat", status, data, http.StatusForbidden, app.EForbidden, "no seat")
	status, data = cara.do("POST", "/api/account/games/"+c.ID+"/claim", "", nil)
	wantError(t, "a claim without a token", status, data, http.StatusForbidden, app.EForbidden, "valid seat token")
	status, data = cara.do("POST", "/api/account/games/"+c.ID+"/claim", "wrongtoken", nil)
	wantError(t, "a claim with a wrong token", status, data, http.StatusForbidden, app.EForbidden, "valid seat token")
	status, data = cara.do("POST", "/api/games/"+c.ID+"/resign", "", nil)
	wantError(t, "resigning by cookie", status, data, http.StatusForbidden, app.EForbidden, "no seat")
	// Ada's CSRF token with Cara's cookie is refused.
	cara.csrf = ada.csrf
	status, data = cara.do("POST", "/api/account/games/"+c.ID+"/seat", "", nil)
	wantError(t, "another session's CSRF token", status, data, http.StatusForbidden, app.EForbidden, "CSRF")
	cara.call("GET", "/api/account", "", nil, http.StatusOK, &me)
	cara.csrf = me.CSRF
	cara.call("GET", "/api/players/cara/games", "", nil, http.StatusOK, &list)
	if len(list.Games) != 0 {
		t.Errorf("cara's games %+v", list.Games)
	}

	// A game played anonymously is claimed with its seat token.
	anon := e.browser()
	var lc app.Created
	anon.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "ai"}, http.StatusCreated, &lc)
	var claimed map[string]string
	cara.call("POST", "/api/account/games/"+lc.ID+"/claim", lc.Token, nil, http.StatusOK, &claimed)
	if claimed["seat"] != "S" {
		t.Errorf("claimed %v", claimed)
	}
	cara.call("GET", "/api/players/cara/games?result=playing&ruleset=nsolo", "", nil, http.StatusOK, &list)
	if len(list.Games) != 1 || list.Games[0].ID != lc.ID {
		t.Errorf("cara's games after a claim %+v", list.Games)
	}
}

// TestRatedGame: a rated game between two accounts changes their
// ratings once when it ends; the leaderboard and the history show them.
func TestRatedGame(t *testing.T) {
	e := newAccountEnv(t)
	ada, bob := e.browser(), e.browser()
	ada.signUp("ada")
	bob.signUp("bob")
	status, data := ada.do("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "ai", Rated: true})
	wantError(t, "a rated game against the computer", status, data, http.StatusBadRequest, app.EInvalid, "never")
	status, data = ada.do("POST", "/api/games", "", app.CreateRequest{Ruleset: "tsoro size=8", Opponent: "friend", Rated: true})
	wantError(t, "a rated game of no preset", status, data, http.StatusBadRequest, app.EInvalid, "preset")
	status, data = e.browser().do("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Rated: true})
	wantError(t, "a rated game without logging in", status, data, http.StatusUnauthorized, app.EUnauthorized, "log in")

	var c app.Created
	ada.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Rated: true}, http.StatusCreated, &c)
	var j app.Joined
	bob.call("POST", "/api/games/"+c.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(c.Invite, "/join/"+c.ID+"/")}, http.StatusOK, &j)
	bob.call("POST", "/api/games/"+c.ID+"/resign", j.Token, nil, http.StatusOK, nil)
	status, _ = bob.do("POST", "/api/games/"+c.ID+"/resign", j.Token, nil)
	if status != http.StatusConflict {
		t.Errorf("resigning twice: %d", status)
	}
	var board struct {
		Ratings []accounts.RatingView
	}
	e.call("GET", "/api/leaderboard?ruleset=nsolo", "", nil, http.StatusOK, &board)
	if len(board.Ratings) != 2 || board.Ratings[0].Name != "ada" || board.Ratings[0].Glicko.Rating <= 1500 || board.Ratings[1].Glicko.Rating >= 1500 ||
		!board.Ratings[0].Provisional || board.Ratings[0].Games != 1 {
		t.Fatalf("leaderboard %+v", board.Ratings)
	}
	// The same result by Glicko-2, computed here.
	want := accounts.NewGlicko().Update([]accounts.Outcome{{Opponent: accounts.NewGlicko(), Score: 1}}, accounts.Tau)
	if got := board.Ratings[0].Glicko; got != want {
		t.Errorf("ada's rating %+v, want %+v", got, want)
	}
	// Rating the game again changes nothing.
	g, err := e.store.Game(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	acc := accounts.New(accounts.Config{Store: e.sq, Games: e.store, Params: testParams})
	if done, err := acc.Rate(context.Background(), g); done || err != nil {
		t.Errorf("rating a rated game again: %v %v", done, err)
	}
	var hist struct{ Points []accounts.RatingPoint }
	e.call("GET", "/api/players/ada/history?ruleset=nsolo", "", nil, http.StatusOK, &hist)
	if len(hist.Points) != 1 || hist.Points[0].Game != c.ID || hist.Points[0].Rating != want.Rating {
		t.Errorf("ada's history %+v", hist.Points)
	}
	var p accounts.Profile
	e.call("GET", "/api/players/BOB", "", nil, http.StatusOK, &p)
	if p.Name != "bob" || len(p.Stats) != 1 || p.Stats[0].Lost != 1 || len(p.Ratings) != 1 || p.Ratings[0].Glicko.Rating >= 1500 {
		t.Errorf("bob's profile %+v", p)
	}
	var list struct{ Games []accounts.GameSummary }
	e.call("GET", "/api/players/bob/games?result=lost", "", nil, http.StatusOK, &list)
	if len(list.Games) != 1 || list.Games[0].Outcome != "lost" {
		t.Errorf("bob's lost games %+v", list.Games)
	}

	// An unrated game between the same accounts leaves the ratings.
	var u app.Created
	ada.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend"}, http.StatusCreated, &u)
	bob.call("POST", "/api/games/"+u.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(u.Invite, "/join/"+u.ID+"/")}, http.StatusOK, &j)
	bob.call("POST", "/api/games/"+u.ID+"/resign", j.Token, nil, http.StatusOK, nil)
	e.call("GET", "/api/leaderboard?ruleset=nsolo", "", nil, http.StatusOK, &board)
	if board.Ratings[0].Games != 1 {
		t.Errorf("an unrated game was rated: %+v", board.Ratings)
	}
	// A rated game whose opponent joins anonymously is not rated.
	var a app.Created
	ada.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Rated: true}, http.StatusCreated, &a)
	e.browser().call("POST", "/api/games/"+a.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(a.Invite, "/join/"+a.ID+"/")}, http.StatusOK, &j)
	ada.call("POST", "/api/games/"+a.ID+"/resign", a.Token, nil, http.StatusOK, nil)
	e.call("GET", "/api/leaderboard?ruleset=nsolo", "", nil, http.StatusOK, &board)
	if board.Ratings[0].Games != 1 || board.Ratings[1].Games != 1 {
		t.Errorf("a game against an anonymous player was rated: %+v", board.Ratings)
	}
	status, data = e.do("GET", "/api/leaderboard?ruleset=nsolo&category=hyperbullet", "", nil)
	wantError(t, "an unknown category", status, data, http.StatusBadRequest, app.EInvalid, "untimed", "blitz", "correspondence")
	status, data = e.do("GET", "/api/players/nobody", "", nil)
	wantError(t, "an unknown player", status, data, http.StatusNotFound, app.ENotFound, "no player")
}

// TestNoHashLeaves: no answer of any route (headers and bodies) holds a
// password hash, its salt or tag, or an account's seat key.
func TestNoHashLeaves(t *testing.T) {
	e := newAccountEnv(t)
	ada, bob := e.browser(), e.browser()
	ada.signUp("ada")
	bob.signUp("bob")
	var c app.Created
	ada.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Rated: true}, http.StatusCreated, &c)
	var j app.Joined
	bob.call("POST", "/api/games/"+c.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(c.Invite, "/join/"+c.ID+"/")}, http.StatusOK, &j)
	bob.call("POST", "/api/games/"+c.ID+"/resign", j.Token, nil, http.StatusOK, nil)
	for _, b := range []*browser{ada, bob} {
		for _, path := range []string{"/api/account", "/api/players/ada", "/api/players/bob", "/api/players/ada/games", "/api/players/bob/games?result=lost",
			"/api/players/ada/history?ruleset=nsolo", "/api/leaderboard?ruleset=nsolo", "/api/games/" + c.ID, "/api/games", "/api/games/" + c.ID + "/replay", "/api/games/" + c.ID + "/record"} {
			b.do("GET", path, "", nil)
		}
		b.do("POST", "/api/account/games/"+c.ID+"/seat", "", nil)
		b.do("POST", "/api/account/login", "", credentials{Name: "ada", Password: "wrong password"})
		b.do("POST", "/api/account/password", "", passwordRequest{Old: "wrong", New: "a new password"})
	}
	for _, name := range []string{"ada", "bob"} {
		a, err := e.sq.AccountByName(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(a.Hash, "$")
		secrets := map[string]string{"hash": a.Hash, "salt": parts[4], "tag": parts[5], "seat key": string(a.SeatKey)}
		for what, v := range secrets {
			for _, b := range []*browser{ada, bob} {
				if bytes.Contains(b.seen.Bytes(), []byte(v)) {
					t.Errorf("an answer holds %s's password %s", name, what)
				}
			}
		}
		for _, b := range []*browser{ada, bob} {
			if bytes.Contains(b.seen.Bytes(), []byte("argon2")) || bytes.Contains(b.seen.Bytes(), []byte("seat_key")) {
				t.Errorf("an answer names the hash or the seat key")
			}
		}
	}
	if ada.seen.Len() < 1000 {
		t.Fatalf("only %d bytes of answers seen", ada.seen.Len())
	}
}

// TestAnonymousPlayUnchanged: without accounts, the routes of accounts
// answer 404 and games are created and joined as before.
func TestAccountsDisabled(t *testing.T) {
	e := newEnv(t)
	status, data := e.do("POST", "/api/account/login", "", credentials{Name: "ada", Password: "password"})
	wantError(t, "log-in without accounts", status, data, http.StatusNotFound, app.ENotFound, "keeps no accounts")
	status, data = e.do("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Rated: true})
	wantError(t, "a rated game without accounts", status, data, http.StatusBadRequest, app.EInvalid, "keeps none")
	c := e.create(app.CreateRequest{Ruleset: "nsolo", Opponent: "friend"})
	e.call("POST", "/api/games/"+c.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(c.Invite, "/join/"+c.ID+"/")}, http.StatusOK, nil)
}

// TestRatedGameByTheRules: a rated game played to its end by the rules
// (not resigned) is rated once, with the result the rules gave.
func TestRatedGameByTheRules(t *testing.T) {
	e := newAccountEnv(t)
	ada, bob := e.browser(), e.browser()
	ada.signUp("ada")
	bob.signUp("bob")
	var c app.Created
	ada.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Rated: true}, http.StatusCreated, &c)
	var j app.Joined
	bob.call("POST", "/api/games/"+c.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(c.Invite, "/join/"+c.ID+"/")}, http.StatusOK, &j)
	tokens := map[string]string{c.Seat: c.Token, j.Seat: j.Token}
	v := e.view(c.ID, "")
	m := newMirror(t, v.Ruleset)
	for v.Status == "playing" {
		a := m.next(t)
		var res app.ActResult
		e.call("POST", "/api/games/"+c.ID+"/actions", tokens[v.ToMove], map[string]any{"action": a, "ply": v.Ply}, http.StatusOK, &res)
		m.apply(t, a)
		v = *res.Game
		if v.Ply > 2000 {
			t.Fatal("game too long")
		}
	}
	var board struct{ Ratings []accounts.RatingView }
	e.call("GET", "/api/leaderboard?ruleset=nsolo", "", nil, http.StatusOK, &board)
	if len(board.Ratings) != 2 || board.Ratings[0].Games != 1 || board.Ratings[1].Games != 1 {
		t.Fatalf("after a game ended by the rules (%s, %s): leaderboard %+v", v.Result, v.Reason, board.Ratings)
	}
	score := map[string]float64{"S": 1, "N": 0, "draw": 0.5}[v.Result]
	want := accounts.NewGlicko().Update([]accounts.Outcome{{Opponent: accounts.NewGlicko(), Score: score}}, accounts.Tau)
	var p accounts.Profile
	e.call("GET", "/api/players/ada", "", nil, http.StatusOK, &p)
	if len(p.Ratings) != 1 || p.Ratings[0].Glicko != want {
		t.Errorf("ada (South) after %s: %+v, want %+v", v.Result, p.Ratings, want)
	}
}

// TestRatePending: a rated game whose end was stored without its rating
// (an instance stopped between the two) is rated by RatePending, once.
func TestRatePending(t *testing.T) {
	e := newAccountEnv(t)
	ada, bob := e.browser(), e.browser()
	ada.signUp("ada")
	bob.signUp("bob")
	var c app.Created
	ada.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Rated: true}, http.StatusCreated, &c)
	bob.call("POST", "/api/games/"+c.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(c.Invite, "/join/"+c.ID+"/")}, http.StatusOK, nil)
	// An unratable rated game: its opponent joined anonymously.
	var u app.Created
	ada.call("POST", "/api/games", "", app.CreateRequest{Ruleset: "nsolo", Opponent: "friend", Rated: true}, http.StatusCreated, &u)
	e.browser().call("POST", "/api/games/"+u.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(u.Invite, "/join/"+u.ID+"/")}, http.StatusOK, nil)
	ctx := context.Background()
	for _, id := range []string{c.ID, u.ID} {
		if err := e.store.Finish(ctx, id, 0, "N", "resigned"); err != nil { // past the service: no rating
			t.Fatal(err)
		}
	}
	acc := accounts.New(accounts.Config{Store: e.sq, Games: e.store, Params: testParams})
	if n, err := acc.RatePending(ctx); n != 1 || err != nil {
		t.Fatalf("RatePending rated %d (%v), want 1", n, err)
	}
	if n, err := acc.RatePending(ctx); n != 0 || err != nil {
		t.Errorf("RatePending again rated %d (%v)", n, err)
	}
	var p accounts.Profile
	e.call("GET", "/api/players/bob", "", nil, http.StatusOK, &p)
	if len(p.Ratings) != 1 || p.Ratings[0].Games != 1 || p.Ratings[0].Glicko.Rating <= 1500 {
		t.Errorf("bob (North, the winner) %+v", p.Ratings)
	}
}
