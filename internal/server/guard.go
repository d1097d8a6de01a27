package server

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"matombo/internal/app"
)

// hostPolicy is the list of the names the server answers for (the Host
// header, against DNS rebinding) and of the origins whose pages may change
// state (the Origin header, against cross-site requests).
//
// A Host is answered when its name (the port does not count: proxies and
// port mappings change it) is listed, matches a listed "*.suffix", or is an
// IP address: a rebinding attack needs a DNS name of the attacker's, so a
// Host that is an address is the server's own origin. An Origin is admitted
// when it is the request's own host[:port], when its name is listed (an
// address counts only if listed: another machine's page is another
// origin), or when it matches one of the extra origin patterns.
type hostPolicy struct {
	names    map[string]bool // lower-case names and addresses, without port
	suffixes []string        // ".example.com" for a listed "*.example.com"
	any      bool            // "*" is listed: every Host and Origin
	patterns []string        // extra origins: path.Match patterns of host[:port]
}

// defaultHosts are always answered: the loopback names.
var defaultHosts = []string{"localhost", "127.0.0.1", "::1"}

// CheckHosts reports the first entry of hosts that is not a host name, an
// address, "*.suffix" or "*", with a message naming what is allowed.
func CheckHosts(hosts []string) error {
	for _, h := range hosts {
		if _, err := normalHost(h); err != nil {
			return err
		}
	}
	return nil
}

// normalHost returns entry as the policy keeps it: lower case, without
// port, brackets or final dot.
func normalHost(entry string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(entry))
	if e == "*" {
		return e, nil
	}
	name := hostname(e)
	if h, port, err := net.SplitHostPort(e); err == nil {
		if _, err := strconv.ParseUint(port, 10, 16); err != nil || hostname(h) != name {
			name = "" // not a port
		}
	}
	check := strings.TrimPrefix(name, "*.")
	if check == "" || len(check) > 253 || net.ParseIP(check) == nil && !isDNSName(check) {
		return "", fmt.Errorf("host %q is not allowed: give a host name (games.example.com), an address (192.0.2.7, [2001:db8::1]), *.example.com for every name under example.com, or * for any host; a port is ignored", entry)
	}
	return name, nil
}

// isDNSName reports whether s is made of letters, digits, '-' and '.',
// with no empty label.
func isDNSName(s string) bool {
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// hostname returns the name of a host[:port] (an IPv6 address without its
// brackets), lower case, without a final dot.
func hostname(hostport string) string {
	h := strings.ToLower(hostport)
	switch {
	case strings.HasPrefix(h, "["):
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return ""
		}
		h = h[1:end]
	case strings.Count(h, ":") == 1:
		h = h[:strings.IndexByte(h, ':')]
	}
	return strings.TrimSuffix(h, ".")
}

// newHostPolicy returns the policy answering the defaults, the host of the
// listen address (unless it is unspecified, such as 0.0.0.0) and hosts
// (checked by CheckHosts; invalid entries are skipped), and admitting the
// origins of patterns besides.
func newHostPolicy(hosts []string, listen string, patterns []string) *hostPolicy {
	p := &hostPolicy{names: map[string]bool{}}
	for _, h := range defaultHosts {
		p.names[h] = true
	}
	if h := hostname(listen); h != "" {
		if ip := net.ParseIP(h); ip == nil || !ip.IsUnspecified() {
			p.names[h] = true
		}
	}
	for _, entry := range hosts {
		name, err := normalHost(entry)
		switch {
		case err != nil:
		case name == "*":
			p.any = true
		case strings.HasPrefix(name, "*."):
			p.suffixes = append(p.suffixes, name[1:])
		default:
			p.names[name] = true
		}
	}
	for _, o := range patterns {
		p.patterns = append(p.patterns, strings.ToLower(o))
	}
	return p
}

// listed reports whether name (from hostname) is listed.
func (p *hostPolicy) listed(name string) bool {
	if p.any || p.names[name] {
		return true
	}
	for _, s := range p.suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// hostAllowed reports whether the server answers requests for host (the
// Host header).
func (p *hostPolicy) hostAllowed(host string) bool {
	name := hostname(host)
	if name == "" {
		return false
	}
	return net.ParseIP(name) != nil || p.listed(name)
}

// originAllowed reports whether a page of origin may change state on, or
// open a WebSocket to, the server at host: "" (no Origin: not a browser's
// cross-site request) is.
func (p *hostPolicy) originAllowed(origin, host string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return false // "null" (a sandboxed page, a file:) and the like
	}
	if strings.EqualFold(u.Host, host) || p.listed(hostname(u.Host)) {
		return true
	}
	for _, pat := range p.patterns {
		if ok, _ := path.Match(pat, strings.ToLower(u.Host)); ok {
			return true
		}
	}
	return false
}

// safeMethod reports whether method only reads.
func safeMethod(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// printable cuts s to a short, quoted form for a message.
func printable(s string) string {
	const most = 80
	if len(s) > most {
		s = s[:most] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// guard refuses what the host policy does not allow: 421 for a Host the
// server does not answer for (except /healthz, which load balancers probe
// by address or by an internal name, and which tells nothing of the games),
// and 403 for a state-changing request from another site's page. It
// reports whether the request may go on.
func (s *Server) guard(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != "/healthz" && !s.hosts.hostAllowed(r.Host) {
		writeError(w, s.log, r, app.Errorf(app.EMisdirected,
			"this server does not answer for host %s; open it by one of the names its operator lists (serve --host or MATOMBO_HOST), by localhost, or by its address", printable(r.Host)))
		return false
	}
	if !safeMethod(r.Method) {
		if err := s.checkOrigin(r); err != nil {
			writeError(w, s.log, r, err)
			return false
		}
	}
	return true
}

// checkOrigin refuses a request from another site's page: an Origin the
// policy does not admit, or, without Origin, a browser's Sec-Fetch-Site of
// cross-site.
func (s *Server) checkOrigin(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" && r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return app.Errorf(app.EForbidden, "cross-site request refused: only the pages of this server may %s %s", r.Method, r.URL.Path)
	}
	if !s.hosts.originAllowed(origin, r.Host) {
		return app.Errorf(app.EForbidden, "cross-origin request refused: Origin %s is not this server's; only its own pages (and the origins its operator lists with serve --host) may %s %s",
			printable(origin), r.Method, r.URL.Path)
	}
	return nil
}

// jsonOnly wraps h, a route taking a JSON body, to refuse another
// Content-Type with 415: a form or text/plain body is what a cross-site
// page can send without asking the browser first.
func (s *Server) jsonOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ct := r.Header.Get("Content-Type")
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			got := "none"
			if ct != "" {
				got = printable(ct)
			}
			writeError(w, s.log, r, app.Errorf(app.EUnsupportedMedia, "%s %s takes a JSON body: send it with Content-Type: application/json (got %s)", r.Method, r.URL.Path, got))
			return
		}
		h(w, r)
	}
}
