package server

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"matombo/internal/app"
)

// statusOf maps each application error code to its HTTP status: the one
// table of the server.
var statusOf = map[app.Code]int{
	app.EInvalid:          http.StatusBadRequest,
	app.ENotFound:         http.StatusNotFound,
	app.EForbidden:        http.StatusForbidden,
	app.EUnauthorized:     http.StatusUnauthorized,
	app.EConflict:         http.StatusConflict,
	app.ETooLarge:         http.StatusRequestEntityTooLarge,
	app.ERateLimited:      http.StatusTooManyRequests,
	app.EInternal:         http.StatusInternalServerError,
	app.EMethodNotAllowed: http.StatusMethodNotAllowed,
	app.EUnsupportedMedia: http.StatusUnsupportedMediaType,
	app.EMisdirected:      http.StatusMisdirectedRequest,
	app.EUnavailable:      http.StatusServiceUnavailable,
}

// errorBody is the JSON of an error answer.
type errorBody struct {
	Error          string   `json:"error"`
	Code           app.Code `json:"code"`
	SuggestRuleset string   `json:"suggest_ruleset,omitempty"` // a ruleset that would make the request succeed (app.Error.SuggestRuleset)
}

// writeError answers err as JSON with its status; internal errors are
// logged and not shown.
func writeError(w http.ResponseWriter, log *slog.Logger, r *http.Request, err error) {
	code := app.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	if code == app.EInternal {
		log.Error("internal error", "method", r.Method, "path", redact(r.URL.Path), "err", err)
	}
	writeJSON(w, status, errorBody{Error: app.ErrorMessage(err), Code: code, SuggestRuleset: app.ErrorSuggestRuleset(err)})
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(v)
}
