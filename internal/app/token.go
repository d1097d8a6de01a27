package app

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"strings"

	"matombo/mancala"
)

// tokenBytes is the size of a seat token or invite code: 160 bits.
const tokenBytes = 20

var lowerBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewToken returns a fresh secret from crypto/rand, as 32 characters a–z2–7.
func NewToken() string {
	b := make([]byte, tokenBytes)
	rand.Read(b)
	return lowerBase32.EncodeToString(b)
}

// newID returns a fresh game id: 10 characters a–z2–7 (50 random bits).
func newID() string {
	b := make([]byte, 7)
	rand.Read(b)
	return lowerBase32.EncodeToString(b)[:10]
}

// rematchToken returns the seat token at side in the rematch rid for the
// holder of token (a seat of the old game): an HMAC-SHA256 keyed with the
// token, cut to a token's size. The same seat asking again gets the same
// token, without the server keeping any secret but its hash; only the
// holder of the old token can compute it, and the rematch token does not
// reveal the old one.
func rematchToken(token, rid string, side mancala.Player) string {
	m := hmac.New(sha256.New, []byte(strings.TrimSpace(token)))
	m.Write([]byte("matombo rematch seat " + rid + " " + side.String()))
	return lowerBase32.EncodeToString(m.Sum(nil)[:tokenBytes])
}

// HashToken returns the sha256 of a token, as stored.
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// matchHash reports, in constant time for equal lengths, whether hash is the
// hash of token.
func matchHash(hash []byte, token string) bool {
	return len(hash) > 0 && subtle.ConstantTimeCompare(hash, HashToken(token)) == 1
}

// seatSide returns the side token holds a seat for in g.
func seatSide(g *Game, token string) (mancala.Player, bool) {
	token = strings.TrimSpace(token)
	if token == "" {
		return 0, false
	}
	h := HashToken(token)
	found := -1
	for _, s := range g.Seats {
		// Compare with every seat, so the time taken does not tell which matched.
		if subtle.ConstantTimeCompare(s.Hash, h) == 1 {
			found = int(s.Side)
		}
	}
	if found < 0 {
		return 0, false
	}
	return mancala.Player(found), true
}
