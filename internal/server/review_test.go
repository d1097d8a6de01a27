package server

import (
	"net/http"
	"net/url"
	"os"
	"testing"
	"time"

	"matombo/internal/app"
)

// TestReviewAPI: a finished game's review starts with POST (202 while it
// runs), is followed with GET until done, and a game in play or without
// a review is answered with the server's error codes.
func TestReviewAPI(t *testing.T) {
	e := newEnv(t)
	text, err := os.ReadFile("../cli/testdata/replay-tsoro-finished.txt")
	if err != nil {
		t.Fatal(err)
	}
	var imp struct{ ID string }
	e.call("POST", "/api/records", "", string(text), 201, &imp)
	path := "/api/games/" + imp.ID + "/review"
	status, data := e.do("GET", path, "", nil)
	wantError(t, "GET before POST", status, data, http.StatusNotFound, app.ENotFound, "no review", "POST")
	var v app.ReviewView
	status, data = e.do("POST", path, "", nil)
	if status != http.StatusAccepted && status != http.StatusOK {
		t.Fatalf("POST %s: %d %s", path, status, data)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		status, data := e.do("GET", path, "", nil)
		if status == http.StatusOK {
			e.call("GET", path, "", nil, 200, &v)
			break
		}
		if status != http.StatusAccepted || time.Now().After(deadline) {
			t.Fatalf("GET %s: %d %s", path, status, data)
		}
	}
	if v.Status != "done" || v.Done != v.Total || len(v.Turns) != v.Total-1 || v.Thresholds["blunder"] != 30 {
		t.Fatalf("review %+v", v)
	}
	c := e.create(app.CreateRequest{Ruleset: "tsoro size=8", Opponent: app.ModeLocal})
	status, data = e.do("POST", "/api/games/"+c.ID+"/review", "", nil)
	wantError(t, "review in play", status, data, http.StatusConflict, app.EConflict, "in play")
}

// TestAnalysisAPI: the analysis board plays actions from a position and
// evaluates on request; bad input names what was wrong.
func TestAnalysisAPI(t *testing.T) {
	e := newEnv(t)
	var v app.BoardView
	e.call("GET", "/api/analysis?ruleset=tsoro+size%3D8&actions=a3", "", nil, 200, &v)
	if v.View == nil || v.Eval != nil || len(v.Events) == 0 || v.View.Ply != 0 {
		t.Fatalf("board after a3: %+v", v)
	}
	e.call("GET", "/api/analysis?ruleset=tsoro+size%3D8&eval=1", "", nil, 200, &v)
	if v.Eval == nil || len(v.Eval.Top) != 3 || v.Eval.Chance.Text == "" {
		t.Fatalf("evaluation %+v", v.Eval)
	}
	for _, c := range []struct{ query, words string }{
		{"", "needs a ruleset"},
		{"ruleset=tsoro&eval=2", "eval"},
		{"ruleset=nope", "nope"},
		{"ruleset=tsoro&actions=" + url.QueryEscape("a3,zz"), "action 2"},
	} {
		status, data := e.do("GET", "/api/analysis?"+c.query, "", nil)
		wantError(t, c.query, status, data, http.StatusBadRequest, app.EInvalid, c.words)
	}
}
