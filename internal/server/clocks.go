package server

import (
	"context"
	"net/http"

	"matombo/internal/app"
)

// The clocks' and offers' routes (app/offers.go): an abort before both
// sides have played, draw offers and takebacks between friends. Each
// answers the game's view for the asker; the change reaches every live
// client of the game as an update over its WebSocket.

// registerClocks registers the offers' routes.
func (s *Server) registerClocks(m *http.ServeMux) {
	m.HandleFunc("POST /api/games/{id}/abort", s.seatAction(s.svc.Abort))
	m.HandleFunc("POST /api/games/{id}/draw", s.seatAction(s.svc.OfferDraw))
	m.HandleFunc("POST /api/games/{id}/takeback", s.seatAction(s.svc.Takeback))
	m.HandleFunc("POST /api/games/{id}/decline", s.seatAction(s.svc.Decline))
}

// seatAction is the handler of a request made with a seat token
// (Authorization: Seat <token>) and no body, answered with the game.
func (s *Server) seatAction(f func(ctx context.Context, id, token string) (*app.GameView, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := f(r.Context(), r.PathValue("id"), seatToken(r))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, answer(v, nil))
	}
}
