package server

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"matombo/internal/app"
	"matombo/internal/jsonmsg"
)

// decodeJSON reads a JSON body of at most maxJSONBody bytes into v, refusing
// unknown fields and trailing data.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := readBody(w, r, maxJSONBody)
	if err != nil {
		return err
	}
	return decodeStrict(body, v)
}

// decodeStrict decodes one JSON value from data into v.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return app.Errorf(app.EInvalid, "bad JSON body: %s", jsonmsg.Describe(err, v))
	}
	if dec.More() {
		return app.Errorf(app.EInvalid, "bad JSON body: data after the JSON value")
	}
	return nil
}

// readBody reads the request body, at most limit bytes.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, app.Errorf(app.ETooLarge, "the request body is larger than %d bytes", limit)
	case err != nil:
		return nil, app.Errorf(app.EInvalid, "cannot read the request body: %v", err)
	}
	return data, nil
}

// seatToken returns the token of the "Authorization: Seat <token>" header.
func seatToken(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Seat") {
		return ""
	}
	return strings.TrimSpace(token)
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	writeError(w, s.log, r, err)
}

func (s *Server) handleRulesets(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"presets": app.Presets()})
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	var req app.CreateRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	req.Client = clientAddr(r) // the client whose games share the AI fairly with the others' (app.CreateRequest)
	// accounts.go: the logged-in creator (nil: anonymous), a rated game's checks
	acc, err := s.creatorAccount(r, req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := s.svc.Create(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.attachCreated(r.Context(), acc, req, out)
	writeJSON(w, http.StatusCreated, s.created(r.Context(), out))
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := app.ListFilter{Status: q.Get("status")}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			s.fail(w, r, app.Errorf(app.EInvalid, "limit %q is not allowed; limit is a whole number from 1 to 100", v))
			return
		}
		f.Limit = n
	}
	if v := q.Get("before"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			s.fail(w, r, app.Errorf(app.EInvalid, "before %q is not a time; use the updated time of the last game listed (RFC 3339)", v))
			return
		}
		f.Before = t
	}
	f.BeforeID = q.Get("before_id")
	games, err := s.svc.List(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games})
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	v, err := s.svc.View(r.Context(), r.PathValue("id"), seatToken(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// joinRequest is the body of POST /api/games/{id}/join.
type joinRequest struct {
	Invite string `json:"invite"`
	Name   string `json:"name"`
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	var req joinRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	acc, err := s.optionalAccount(r) // accounts.go: a logged-in joiner's seat follows the account
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := s.svc.Join(r.Context(), r.PathValue("id"), req.Invite, req.Name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.attachJoined(r.Context(), acc, r.PathValue("id"), out.Seat)
	writeJSON(w, http.StatusOK, s.joined(r.Context(), r.PathValue("id"), out))
}

func (s *Server) handleInvite(w http.ResponseWriter, r *http.Request) {
	out, err := s.svc.Invite(r.Context(), r.PathValue("id"), seatToken(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.invited(r.Context(), r.PathValue("id"), seatToken(r), out))
}

// actionRequest is the body of POST /api/games/{id}/actions.
type actionRequest struct {
	Action string `json:"action"`
	Ply    *int   `json:"ply"`
}

func (s *Server) handleAction(w http.ResponseWriter, r *http.Request) {
	var req actionRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	if req.Ply == nil {
		s.fail(w, r, app.Errorf(app.EInvalid, "the body needs the ply the client saw: {\"action\":\"a3\",\"ply\":N}"))
		return
	}
	res, err := s.act(r.Context(), viaHTTP, r.PathValue("id"), seatToken(r), req.Action, *req.Ply)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, answer(res.Game, res.Events))
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request) {
	v, err := s.svc.Resign(r.Context(), r.PathValue("id"), seatToken(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, answer(v, nil))
}

func (s *Server) handleHint(w http.ResponseWriter, r *http.Request) {
	h, err := s.svc.Hint(r.Context(), r.PathValue("id"), seatToken(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, h)
}

func (s *Server) handleRematch(w http.ResponseWriter, r *http.Request) {
	out, err := s.svc.Rematch(r.Context(), r.PathValue("id"), seatToken(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.created(r.Context(), out))
}

func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	text, err := s.svc.RecordText(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="matombo-`+id+`.txt"`)
	io.WriteString(w, text)
}

func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	v, err := s.svc.Replay(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleImport(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r, maxRecordBody)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	id, err := s.svc.ImportAs(r.Context(), string(body), r.URL.Query().Get("ruleset"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": id, "url": "/replay/" + id})
}

func (s *Server) handlePosition(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v, err := app.PositionView(q.Get("ruleset"), q.Get("pos"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
