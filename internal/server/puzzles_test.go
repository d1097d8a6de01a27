package server

import (
	"bytes"
	"net/http"
	"testing"

	"matombo/internal/app"
	"matombo/puzzles"
)

// TestPuzzlesAPI plays a shipped puzzle through the API: the list, the
// puzzle without its solution, its main line to "solved" with the
// engine's replies, a wrong first action, the solution, and the rating.
func TestPuzzlesAPI(t *testing.T) {
	e := newEnv(t)
	var sets struct {
		Sets []puzzleSetInfo `json:"sets"`
	}
	e.call("GET", "/api/puzzles", "", nil, http.StatusOK, &sets)
	if len(sets.Sets) != len(puzzles.Presets()) {
		t.Fatalf("%d sets, want one per preset: %+v", len(sets.Sets), sets.Sets)
	}
	st, err := puzzles.Load("nsolo")
	if err != nil {
		t.Fatal(err)
	}
	var p puzzles.Puzzle
	for _, q := range st.Puzzles {
		if len(q.Line) >= 3 {
			p = q
			break
		}
	}
	if p.ID == "" {
		t.Fatal("no nsolo puzzle with a main line of 3 actions or more")
	}
	var list struct {
		Puzzles []puzzleInfo `json:"puzzles"`
	}
	e.call("GET", "/api/puzzles/nsolo", "", nil, http.StatusOK, &list)
	if len(list.Puzzles) != len(st.Puzzles) {
		t.Errorf("%d puzzles listed, %d shipped", len(list.Puzzles), len(st.Puzzles))
	}
	base := "/api/puzzles/nsolo/" + p.ID
	status, data := e.do("GET", base, "", nil)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", base, status, data)
	}
	var pv puzzleView
	e.call("GET", base, "", nil, http.StatusOK, &pv)
	if pv.Position != p.Position || pv.View == nil || len(pv.View.Legal) != p.Legal {
		t.Errorf("the puzzle's view: %+v", pv)
	}
	for _, field := range []string{`"line"`, `"action"`} {
		if bytes.Contains(data, []byte(field)) {
			t.Errorf("the puzzle gives its solution away: %s in %s", field, data)
		}
	}

	var played []string
	var ans puzzleMoveAnswer
	for ans.Status == "" || ans.Status == puzzles.StatusPlaying {
		if len(played) >= len(p.Line) {
			t.Fatalf("the main line ended after %v without a solve", played)
		}
		played = append(played, p.Line[len(played)])
		e.call("POST", base+"/moves", "", map[string]any{"actions": played}, http.StatusOK, &ans)
		played = append(played, ans.Replies...)
	}
	if ans.Status != puzzles.StatusSolved || len(played) != len(p.Line) || ans.View.Status != "over" || len(ans.Line) != len(p.Line) {
		t.Errorf("after %v: %+v", played, ans)
	}

	var wrong string
	for _, a := range pv.View.Legal {
		if a != p.Action {
			wrong = a
			break
		}
	}
	e.call("POST", base+"/moves", "", map[string]any{"actions": []string{wrong}}, http.StatusOK, &ans)
	if ans.Status != puzzles.StatusFailed || ans.Best != p.Action {
		t.Errorf("the wrong first action %s: %+v", wrong, ans)
	}
	var sol struct {
		Line []string `json:"line"`
	}
	e.call("GET", base+"/solution", "", nil, http.StatusOK, &sol)
	if len(sol.Line) != len(p.Line) || sol.Line[0] != p.Action {
		t.Errorf("the solution: %v, want %v", sol.Line, p.Line)
	}

	checkPuzzleResults(t, e, base, p)

	bad := []struct {
		method, path string
		body         any
		want         int
		code         app.Code
	}{
		{"GET", "/api/puzzles/chess", nil, http.StatusNotFound, app.ENotFound},
		{"GET", "/api/puzzles/nsolo/nsolo-99999", nil, http.StatusNotFound, app.ENotFound},
		{"POST", base + "/moves", map[string]any{"actions": []string{}}, http.StatusBadRequest, app.EInvalid},
		{"POST", base + "/moves", map[string]any{"actions": []string{"q7"}}, http.StatusBadRequest, app.EInvalid},
		{"POST", base + "/moves", map[string]any{"actions": append(append([]string{}, p.Line...), p.Action)}, http.StatusBadRequest, app.EInvalid},
		{"POST", base + "/moves", map[string]any{"moves": []string{p.Action}}, http.StatusBadRequest, app.EInvalid},
		{"POST", base + "/result", map[string]any{"solved": true, "attempt": attemptA, "rating": map[string]any{"rating": 1e9, "rd": 50, "volatility": 0.06}}, http.StatusBadRequest, app.EInvalid},
		{"POST", base + "/result", map[string]any{"solved": true, "attempt": attemptA, "rating": map[string]any{"rating": 1500, "rd": 5000, "volatility": 0.06}}, http.StatusBadRequest, app.EInvalid},
		{"POST", base + "/result", map[string]any{"solved": true}, http.StatusBadRequest, app.EInvalid},
		{"POST", base + "/result", map[string]any{"solved": true, "attempt": "short"}, http.StatusBadRequest, app.EInvalid},
		{"POST", base + "/result", map[string]any{"solved": true, "attempt": "with spaces and more than sixteen"}, http.StatusBadRequest, app.EInvalid},
		{"POST", "/api/puzzles/nsolo/nsolo-99999/result", map[string]any{"solved": true, "attempt": attemptA}, http.StatusNotFound, app.ENotFound},
		{"POST", "/api/puzzles/chess/chess-0001/result", map[string]any{"solved": true, "attempt": attemptA}, http.StatusNotFound, app.ENotFound},
	}
	for _, c := range bad {
		status, data := e.do(c.method, c.path, "", c.body)
		wantError(t, c.method+" "+c.path, status, data, c.want, c.code)
	}
}
