package server

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"matombo/internal/app"
)

// Limits bounds what clients may take of a server. Zero fields take the
// defaults shown.
type Limits struct {
	// SocketsPerAddr bounds the WebSockets open from one client address (64).
	SocketsPerAddr int
	// Sockets bounds the WebSockets open in all (DefaultSockets of the
	// process's file-descriptor limit).
	Sockets int
	// Creates bounds the games created, rematches and records imported that
	// are accepted, per client address a minute (60).
	Creates int
	// Joins bounds the attempts to join a game, refused ones included (a
	// wrong invite code counts: that is guessing), per address a minute (30).
	Joins int
	// Hints bounds the hints asked, per address a minute (30).
	Hints int
	// Lab bounds the lab's experiments asked, per address a minute (6).
	Lab int
}

// The defaults of Limits.
const (
	DefaultSocketsPerAddr = 64
	DefaultCreates        = 60
	DefaultJoins          = 30
	DefaultHints          = 30
	DefaultLab            = 6
)

// maxDefaultSockets caps DefaultSockets: each socket costs a few goroutines
// and buffers, some tens of kilobytes.
const maxDefaultSockets = 16384

// socketReserve is the fewest file descriptors DefaultSockets leaves to the
// rest of the server: the database, /healthz, the players' HTTP requests.
const socketReserve = 128

// DefaultSockets is the default bound of the WebSockets open in all for a
// process that may open nofile files (its RLIMIT_NOFILE; 0: unknown): three
// quarters of them, leaving at least socketReserve, at most
// maxDefaultSockets.
func DefaultSockets(nofile uint64) int {
	if nofile == 0 {
		nofile = 1024
	}
	reserve := max(socketReserve, nofile/4)
	n := uint64(0)
	if nofile > 2*socketReserve {
		n = nofile - reserve
	} else {
		n = nofile / 2
	}
	return int(max(1, min(n, maxDefaultSockets)))
}

// withDefaults fills the zero fields of l.
func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.SocketsPerAddr, DefaultSocketsPerAddr)
	def(&l.Sockets, DefaultSockets(fileLimit()))
	def(&l.Creates, DefaultCreates)
	def(&l.Joins, DefaultJoins)
	def(&l.Hints, DefaultHints)
	def(&l.Lab, DefaultLab)
	return l
}

// clientAddr is the key of a client for the limits: the TCP peer's address
// (RemoteAddr; no X-Forwarded-For), an IPv6 one cut to its /64, which one
// subscriber usually holds whole.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.Is6() && !ip.Is4In6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.String()
		}
	}
	return host
}

// limiter allows each client address n requests per window.
type limiter struct {
	mu     sync.Mutex
	n      int
	window time.Duration
	what   string // what counts, for the refusal: "joining games, wrong invite codes included"
	seen   map[string]*bucket
}

type bucket struct {
	start time.Time
	count int
}

func newLimiter(n int, window time.Duration, what string) *limiter {
	return &limiter{n: n, window: window, what: what, seen: map[string]*bucket{}}
}

// allow reports whether the client at addr may make one more request and
// counts it in b; if not, retry is the time until its window is over.
func (l *limiter) allow(addr string, now time.Time) (ok bool, retry time.Duration, b *bucket) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.seen) > 10000 {
		for k, b := range l.seen {
			if now.Sub(b.start) >= l.window {
				delete(l.seen, k)
			}
		}
	}
	b = l.seen[addr]
	if b == nil || now.Sub(b.start) >= l.window {
		b = &bucket{start: now}
		l.seen[addr] = b
	}
	if b.count < l.n {
		b.count++
		return true, 0, b
	}
	return false, b.start.Add(l.window).Sub(now), nil
}

// refund takes back a request that allow counted in b, if b is still the
// address's window.
func (l *limiter) refund(addr string, b *bucket) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[addr] == b && b.count > 0 {
		b.count--
	}
}

// limited wraps h with the rate limit l; what names the requests of h for
// the refusal, such as "games created". With acceptedOnly, a request that h
// refuses (any answer but 2xx) does not count.
func (s *Server) limited(l *limiter, what string, acceptedOnly bool, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		addr := clientAddr(r)
		ok, retry, b := l.allow(addr, time.Now())
		if !ok {
			secs := int((retry + time.Second - 1) / time.Second) // rounded up: never too early
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			s.fail(w, r, app.Errorf(app.ERateLimited, "too many %s from your address: %s, %d a %s; retry in %d s",
				what, l.what, l.n, windowText(l.window), secs))
			return
		}
		if !acceptedOnly {
			h(w, r)
			return
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			if rec.status < 200 || rec.status > 299 {
				l.refund(addr, b)
			}
		}()
		h(rec, r)
	}
}

// windowText names a limiter window: "minute" for one minute, else "5m0s".
func windowText(d time.Duration) string {
	if d == time.Minute {
		return "minute"
	}
	return d.String()
}

// sockets counts the open WebSockets, per client address and in all.
type sockets struct {
	mu      sync.Mutex
	perAddr map[string]int
	total   int
	maxAddr int
	max     int
}

func newSockets(maxAddr, max int) *sockets {
	return &sockets{perAddr: map[string]int{}, maxAddr: maxAddr, max: max}
}

// acquire takes a socket for addr, or says why not: 429 when addr has its
// most, 503 when the server has. release gives the socket back.
func (c *sockets) acquire(addr string) (release func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total >= c.max {
		return nil, app.Errorf(app.EUnavailable, "the server has %d live connections open, the most it takes; retry in a moment", c.max)
	}
	if c.perAddr[addr] >= c.maxAddr {
		return nil, app.Errorf(app.ERateLimited, "%d live connections are open from your address, the most one address may have; close some tabs of games and retry", c.maxAddr)
	}
	c.total++
	c.perAddr[addr]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.total--
			if c.perAddr[addr]--; c.perAddr[addr] <= 0 {
				delete(c.perAddr, addr)
			}
		})
	}, nil
}
