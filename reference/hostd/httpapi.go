package hostd

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/wsconform/wsconform/reference/server"
)

// apiError is the body of every HTTP error: a stable code and a sentence.
type apiError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := server.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal","message":"cannot encode the answer"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, apiError{Error: code, Message: msg})
}

// onlyPost answers 405 to any other method; it reports whether to go on.
func onlyPost(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodPost {
		return true
	}
	w.Header().Set("Allow", http.MethodPost)
	writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" "+r.URL.Path+": use POST")
	return false
}

// readBody reads a JSON object body of at most MaxFrame bytes; on failure
// it has answered (413 or 400) and returns nil.
func (s *srv) readBody(w http.ResponseWriter, r *http.Request) map[string]any {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.env.MaxFrame))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("body larger than %d bytes", s.env.MaxFrame))
		return nil
	case err != nil:
		writeError(w, http.StatusBadRequest, "bad_request", "cannot read the body: "+err.Error())
		return nil
	}
	doc, err := decodeObject(raw)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "body: "+err.Error())
		return nil
	}
	return doc
}

// loginResponse is schemas/hostd/http/login_response.json; token_type is
// an addition (RFC 6749 §5.1 names the scheme to use the token with).
type loginResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
}

// login is POST /auth/login: {username, password} of the configured demo
// user → a new access token.
func (s *srv) login(w http.ResponseWriter, r *http.Request) {
	if !onlyPost(w, r) {
		return
	}
	if s.env.Mutations.Has(mutLoginRefusesAll) {
		writeError(w, http.StatusUnauthorized, "invalid_credentials", "wrong username or password")
		return
	}
	doc := s.readBody(w, r)
	if doc == nil {
		return
	}
	user, uok := doc["username"].(string)
	pass, pok := doc["password"].(string)
	if !uok || !pok {
		writeError(w, http.StatusBadRequest, "bad_request", "body needs username and password, both strings")
		return
	}
	// Both compared, always, so timing does not tell which one was wrong.
	okUser := sameSecret(user, s.env.Auth.User)
	okPass := sameSecret(pass, s.env.Auth.Password)
	if !okUser || !okPass {
		writeError(w, http.StatusUnauthorized, "invalid_credentials", "wrong username or password")
		return
	}
	writeJSON(w, http.StatusOK, loginResponse{AccessToken: s.hub.issue(), TokenType: "Bearer"})
}

// inputResponse answers POST /runs/{run_id}/input. Status is "forwarded"
// (202) the first time an input_id is seen and "duplicate" (200) after.
type inputResponse struct {
	RunID     string       `json:"run_id"`
	InputID   string       `json:"input_id"`
	Status    inputOutcome `json:"status"`
	Duplicate bool         `json:"duplicate"`
}

// postInput is POST /runs/{run_id}/input: Bearer auth, body {input_id,
// text} (schemas/hostd/http/input_request.json), forwarded to the run's
// host as run.send_input. Checks in order: method, token, body, run.
func (s *srv) postInput(w http.ResponseWriter, r *http.Request) {
	if s.env.Mutations.Has(mutInputEndpointGone) {
		http.NotFound(w, r)
		return
	}
	if !onlyPost(w, r) || !s.authorized(w, r) {
		return
	}
	doc := s.readBody(w, r)
	if doc == nil {
		return
	}
	if err := checkData(doc, commandFields[typeSendInput]); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	runID, inputID, text := r.PathValue("run_id"), doc["input_id"].(string), doc["text"].(string)
	out, err := s.hub.input(runID, inputID, text)
	if err != nil {
		status, code := errorStatus(err)
		writeError(w, status, code, err.Error())
		return
	}
	status := http.StatusAccepted
	if out == inputDuplicate {
		status = http.StatusOK
	}
	writeJSON(w, status, inputResponse{RunID: runID, InputID: inputID, Status: out, Duplicate: out == inputDuplicate})
}

// authorized checks the Bearer token; on failure it has answered 401.
func (s *srv) authorized(w http.ResponseWriter, r *http.Request) bool {
	tok, present := bearer(r)
	switch {
	case !present:
		w.Header().Set("WWW-Authenticate", `Bearer realm="hostd"`)
		writeError(w, http.StatusUnauthorized, "unauthorized", "missing Authorization: Bearer ACCESS_TOKEN (POST /auth/login gives one)")
		return false
	case !s.hub.validToken(tok):
		w.Header().Set("WWW-Authenticate", `Bearer realm="hostd", error="invalid_token"`)
		writeError(w, http.StatusUnauthorized, "invalid_token", "the access token is not valid; log in again")
		return false
	}
	return true
}

// errorStatus maps a hub error to an HTTP status and error code.
func errorStatus(err error) (int, string) {
	switch {
	case errors.Is(err, errRunUnknown):
		return http.StatusNotFound, "run_not_found"
	case errors.Is(err, errHostOffline):
		return http.StatusConflict, "host_offline"
	case errors.Is(err, errRunExited):
		return http.StatusConflict, "run_exited"
	case errors.Is(err, errInputReused):
		return http.StatusUnprocessableEntity, "input_id_reused"
	}
	return http.StatusInternalServerError, "internal"
}
