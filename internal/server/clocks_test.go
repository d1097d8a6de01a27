package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"matombo/internal/accounts"
	"matombo/internal/app"
	"matombo/internal/fakeclock"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// clockServer is a server with accounts on a fresh SQLite database and a
// fake clock.
type clockServer struct {
	*accountEnv
	clock *fakeclock.Clock
	svc   *app.Service
}

func newClockServer(t *testing.T) *clockServer {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	clock := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	svc := app.NewService(app.Config{Store: store, AI: search.NewGreedyLevels(7), Workers: 2, Clock: clock})
	acc := accounts.New(accounts.Config{Store: store, Games: store, Params: testParams})
	srv := New(svc, Options{Accounts: acc})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Shutdown()
		hs.Close()
		svc.Close()
		store.Close()
	})
	return &clockServer{accountEnv: &accountEnv{testEnv: &testEnv{t: t, srv: srv, http: hs, store: store}, sq: store}, clock: clock, svc: svc}
}

// playTurn plays the whole turn of the side to move of game id (its first
// legal action at each decision) with token.
func (e *clockServer) playTurn(id, token string) app.GameView {
	e.t.Helper()
	v := e.view(id, token)
	side := v.ToMove
	for v.Status == "playing" && v.ToMove == side {
		var a Answer
		e.call("POST", "/api/games/"+id+"/actions", token, map[string]any{"action": v.Legal[0], "ply": v.Ply}, http.StatusOK, &a)
		v = *a.Game
	}
	return v
}

// TestTimeControlField: the create request's time_control, its view, and
// its error naming what is allowed.
func TestTimeControlField(t *testing.T) {
	e := newClockServer(t)
	status, data := e.do("POST", "/api/games", "", map[string]any{"ruleset": "nsolo", "opponent": "friend", "time_control": "3+99"})
	wantError(t, "a bad time control", status, data, http.StatusBadRequest, app.EInvalid, "time_control", "3+2", "corr:D", "1, 3 or 7")
	status, data = e.do("POST", "/api/games", "", map[string]any{"ruleset": "nsolo", "opponent": "ai", "time_control": "3+2"})
	wantError(t, "a clock against the computer", status, data, http.StatusBadRequest, app.EInvalid, "computer")
	var a Answer
	e.call("POST", "/api/games", "", map[string]any{"ruleset": "nsolo", "opponent": "friend", "time_control": "corr:3"}, http.StatusCreated, &a)
	c := a.Game.Clock
	if c == nil || c.Control != "corr:3" || c.Category != "correspondence" || c.Left["S"] != 3*24*3600*1000 || c.Running != "S" || c.Due == nil {
		t.Fatalf("correspondence clock %+v", c)
	}
	e.call("POST", "/api/games", "", map[string]any{"ruleset": "nsolo", "opponent": "friend"}, http.StatusCreated, &a)
	if c := a.Game.Clock; c.Control != "" || c.AbandonAfterS != int64(app.AbandonAfter/time.Second) {
		t.Fatalf("untimed game: clock %+v", c)
	}
}

// TestRatedBulletFlag: a rated 1+0 game between two accounts ends by the
// flag with nobody connected, and is rated under bullet.
func TestRatedBulletFlag(t *testing.T) {
	e := newClockServer(t)
	ada, bob := e.browser(), e.browser()
	ada.signUp("ada")
	bob.signUp("bob")
	var c app.Created
	ada.call("POST", "/api/games", "", map[string]any{"ruleset": "nsolo", "opponent": "friend", "rated": true, "time_control": "1+0"}, http.StatusCreated, &c)
	var j app.Joined
	bob.call("POST", "/api/games/"+c.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(c.Invite, "/join/"+c.ID+"/")}, http.StatusOK, &j)
	e.playTurn(c.ID, c.Token)
	v := e.playTurn(c.ID, j.Token)
	if !v.Clock.Started || v.Offers.CanTakeback || !v.Offers.Rated || v.Offers.TimeCategory != "bullet" {
		t.Fatalf("rated bullet game: clock %+v offers %+v", v.Clock, v.Offers)
	}
	status, data := e.do("POST", "/api/games/"+c.ID+"/takeback", c.Token, nil)
	wantError(t, "a takeback in a rated game", status, data, http.StatusForbidden, app.EForbidden, "rated")
	e.clock.Advance(time.Minute)
	if n, err := e.svc.Sweep(context.Background()); n != 1 || err != nil {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	if v := e.view(c.ID, ""); v.Result != "N" || v.Reason != app.ReasonTime {
		t.Fatalf("flagged: %s (%s)", v.Result, v.Reason)
	}
	var board struct {
		Category string
		Ratings  []accounts.RatingView
	}
	e.call("GET", "/api/leaderboard?ruleset=nsolo&category=bullet", "", nil, http.StatusOK, &board)
	if board.Category != "bullet" || len(board.Ratings) != 2 || board.Ratings[0].Name != "bob" || board.Ratings[0].Glicko.Rating <= 1500 || board.Ratings[1].Glicko.Rating >= 1500 {
		t.Fatalf("bullet leaderboard %+v", board)
	}
	e.call("GET", "/api/leaderboard?ruleset=nsolo", "", nil, http.StatusOK, &board)
	if len(board.Ratings) != 0 {
		t.Fatalf("the bullet game was rated untimed: %+v", board.Ratings)
	}
}

// TestOfferRoutes: abort, draw offers and takebacks over HTTP, each
// change reaching the opponent's WebSocket.
func TestOfferRoutes(t *testing.T) {
	e := newClockServer(t)
	c := e.create(app.CreateRequest{Ruleset: "tsoro size=8", Opponent: "friend"})
	var j app.Joined
	e.call("POST", "/api/games/"+c.ID+"/join", "", joinRequest{Invite: strings.TrimPrefix(c.Invite, "/join/"+c.ID+"/")}, http.StatusOK, &j)
	ws, err := e.dial(c.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.hello(j.Token, 0)
	status, data := e.do("POST", "/api/games/"+c.ID+"/abort", "", nil)
	wantError(t, "an abort without a seat", status, data, http.StatusForbidden, app.EForbidden, "seat")
	e.playTurn(c.ID, c.Token)
	for m := ws.recv(); m.Game == nil || m.Game.Ply == 0; m = ws.recv() {
	}
	e.playTurn(c.ID, j.Token)
	status, data = e.do("POST", "/api/games/"+c.ID+"/abort", c.Token, nil)
	wantError(t, "an abort after both played", status, data, http.StatusConflict, app.EConflict, "aborted")

	var a Answer
	e.call("POST", "/api/games/"+c.ID+"/draw", c.Token, nil, http.StatusOK, &a)
	if a.Game.Offers.Draw != "S" {
		t.Fatalf("draw offer: %+v", a.Game.Offers)
	}
	for m := ws.recv(); m.Game == nil || m.Game.Offers == nil || m.Game.Offers.Draw != "S"; m = ws.recv() {
	}
	e.call("POST", "/api/games/"+c.ID+"/decline", j.Token, nil, http.StatusOK, &a)
	if a.Game.Offers.Draw != "" {
		t.Fatalf("declined: %+v", a.Game.Offers)
	}
	e.call("POST", "/api/games/"+c.ID+"/takeback", j.Token, nil, http.StatusOK, &a)
	ply := a.Game.Ply
	e.call("POST", "/api/games/"+c.ID+"/takeback", c.Token, nil, http.StatusOK, &a)
	if a.Game.Ply >= ply || a.Game.ToMove != "N" {
		t.Fatalf("takeback: ply %d (was %d), to move %s", a.Game.Ply, ply, a.Game.ToMove)
	}
	e.call("POST", "/api/games/"+c.ID+"/draw", j.Token, nil, http.StatusOK, nil)
	e.call("POST", "/api/games/"+c.ID+"/draw", c.Token, nil, http.StatusOK, &a)
	if a.Game.Result != "draw" || a.Game.Reason != app.ReasonAgreed {
		t.Fatalf("draw accepted: %s (%s)", a.Game.Result, a.Game.Reason)
	}
	for m := ws.recv(); m.Game == nil || m.Game.Result != "draw"; m = ws.recv() {
	}
}
