package server

import (
	"net/http"

	"matombo/internal/app"
)

// handlePositionCheck answers the engine's verdict on a ruleset and a
// position (app.CheckPosition), for the board editor: 200 with valid true
// and the view, or valid false with the input at fault and the reason. A
// refused position is the answer, not a failed request.
func (s *Server) handlePositionCheck(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	writeJSON(w, http.StatusOK, app.CheckPosition(q.Get("ruleset"), q.Get("pos")))
}
