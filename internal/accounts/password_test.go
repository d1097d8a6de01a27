package accounts

import (
	"strings"
	"testing"
)

// cheap are parameters fast enough for tests.
var cheap = Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}

func TestPasswordHash(t *testing.T) {
	h := hashPassword("correct horse", cheap)
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("hash %q does not name its algorithm and parameters", h)
	}
	if h2 := hashPassword("correct horse", cheap); h2 == h {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	for pw, want := range map[string]bool{"correct horse": true, "correct hors": false, "": false, "correct horse ": false} {
		if ok, err := checkPassword(pw, h); err != nil || ok != want {
			t.Errorf("check %q: %v %v, want %v", pw, ok, err, want)
		}
	}
	p, err := parseHash(hashPassword("x", DefaultParams))
	if err != nil || p.p != DefaultParams {
		t.Errorf("default parameters read back %+v (%v), want %+v", p.p, err, DefaultParams)
	}
}

// badHashes are stored hashes parseHash refuses.
var badHashes = []string{
	"", "$", "$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
	"$argon2id$v=16$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
	"$argon2id$v=19$m=4294967295,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
	"$argon2id$v=19$m=64,t=0,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
	"$argon2id$v=19$m=64,t=1,p=0$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
	"$argon2id$v=19$m=64,t=1,x=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
	"$argon2id$v=19$m=64,t=1,p=1$!!$aGFzaGhhc2hoYXNoaGFzaA",
	"$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaA",
	"$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA$",
}

func TestParseHashRefuses(t *testing.T) {
	for _, h := range badHashes {
		if _, err := parseHash(h); err == nil {
			t.Errorf("parseHash(%q) accepted it", h)
		}
	}
}

// FuzzParseHash: a stored hash either parses to parameters within the
// bounds (so checking a password against it is bounded) or is refused.
func FuzzParseHash(f *testing.F) {
	f.Add(hashPassword("pw", cheap))
	for _, h := range badHashes {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := parseHash(s)
		if err != nil {
			return
		}
		if h.p.Memory > maxMemory || h.p.Time > maxTime || h.p.Threads > maxThreads || len(h.salt) > maxSaltLen || len(h.key) > maxKeyLen || h.p.Time == 0 || h.p.Threads == 0 {
			t.Fatalf("%q parsed to parameters out of bounds: %+v", s, h.p)
		}
	})
}

func TestNameKey(t *testing.T) {
	for name, want := range map[string]string{"Ada": "ada", "bob_the-2nd.x": "bob_the-2nd.x", "A23": "a23"} {
		if got, err := NameKey(name); err != nil || got != want {
			t.Errorf("NameKey(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"", "ab", strings.Repeat("a", 25), "_ada", "ada lovelace", "adä", "ada\x00", "-ab", "a/b"} {
		if _, err := NameKey(name); err == nil {
			t.Errorf("NameKey(%q) accepted it", name)
		}
	}
}

func TestCSRF(t *testing.T) {
	s1, s2 := NewSecret(), NewSecret()
	if c := CSRFToken(s1); !CheckCSRF(s1, c) || CheckCSRF(s2, c) || CheckCSRF(s1, "") || CheckCSRF("", CSRFToken("")) || CheckCSRF(s1, c[:len(c)-1]) {
		t.Error("a CSRF token is accepted for another session, or a wrong one accepted")
	}
}
