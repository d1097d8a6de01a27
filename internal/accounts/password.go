package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are the Argon2id parameters of a password hash.
type Params struct {
	Time    uint32 // passes over the memory
	Memory  uint32 // KiB of memory
	Threads uint8  // lanes
	SaltLen uint32 // bytes of random salt, per user
	KeyLen  uint32 // bytes of hash
}

// DefaultParams are RFC 9106's second recommended option (§4: for memory
// constrained settings): Argon2id with t=3 passes over m=64 MiB in p=4
// lanes, a 16-byte salt from crypto/rand and a 32-byte tag.
var DefaultParams = Params{Time: 3, Memory: 64 << 10, Threads: 4, SaltLen: 16, KeyLen: 32}

// The bounds of the parameters a stored hash may name: a hash outside them
// is refused rather than computed (a corrupt row must not take the
// server's memory).
const (
	maxTime    = 16
	maxMemory  = 1 << 20 // 1 GiB in KiB
	maxThreads = 64
	maxSaltLen = 64
	maxKeyLen  = 64
)

var b64 = base64.RawStdEncoding

// hashPassword returns the PHC string of password hashed with p and a new
// random salt: $argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>, unpadded
// standard base64.
func hashPassword(password string, p Params) string {
	salt := make([]byte, p.SaltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// parsedHash is a PHC string read back.
type parsedHash struct {
	p    Params
	salt []byte
	key  []byte
}

// parseHash reads a PHC string written by hashPassword, refusing any other
// algorithm or version and parameters outside the bounds.
func parseHash(s string) (parsedHash, error) {
	var h parsedHash
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return h, fmt.Errorf("accounts: a password hash is $argon2id$v=19$m=..,t=..,p=..$salt$hash")
	}
	if parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return h, fmt.Errorf("accounts: password hash version %q; only v=%d is read", parts[2], argon2.Version)
	}
	var m, t, p uint64
	for _, kv := range strings.Split(parts[3], ",") {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.ParseUint(v, 10, 32)
		if !ok || err != nil {
			return h, fmt.Errorf("accounts: password hash parameter %q is not key=number", kv)
		}
		switch k {
		case "m":
			m = n
		case "t":
			t = n
		case "p":
			p = n
		default:
			return h, fmt.Errorf("accounts: password hash parameter %q is not m, t or p", k)
		}
	}
	if m < 8 || m > maxMemory || t < 1 || t > maxTime || p < 1 || p > maxThreads || m < 8*p {
		return h, fmt.Errorf("accounts: password hash parameters m=%d,t=%d,p=%d are outside the bounds read (m 8..%d KiB, t 1..%d, p 1..%d)", m, t, p, maxMemory, maxTime, maxThreads)
	}
	var err error
	if h.salt, err = b64.DecodeString(parts[4]); err != nil || len(h.salt) < 8 || len(h.salt) > maxSaltLen {
		return h, fmt.Errorf("accounts: password hash salt is not 8..%d bytes of base64", maxSaltLen)
	}
	if h.key, err = b64.DecodeString(parts[5]); err != nil || len(h.key) < 16 || len(h.key) > maxKeyLen {
		return h, fmt.Errorf("accounts: password hash tag is not 16..%d bytes of base64", maxKeyLen)
	}
	h.p = Params{Time: uint32(t), Memory: uint32(m), Threads: uint8(p), SaltLen: uint32(len(h.salt)), KeyLen: uint32(len(h.key))}
	return h, nil
}

// checkPassword reports whether password matches the PHC string stored,
// comparing the tags in constant time.
func checkPassword(password, stored string) (bool, error) {
	h, err := parseHash(stored)
	if err != nil {
		return false, err
	}
	key := argon2.IDKey([]byte(password), h.salt, h.p.Time, h.p.Memory, h.p.Threads, h.p.KeyLen)
	return subtle.ConstantTimeCompare(key, h.key) == 1, nil
}

// hasher runs the hashes, a few at once: each takes Params.Memory.
type hasher struct {
	p     Params
	slots chan struct{}
}

// newHasher returns a hasher of n slots (<= 0: 2).
func newHasher(p Params, n int) *hasher {
	if n <= 0 {
		n = 2
	}
	return &hasher{p: p, slots: make(chan struct{}, n)}
}

// do runs f in a slot, or returns the context's error.
func (h *hasher) do(ctx context.Context, f func()) error {
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-h.slots }()
	f()
	return nil
}

// hash hashes password with the hasher's parameters.
func (h *hasher) hash(ctx context.Context, password string) (string, error) {
	var out string
	err := h.do(ctx, func() { out = hashPassword(password, h.p) })
	return out, err
}

// check is checkPassword in a slot; stale reports whether the stored hash
// has other parameters than the hasher's (it should be hashed again).
func (h *hasher) check(ctx context.Context, password, stored string) (ok, stale bool, err error) {
	var cerr error
	if err := h.do(ctx, func() { ok, cerr = checkPassword(password, stored) }); err != nil {
		return false, false, err
	}
	if cerr != nil {
		return false, false, cerr
	}
	if ph, perr := parseHash(stored); perr == nil {
		stale = ph.p != h.p
	}
	return ok, stale, nil
}
