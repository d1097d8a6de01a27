package accounts

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"matombo/internal/app"
)

// Config configures a Service.
type Config struct {
	Store Store     // accounts, sessions, seat links, ratings
	Games app.Store // the games whose seats accounts take (AddSeat, Game)
	// Params are the Argon2id parameters of new hashes (zero:
	// DefaultParams). A password hashed with others is hashed again at
	// its next log-in.
	Params Params
	// Hashers bounds the hashes computed at once, each taking
	// Params.Memory (<= 0: 2).
	Hashers int
	// SessionTTL is how long a session lasts from its log-in (<= 0:
	// DefaultSessionTTL).
	SessionTTL time.Duration
	Logger     *slog.Logger // nil: discard
}

// DefaultSessionTTL is how long a session lasts unless configured.
const DefaultSessionTTL = 30 * 24 * time.Hour

// The bounds of names and passwords.
const (
	MinName     = 3
	MaxName     = 24
	MinPassword = 8
	MaxPassword = 256 // bytes
)

// Service runs the accounts: sign-up, log-in, sessions and their CSRF
// tokens, passwords, seats, profiles and ratings.
type Service struct {
	store   Store
	games   app.Store
	hasher  *hasher
	ttl     time.Duration
	log     *slog.Logger
	dummy   string // a hash to check a password against when the name is unknown
	nowFunc func() time.Time
}

// New returns the service of cfg.
func New(cfg Config) *Service {
	p := cfg.Params
	if p == (Params{}) {
		p = DefaultParams
	}
	s := &Service{store: cfg.Store, games: cfg.Games, hasher: newHasher(p, cfg.Hashers), ttl: cfg.SessionTTL, log: cfg.Logger, nowFunc: time.Now}
	if s.ttl <= 0 {
		s.ttl = DefaultSessionTTL
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.dummy = hashPassword(NewSecret(), p)
	return s
}

func (s *Service) now() time.Time { return s.nowFunc().UTC() }

var lowerBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewSecret returns 160 random bits from crypto/rand as 32 characters a–z2–7.
func NewSecret() string {
	b := make([]byte, 20)
	rand.Read(b)
	return lowerBase32.EncodeToString(b)
}

func newAccountID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return lowerBase32.EncodeToString(b)
}

// NameKey checks a user name and returns its key: the name in lower
// case. A name has MinName to MaxName characters among ASCII letters,
// digits, '_', '-' and '.', beginning with a letter or digit.
func NameKey(name string) (string, error) {
	if n := utf8.RuneCountInString(name); n < MinName || n > MaxName {
		return "", app.Errorf(app.EInvalid, "a user name has %d to %d characters (got %d)", MinName, MaxName, n)
	}
	for i, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !ok && (i == 0 || c != '_' && c != '-' && c != '.') {
			return "", app.Errorf(app.EInvalid, "user name %q has %q: a user name is made of letters a-z, digits and _ - . (not first)", printable(name), c)
		}
	}
	return strings.ToLower(name), nil
}

// printable cuts s for a message.
func printable(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// CheckPassword checks a new password's length.
func CheckPassword(password string) error {
	if n := utf8.RuneCountInString(password); n < MinPassword {
		return app.Errorf(app.EInvalid, "a password has at least %d characters (got %d)", MinPassword, n)
	}
	if len(password) > MaxPassword {
		return app.Errorf(app.EInvalid, "a password has at most %d bytes (got %d)", MaxPassword, len(password))
	}
	return nil
}

// LoggedIn is a new session: its token goes in the session cookie, its
// CSRF token in the header of the pages' state-changing requests.
type LoggedIn struct {
	Account *Account
	Token   string
	CSRF    string
	Expires time.Time
}

// SignUp creates an account and logs it in.
func (s *Service) SignUp(ctx context.Context, name, password string) (*LoggedIn, error) {
	key, err := NameKey(name)
	if err != nil {
		return nil, err
	}
	if err := CheckPassword(password); err != nil {
		return nil, err
	}
	if _, err := s.store.AccountByName(ctx, key); err == nil {
		return nil, app.Errorf(app.EConflict, "the user name %q is taken; choose another", name)
	}
	hash, err := s.hasher.hash(ctx, password)
	if err != nil {
		return nil, app.Errorf(app.EUnavailable, "the server is busy; sign up again in a moment")
	}
	seatKey := make([]byte, 32)
	rand.Read(seatKey)
	a := &Account{ID: newAccountID(), Name: name, Key: key, Hash: hash, SeatKey: seatKey, Created: s.now()}
	if err := s.store.CreateAccount(ctx, a); err != nil {
		if app.ErrorCode(err) == app.EConflict {
			return nil, app.Errorf(app.EConflict, "the user name %q is taken; choose another", name)
		}
		return nil, err
	}
	return s.newSession(ctx, a)
}

// errLogin is the one refusal of a log-in, whether the name or the
// password is wrong.
func errLogin() error {
	return app.Errorf(app.EUnauthorized, "wrong user name or password")
}

// LogIn checks a name and password and opens a session. An unknown name
// costs a hash too, so the time taken does not tell names apart.
func (s *Service) LogIn(ctx context.Context, name, password string) (*LoggedIn, error) {
	key, err := NameKey(name)
	if err != nil || len(password) > MaxPassword {
		return nil, errLogin()
	}
	a, err := s.store.AccountByName(ctx, key)
	if err != nil && app.ErrorCode(err) != app.ENotFound {
		return nil, err
	}
	stored := s.dummy
	if a != nil {
		stored = a.Hash
	}
	ok, stale, err := s.hasher.check(ctx, password, stored)
	if err != nil {
		if ctx.Err() != nil {
			return nil, app.Errorf(app.EUnavailable, "the server is busy; log in again in a moment")
		}
		return nil, app.Errorf(app.EInternal, "account %s: %v", key, err)
	}
	if !ok || a == nil {
		return nil, errLogin()
	}
	if stale {
		if hash, err := s.hasher.hash(ctx, password); err == nil {
			if err := s.store.SetPassword(ctx, a.ID, hash, nil); err != nil {
				s.log.Warn("accounts: hash a password again", "account", a.ID, "err", err)
			}
		}
	}
	return s.newSession(ctx, a)
}

// newSession opens a session of a.
func (s *Service) newSession(ctx context.Context, a *Account) (*LoggedIn, error) {
	token := NewSecret()
	now := s.now()
	sess := Session{Hash: app.HashToken(token), Account: a.ID, Created: now, Expires: now.Add(s.ttl)}
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return nil, err
	}
	return &LoggedIn{Account: a, Token: token, CSRF: CSRFToken(token), Expires: sess.Expires}, nil
}

// CSRFToken returns the CSRF token of a session: HMAC-SHA256 keyed with
// the session token, so it is per session and kept nowhere.
func CSRFToken(session string) string {
	m := hmac.New(sha256.New, []byte(session))
	m.Write([]byte("matombo csrf"))
	return lowerBase32.EncodeToString(m.Sum(nil)[:20])
}

// CheckCSRF reports, in constant time, whether got is the CSRF token of
// session.
func CheckCSRF(session, got string) bool {
	want := CSRFToken(session)
	return session != "" && len(got) == len(want) && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// Authenticate returns the account of the session token (EUnauthorized
// if there is none, or it expired or was revoked).
func (s *Service) Authenticate(ctx context.Context, token string) (*Account, error) {
	if len(token) != 32 {
		return nil, app.Errorf(app.EUnauthorized, "you are not logged in (or your session ended): log in again")
	}
	_, a, err := s.store.SessionAccount(ctx, app.HashToken(token), s.now())
	if app.ErrorCode(err) == app.ENotFound {
		return nil, app.Errorf(app.EUnauthorized, "you are not logged in (or your session ended): log in again")
	}
	return a, err
}

// LogOut ends the session of token.
func (s *Service) LogOut(ctx context.Context, token string) error {
	return s.store.DeleteSession(ctx, app.HashToken(token))
}

// ChangePassword replaces a's password, if old is its password, and ends
// a's other sessions: the session of token stays.
func (s *Service) ChangePassword(ctx context.Context, a *Account, token, old, password string) error {
	if err := CheckPassword(password); err != nil {
		return err
	}
	ok, _, err := s.hasher.check(ctx, old, a.Hash)
	if err != nil {
		return app.Errorf(app.EUnavailable, "the server is busy; try again in a moment")
	}
	if !ok {
		return app.Errorf(app.EForbidden, "the current password is wrong")
	}
	hash, err := s.hasher.hash(ctx, password)
	if err != nil {
		return app.Errorf(app.EUnavailable, "the server is busy; try again in a moment")
	}
	return s.store.SetPassword(ctx, a.ID, hash, app.HashToken(token))
}
