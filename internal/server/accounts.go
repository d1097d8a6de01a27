package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/mancala"
)

// The accounts' HTTP side (package accounts): sign-up, log-in and out,
// the password, the account's seats, profiles, ratings and leaderboards.
//
// A session travels in the HttpOnly cookie sessionCookie; its CSRF token
// in the cookie csrfCookie, which the pages read and send back in the
// header csrfHeader with every state-changing request. Every such request
// that carries a valid session (and so acts for its account) must carry
// the session's token (checkCSRF), besides passing the Origin check of
// guard.go. Requests without a session are anonymous, as before.

// The names of the cookies and of the CSRF header.
const (
	sessionCookie = "matombo_session"
	csrfCookie    = "matombo_csrf"
	csrfHeader    = "X-CSRF-Token"
)

// The limits of log-ins and sign-ups: every attempt counts, a successful
// log-in is given back.
const (
	loginsPerAccount = 10 // attempts on one account a loginWindow
	loginsPerAddr    = 30 // attempts from one address a loginWindow
	loginWindow      = 15 * time.Minute
	signupsPerAddr   = 10 // accounts created from one address an hour
)

// accountRoutes holds the accounts' service and limits; acc is nil when
// the store keeps no accounts.
type accountRoutes struct {
	acc        *accounts.Service
	secure     bool // Secure cookies whatever the request
	loginAcct  *limiter
	loginAddr  *limiter
	signupAddr *limiter
}

func newAccountRoutes(svc *app.Service, o Options) *accountRoutes {
	a := &accountRoutes{acc: o.Accounts, secure: o.SecureCookies,
		loginAcct:  newLimiter(loginsPerAccount, loginWindow, "log-in attempts on one account, from any address"),
		loginAddr:  newLimiter(loginsPerAddr, loginWindow, "log-in attempts from one address, on any account"),
		signupAddr: newLimiter(signupsPerAddr, time.Hour, "accounts created"),
	}
	if a.acc != nil {
		svc.SetFinishListener(a.acc)
	}
	return a
}

// registerAccounts registers the accounts' routes.
func (s *Server) registerAccounts(m *http.ServeMux) {
	m.HandleFunc("POST /api/account/signup", s.jsonOnly(s.withAccounts(s.handleSignUp)))
	m.HandleFunc("POST /api/account/login", s.jsonOnly(s.withAccounts(s.handleLogIn)))
	m.HandleFunc("POST /api/account/logout", s.withAccounts(s.handleLogOut))
	m.HandleFunc("GET /api/account", s.withAccounts(s.handleMe))
	m.HandleFunc("POST /api/account/password", s.jsonOnly(s.withAccounts(s.handlePassword)))
	m.HandleFunc("POST /api/account/games/{id}/seat", s.withAccounts(s.handleAccountSeat))
	m.HandleFunc("POST /api/account/games/{id}/claim", s.withAccounts(s.handleClaim))
	m.HandleFunc("GET /api/players/{name}", s.withAccounts(s.handleProfile))
	m.HandleFunc("GET /api/players/{name}/games", s.withAccounts(s.handlePlayerGames))
	m.HandleFunc("GET /api/players/{name}/history", s.withAccounts(s.handleHistory))
	m.HandleFunc("GET /api/leaderboard", s.withAccounts(s.handleLeaderboard))
}

// withAccounts answers 404 when the server keeps no accounts.
func (s *Server) withAccounts(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.accts.acc == nil {
			s.fail(w, r, app.Errorf(app.ENotFound, "this server keeps no accounts (its store does not); games are played by link"))
			return
		}
		h(w, r)
	}
}

// sessionToken returns the session token of r's cookie, or "".
func sessionToken(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

// checkCSRF refuses a state-changing request with a session but without
// its CSRF token in csrfHeader.
func checkCSRF(r *http.Request, session string) error {
	if safeMethod(r.Method) || accounts.CheckCSRF(session, strings.TrimSpace(r.Header.Get(csrfHeader))) {
		return nil
	}
	what := "a wrong one"
	if r.Header.Get(csrfHeader) == "" {
		what = "none"
	}
	return app.Errorf(app.EForbidden, "%s %s carries your session cookie but not its CSRF token (%s): send the %s header the pages send, the csrf of GET /api/account",
		r.Method, r.URL.Path, what, csrfHeader)
}

// account returns the account of r's session, checking the CSRF token
// of a state-changing request: EUnauthorized without a valid session.
func (s *Server) account(r *http.Request) (*accounts.Account, string, error) {
	token := sessionToken(r)
	if token == "" {
		return nil, "", app.Errorf(app.EUnauthorized, "you are not logged in: log in first (POST /api/account/login)")
	}
	a, err := s.accts.acc.Authenticate(r.Context(), token)
	if err != nil {
		return nil, "", err
	}
	if err := checkCSRF(r, token); err != nil {
		return nil, "", err
	}
	return a, token, nil
}

// optionalAccount is account for a route that also serves anonymous
// players: nil without a valid session, an error only for a valid session
// without its CSRF token.
func (s *Server) optionalAccount(r *http.Request) (*accounts.Account, error) {
	if s.accts.acc == nil || sessionToken(r) == "" {
		return nil, nil
	}
	a, _, err := s.account(r)
	if app.ErrorCode(err) == app.EUnauthorized {
		return nil, nil // an ended session: the player is anonymous
	}
	return a, err
}

// secureRequest reports whether the cookies of r's answer are Secure:
// served over TLS, configured so, or asked from an https page (a proxy
// ending TLS in front of the server).
func (s *Server) secureRequest(r *http.Request) bool {
	return r.TLS != nil || s.accts.secure || strings.HasPrefix(strings.ToLower(r.Header.Get("Origin")), "https://")
}

// setSession sets (li non-nil) or clears the session and CSRF cookies.
func (s *Server) setSession(w http.ResponseWriter, r *http.Request, li *accounts.LoggedIn) {
	token, csrf, age := "", "", -1
	if li != nil {
		token, csrf, age = li.Token, li.CSRF, int(time.Until(li.Expires)/time.Second)
	}
	secure := s.secureRequest(r)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/", MaxAge: age, HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode})
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: csrf, Path: "/", MaxAge: age, Secure: secure, SameSite: http.SameSiteLaxMode})
}

// credentials is the body of sign-up and log-in.
type credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// parseCredentials reads the body of sign-up and log-in.
func parseCredentials(w http.ResponseWriter, r *http.Request) (credentials, error) {
	var c credentials
	if err := decodeJSON(w, r, &c); err != nil {
		return c, err
	}
	if c.Name == "" || c.Password == "" {
		return c, app.Errorf(app.EInvalid, `the body needs a name and a password: {"name":"ada","password":"…"}`)
	}
	return c, nil
}

// loggedIn is the answer of sign-up and log-in.
func loggedIn(li *accounts.LoggedIn) accounts.Me {
	return accounts.Me{Name: li.Account.Name, Created: li.Account.Created, CSRF: li.CSRF}
}

func (s *Server) handleSignUp(w http.ResponseWriter, r *http.Request) {
	if err := s.allowed(w, s.accts.signupAddr, clientAddr(r), "accounts created from your address"); err != nil {
		s.fail(w, r, err)
		return
	}
	c, err := parseCredentials(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	li, err := s.accts.acc.SignUp(r.Context(), c.Name, c.Password)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.setSession(w, r, li)
	writeJSON(w, http.StatusCreated, loggedIn(li))
}

// allowed counts a request in l under key, or returns the 429 refusal
// (with Retry-After set) naming what.
func (s *Server) allowed(w http.ResponseWriter, l *limiter, key, what string) error {
	ok, retry, _ := l.allow(key, time.Now())
	if ok {
		return nil
	}
	secs := int((retry + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	return app.Errorf(app.ERateLimited, "too many %s: %s, %d %s; retry in %d s", what, l.what, l.n, perWindow(l.window), secs)
}

// perWindow names a limit's window: "an hour", "per 15 minutes".
func perWindow(d time.Duration) string {
	switch {
	case d == time.Hour:
		return "an hour"
	case d == time.Minute:
		return "a minute"
	case d%time.Minute == 0:
		return fmt.Sprintf("per %d minutes", d/time.Minute)
	}
	return "per " + d.String()
}

// loginLimits counts a log-in attempt on the account key from r's
// address; give takes it back after a success.
func (s *Server) loginLimits(w http.ResponseWriter, r *http.Request, key string) (give func(), err error) {
	addr := clientAddr(r)
	okA, retryA, bA := s.accts.loginAddr.allow(addr, time.Now())
	okK, retryK, bK := s.accts.loginAcct.allow(key, time.Now())
	if okA && okK {
		return func() { s.accts.loginAddr.refund(addr, bA); s.accts.loginAcct.refund(key, bK) }, nil
	}
	if okA {
		s.accts.loginAddr.refund(addr, bA)
	}
	if okK {
		s.accts.loginAcct.refund(key, bK)
	}
	l, retry, what := s.accts.loginAddr, retryA, "log-in attempts from your address"
	if !okK {
		l, retry, what = s.accts.loginAcct, retryK, "log-in attempts on this account"
	}
	secs := int((retry + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	return nil, app.Errorf(app.ERateLimited, "too many %s: %s, %d %s; retry in %d s", what, l.what, l.n, perWindow(l.window), secs)
}

func (s *Server) handleLogIn(w http.ResponseWriter, r *http.Request) {
	c, err := parseCredentials(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	key, err := accounts.NameKey(c.Name)
	if err != nil {
		key = "" // no such account: one bucket for every malformed name, which fails without a hash
	}
	give, err := s.loginLimits(w, r, key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	li, err := s.accts.acc.LogIn(r.Context(), c.Name, c.Password)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	give()
	s.setSession(w, r, li)
	writeJSON(w, http.StatusOK, loggedIn(li))
}

func (s *Server) handleLogOut(w http.ResponseWriter, r *http.Request) {
	_, token, err := s.account(r)
	if err != nil {
		if app.ErrorCode(err) == app.EUnauthorized {
			s.setSession(w, r, nil) // an ended session's cookies go too
		}
		s.fail(w, r, err)
		return
	}
	if err := s.accts.acc.LogOut(r.Context(), token); err != nil {
		s.fail(w, r, err)
		return
	}
	s.setSession(w, r, nil)
	writeJSON(w, http.StatusOK, map[string]bool{"logged_out": true})
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	a, token, err := s.account(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.accts.acc.Me(a, token))
}

// passwordRequest is the body of POST /api/account/password.
type passwordRequest struct {
	Old string `json:"old"`
	New string `json:"new"`
}

func (s *Server) handlePassword(w http.ResponseWriter, r *http.Request) {
	a, token, err := s.account(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var req passwordRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	give, err := s.loginLimits(w, r, a.Key) // guessing the old password is guessing a log-in
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.accts.acc.ChangePassword(r.Context(), a, token, req.Old, req.New); err != nil {
		s.fail(w, r, err)
		return
	}
	give()
	writeJSON(w, http.StatusOK, map[string]string{"changed": "your password; your other sessions are logged out"})
}

func (s *Server) handleAccountSeat(w http.ResponseWriter, r *http.Request) {
	a, _, err := s.account(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	seat, err := s.accts.acc.SeatToken(r.Context(), a, r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, seat)
}

func (s *Server) handleClaim(w http.ResponseWriter, r *http.Request) {
	a, _, err := s.account(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	side, err := s.accts.acc.Claim(r.Context(), a, r.PathValue("id"), seatToken(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"seat": side.String()})
}

func (s *Server) handleProfile(w http.ResponseWriter, r *http.Request) {
	p, err := s.accts.acc.Profile(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) handlePlayerGames(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := accounts.GameFilter{Ruleset: q.Get("ruleset"), Result: q.Get("result"), BeforeID: q.Get("before_id")}
	if f.Ruleset != "" {
		rs, err := mancala.ParseRuleset(f.Ruleset)
		if err != nil {
			s.fail(w, r, app.Errorf(app.EInvalid, "ruleset: %v", err))
			return
		}
		f.Ruleset = rs.String()
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			s.fail(w, r, app.Errorf(app.EInvalid, "limit %q is not allowed; limit is a whole number from 1 to 100", v))
			return
		}
		f.Limit = n
	}
	if v := q.Get("before"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			s.fail(w, r, app.Errorf(app.EInvalid, "before %q is not a time; use the updated time of the last game listed (RFC 3339)", v))
			return
		}
		f.Before = t
	}
	games, err := s.accts.acc.Games(r.Context(), r.PathValue("name"), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games})
}

// ratingKey reads the ruleset and category of a query: the ruleset is
// canonicalised, the category defaults to untimed.
func ratingKey(r *http.Request) (accounts.RatingKey, error) {
	q := r.URL.Query()
	rs, err := mancala.ParseRuleset(q.Get("ruleset"))
	if err != nil {
		return accounts.RatingKey{}, app.Errorf(app.EInvalid, "ruleset: %v", err)
	}
	return accounts.RatingKey{Ruleset: rs.String(), Category: q.Get("category")}, nil
}

func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	key, err := ratingKey(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	pts, err := s.accts.acc.History(r.Context(), r.PathValue("name"), key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ruleset": key.Ruleset, "points": pts})
}

func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	key, err := ratingKey(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	limit := 0
	if v := r.URL.Query().Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil {
			s.fail(w, r, app.Errorf(app.EInvalid, "limit %q is not allowed; limit is a whole number from 1 to 100", v))
			return
		}
	}
	rows, err := s.accts.acc.Leaderboard(r.Context(), key, limit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	category := key.Category
	if category == "" {
		category = accounts.CategoryUntimed
	}
	writeJSON(w, http.StatusOK, map[string]any{"ruleset": key.Ruleset, "category": category, "categories": app.Categories, "provisional_rd": accounts.ProvisionalRD, "ratings": rows})
}

// creatorAccount returns the account a new game is created for (nil:
// anonymous), and refuses a rated game that cannot be: without accounts,
// without a log-in, or not between two players on a preset.
func (s *Server) creatorAccount(r *http.Request, req app.CreateRequest) (*accounts.Account, error) {
	a, err := s.optionalAccount(r)
	if err != nil || !req.Rated {
		return a, err
	}
	if s.accts.acc == nil {
		return nil, app.Errorf(app.EInvalid, "rated games need accounts, and this server keeps none; create the game without rated")
	}
	if a == nil {
		return nil, app.Errorf(app.EUnauthorized, "log in to create a rated game: ratings are kept per account")
	}
	if _, err := accounts.RatedKeyOf(req); err != nil {
		return nil, err
	}
	return a, nil
}

// attachCreated gives account a (if any) the creator's seat of the new
// game out, and marks it rated if asked. The game exists already: a
// failure is logged, and the seat by link still works.
func (s *Server) attachCreated(ctx context.Context, a *accounts.Account, req app.CreateRequest, out *app.Created) {
	if a == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	if req.Rated {
		key, err := accounts.RatedKeyOf(req)
		if err == nil {
			err = s.accts.acc.MarkRated(ctx, out.ID, key)
		}
		if err != nil {
			s.log.Error("accounts: mark a new game rated", "game", out.ID, "err", err)
		}
	}
	s.attach(ctx, a, out.ID, out.Seat)
}

// attach gives a the seat at side (S or N) of game id.
func (s *Server) attach(ctx context.Context, a *accounts.Account, id, side string) {
	if a == nil {
		return
	}
	sd := mancala.South
	if side == "N" {
		sd = mancala.North
	}
	if err := s.accts.acc.Attach(context.WithoutCancel(ctx), a, id, sd); err != nil {
		s.log.Error("accounts: attach a seat", "game", id, "err", err)
	}
}

// attachJoined gives a (if any) the seat it joined game id at, unless the
// game is rated and another account holds that side: a rated game counts
// one account a side (the join stands, by link).
func (s *Server) attachJoined(ctx context.Context, a *accounts.Account, id, side string) {
	if a == nil {
		return
	}
	ok, err := s.accts.acc.MayTake(ctx, a, id, side)
	if err != nil || !ok {
		if err != nil {
			s.log.Warn("accounts: a joined seat not attached", "game", id, "err", err)
		}
		return
	}
	s.attach(ctx, a, id, side)
}

// accountsOf returns the accounts' service on store, if it keeps accounts.
func accountsOf(store app.Store, log *slog.Logger) *accounts.Service {
	as, ok := store.(accounts.Store)
	if !ok {
		return nil
	}
	return accounts.New(accounts.Config{Store: as, Games: store, Logger: log})
}

// ratePending rates, in the background until ctx ends, the finished rated
// games whose rating was missed; wg tracks the goroutine.
func (s *Server) ratePending(ctx context.Context, wg *sync.WaitGroup) {
	acc := s.accts.acc
	if acc == nil {
		return
	}
	wg.Go(func() {
		n, err := acc.RatePending(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Error("accounts: rate the games whose rating was missed", "rated", n, "err", err)
		} else if n > 0 {
			s.log.Info("accounts: rated games whose rating was missed", "rated", n)
		}
	})
}
