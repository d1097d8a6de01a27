package server

import (
	"slices"
	"strings"
	"sync"
	"time"

	"matombo/internal/app"
)

// Presence: which sides of a game have a player's socket open, on any
// instance. Each instance counts its own sockets per game and side; when
// the sides it holds change it tells its local sockets of the game (a
// "presence" message) and the other instances (app.SignalPresence). An
// instance that starts watching a game asks the others for theirs
// (SignalAsk); each instance says it is alive every presenceAlive, and the
// notes of an instance not heard from for presenceStale (or that said
// bye) are forgotten, so a crashed instance's players do not stay
// "connected".

// The pace of the instances' liveness.
const (
	presenceAlive = 10 * time.Second
	presenceStale = 3 * presenceAlive
)

// presence is this instance's view of who is connected to the games
// watched here.
type presence struct {
	s       *Server
	mu      sync.Mutex
	watched map[string]int               // game -> sockets here (spectators too)
	local   map[string]*[2]int           // game -> player sockets here per side
	remote  map[string]map[string]string // game -> instance -> the sides its sockets hold
	shown   map[string]string            // game -> the sides last told to the sockets here
	heard   map[string]time.Time         // instance -> when it was last heard
}

func newPresence(s *Server) *presence {
	return &presence{s: s, watched: map[string]int{}, local: map[string]*[2]int{}, remote: map[string]map[string]string{},
		shown: map[string]string{}, heard: map[string]time.Time{}}
}

// seats writes the sides of held as "", "S", "N" or "SN".
func seats(s, n bool) string {
	out := ""
	if s {
		out += "S"
	}
	if n {
		out += "N"
	}
	return out
}

// localSeats returns the sides held here in game id (mu held).
func (p *presence) localSeats(id string) string {
	c := p.local[id]
	if c == nil {
		return ""
	}
	return seats(c[0] > 0, c[1] > 0)
}

// combined returns the sides held on any instance in game id (mu held).
func (p *presence) combined(id string) string {
	all := p.localSeats(id)
	for _, r := range p.remote[id] {
		all += r
	}
	return seats(strings.Contains(all, "S"), strings.Contains(all, "N"))
}

// join counts a socket of game id, seated at side ("" for a spectator),
// and tells the game's sockets if the sides held changed.
func (p *presence) join(id, side string) {
	p.mu.Lock()
	p.watched[id]++
	first := p.watched[id] == 1
	before := p.localSeats(id)
	if i := sideIndex(side); i >= 0 {
		if p.local[id] == nil {
			p.local[id] = &[2]int{}
		}
		p.local[id][i]++
	}
	after := p.localSeats(id)
	p.mu.Unlock()
	if first {
		p.s.signal(app.Signal{Kind: app.SignalAsk, ID: id})
	}
	if after != before {
		p.s.signal(app.Signal{Kind: app.SignalPresence, ID: id, Seats: after})
	}
	p.update(id)
}

// now returns the presence message of game id as it is.
func (p *presence) now(id string) *serverMsg {
	p.mu.Lock()
	defer p.mu.Unlock()
	return presenceMsg(p.combined(id))
}

// leave uncounts a socket of game id seated at side.
func (p *presence) leave(id, side string) {
	p.mu.Lock()
	before := p.localSeats(id)
	if i := sideIndex(side); i >= 0 && p.local[id] != nil {
		p.local[id][i]--
	}
	after := p.localSeats(id)
	if p.watched[id]--; p.watched[id] <= 0 {
		delete(p.watched, id)
		delete(p.local, id)
		delete(p.remote, id)
		delete(p.shown, id)
	}
	p.mu.Unlock()
	if after != before {
		p.s.signal(app.Signal{Kind: app.SignalPresence, ID: id, Seats: after})
	}
	p.update(id)
}

// update tells the sockets here of game id the sides held, if they changed.
func (p *presence) update(id string) {
	p.mu.Lock()
	if p.watched[id] == 0 {
		p.mu.Unlock()
		return
	}
	now := p.combined(id)
	old, ok := p.shown[id]
	p.shown[id] = now
	p.mu.Unlock()
	if !ok || old != now {
		p.s.hub.sendGame(id, *presenceMsg(now), false)
	}
}

// presenceMsg is the message telling a game's sockets the sides held.
func presenceMsg(held string) *serverMsg {
	return &serverMsg{Type: "presence", Presence: map[string]bool{"S": strings.Contains(held, "S"), "N": strings.Contains(held, "N")}}
}

// sideIndex returns 0 for "S", 1 for "N", -1 otherwise.
func sideIndex(side string) int {
	switch side {
	case "S":
		return 0
	case "N":
		return 1
	}
	return -1
}

// got handles a presence signal of another instance.
func (p *presence) got(sig app.Signal) {
	p.mu.Lock()
	p.heard[sig.Origin] = time.Now()
	var games []string
	switch sig.Kind {
	case app.SignalPresence:
		if p.watched[sig.ID] > 0 {
			if p.remote[sig.ID] == nil {
				p.remote[sig.ID] = map[string]string{}
			}
			if sig.Seats == "" {
				delete(p.remote[sig.ID], sig.Origin)
			} else {
				p.remote[sig.ID][sig.Origin] = sig.Seats
			}
			games = append(games, sig.ID)
		}
	case app.SignalAsk:
		if held := p.localSeats(sig.ID); held != "" {
			defer p.s.signal(app.Signal{Kind: app.SignalPresence, ID: sig.ID, Seats: held})
		}
	case app.SignalBye:
		delete(p.heard, sig.Origin)
		games = p.forget(func(o string) bool { return o == sig.Origin })
	}
	p.mu.Unlock()
	for _, id := range games {
		p.update(id)
	}
}

// forget drops the notes of the instances gone says, and returns the
// games whose presence may have changed (mu held).
func (p *presence) forget(gone func(origin string) bool) []string {
	var games []string
	for id, rs := range p.remote {
		for o := range rs {
			if gone(o) {
				delete(rs, o)
				games = append(games, id)
			}
		}
	}
	slices.Sort(games)
	return slices.Compact(games)
}

// prune forgets the instances not heard from for presenceStale.
func (p *presence) prune(now time.Time) {
	p.mu.Lock()
	stale := map[string]bool{}
	for o, at := range p.heard {
		if now.Sub(at) > presenceStale {
			stale[o] = true
			delete(p.heard, o)
		}
	}
	games := p.forget(func(o string) bool { return stale[o] })
	p.mu.Unlock()
	for _, id := range games {
		p.update(id)
	}
}

// resync asks the other instances again for every game watched here.
func (p *presence) resync() {
	p.mu.Lock()
	ids := make([]string, 0, len(p.watched))
	for id := range p.watched {
		ids = append(ids, id)
	}
	p.mu.Unlock()
	for _, id := range ids {
		p.s.signal(app.Signal{Kind: app.SignalAsk, ID: id})
	}
}
