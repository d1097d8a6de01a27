package durability

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// socket is a JSON WebSocket to one instance; it reads messages by type.
type socket struct {
	t    *testing.T
	conn *websocket.Conn
	name string
	seen strings.Builder // every message read
}

// dial opens the socket path of the instance at base and sends hello.
func dial(t *testing.T, base, path, name string, hello map[string]any) *socket {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+path, nil)
	if err != nil {
		t.Fatalf("%s: open the socket: %v", name, err)
	}
	conn.SetReadLimit(4 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	s := &socket{t: t, conn: conn, name: name}
	s.send(hello)
	return s
}

func (s *socket) send(m map[string]any) {
	s.t.Helper()
	data, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.conn.Write(ctx, websocket.MessageText, data); err != nil {
		s.t.Fatalf("%s: send: %v", s.name, err)
	}
}

// message is the part of the lobby's and the game's messages the test reads.
type message struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Why       string          `json:"why"`
	Game      json.RawMessage `json:"game"`
	Challenge struct {
		ID string `json:"id"`
	} `json:"challenge"`
	Presence map[string]bool `json:"presence"`
	By       string          `json:"by"`
	Say      string          `json:"say"`
}

// until reads messages until match accepts one, within wait.
func (s *socket) until(wait time.Duration, what string, match func(message) bool) message {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for {
		_, data, err := s.conn.Read(ctx)
		if err != nil {
			s.t.Fatalf("%s: waiting for %s: %v", s.name, what, err)
		}
		s.seen.Write(data)
		var m message
		if err := json.Unmarshal(data, &m); err != nil {
			s.t.Fatalf("%s: bad message %s: %v", s.name, data, err)
		}
		if match(m) {
			return m
		}
	}
}

// testLobbyInstances runs two `matombo serve` processes on one PostgreSQL
// database: a challenge posted on one reaches the lobby sockets of the
// other and is accepted there, its creator told on the first; the players'
// presence and quick messages cross between them; a challenge whose
// creator's lobby socket is on the other instance stays while it is open
// and expires after the grace once it closes.
func testLobbyInstances(t *testing.T, bin, dsn string) {
	a, b := start(t, bin, dsn, "--lobby-grace", "2s"), start(t, bin, dsn, "--lobby-grace", "2s")
	defer a.kill()
	defer b.kill()
	const wait = 15 * time.Second
	watcherB := dial(t, b.url, "/api/lobby/ws", "lobby on B", map[string]any{"type": "hello", "keys": []string{}})
	watcherB.until(wait, "the list", func(m message) bool { return m.Type == "lobby" })
	var posted struct {
		Challenge struct{ ID string } `json:"challenge"`
		Key       string              `json:"key"`
	}
	if _, err := call("POST", a.url+"/api/lobby/challenges", "", map[string]any{"ruleset": "tsoro size=8", "side": "S", "time_control": "5+3"}, &posted); err != nil {
		t.Fatal(err)
	}
	creatorA := dial(t, a.url, "/api/lobby/ws", "the creator on A", map[string]any{"type": "hello", "keys": []string{posted.Key}})
	watcherB.until(wait, "the challenge", func(m message) bool { return m.Type == "challenge" && m.Challenge.ID == posted.Challenge.ID })

	var acc struct{ Game, Seat, Token string }
	if _, err := call("POST", b.url+"/api/lobby/challenges/"+posted.Challenge.ID+"/accept", "", nil, &acc); err != nil {
		t.Fatal(err)
	}
	matched := creatorA.until(wait, "matched", func(m message) bool { return m.Type == "matched" })
	var game string
	json.Unmarshal(matched.Game, &game)
	if game != acc.Game || acc.Seat != "N" {
		t.Fatalf("the creator on A was matched to %q, the acceptor on B seated at %s of %s", game, acc.Seat, acc.Game)
	}
	watcherB.until(wait, "the challenge gone", func(m message) bool { return m.Type == "gone" && m.ID == posted.Challenge.ID && m.Why == "accepted" })
	if strings.Contains(watcherB.seen.String(), posted.Key) || strings.Contains(creatorA.seen.String(), acc.Token) {
		t.Error("a lobby socket saw another player's seat token")
	}

	// Presence and quick messages: South on A, North on B.
	hello := func(token string) map[string]any {
		return map[string]any{"type": "hello", "token": token, "ply": 0, "presence": true}
	}
	south := dial(t, a.url, "/api/games/"+acc.Game+"/ws", "south on A", hello(posted.Key))
	south.until(wait, "south alone", func(m message) bool { return m.Type == "presence" && m.Presence["S"] && !m.Presence["N"] })
	north := dial(t, b.url, "/api/games/"+acc.Game+"/ws", "north on B", hello(acc.Token))
	north.until(wait, "both, on B", func(m message) bool { return m.Type == "presence" && m.Presence["S"] && m.Presence["N"] })
	south.until(wait, "both, on A", func(m message) bool { return m.Type == "presence" && m.Presence["S"] && m.Presence["N"] })
	north.send(map[string]any{"type": "say", "say": "good_luck"})
	south.until(wait, "north's quick message", func(m message) bool { return m.Type == "say" && m.By == "N" && m.Say == "good_luck" })
	north.conn.Close(websocket.StatusNormalClosure, "")
	south.until(wait, "north gone", func(m message) bool { return m.Type == "presence" && m.Presence["S"] && !m.Presence["N"] })

	// A challenge posted on A whose creator's socket is on B: B keeps it
	// alive past several graces, and its closing expires it.
	if _, err := call("POST", a.url+"/api/lobby/challenges", "", map[string]any{"ruleset": "nsolo"}, &posted); err != nil {
		t.Fatal(err)
	}
	creatorB := dial(t, b.url, "/api/lobby/ws", "the creator on B", map[string]any{"type": "hello", "keys": []string{posted.Key}})
	creatorB.until(wait, "the list", func(m message) bool { return m.Type == "lobby" })
	time.Sleep(6 * time.Second) // three graces
	var list struct {
		Challenges []struct{ ID string } `json:"challenges"`
	}
	if _, err := call("GET", a.url+"/api/lobby", "", nil, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Challenges) != 1 || list.Challenges[0].ID != posted.Challenge.ID {
		t.Fatalf("with its creator on B, A lists %+v", list.Challenges)
	}
	watcherA := dial(t, a.url, "/api/lobby/ws", "lobby on A", map[string]any{"type": "hello", "keys": []string{}})
	watcherA.until(wait, "the list", func(m message) bool { return m.Type == "lobby" })
	creatorB.conn.Close(websocket.StatusNormalClosure, "")
	watcherA.until(wait, "the challenge expired", func(m message) bool { return m.Type == "gone" && m.ID == posted.Challenge.ID && m.Why == "expired" })
}
