package reference

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/dialect"
)

// invalidUTF8 is a text frame whose payload is JSON but not UTF-8.
var invalidUTF8 = []byte("{\"type\":\"ping\",\"text\":\"\xff\"}")

// utf8Behaviour says what a dialect's reference server does with a text
// frame that is not UTF-8: "1007" when it fails the connection (RFC 6455
// §8.1), "invalid_json" when it answers with that error and keeps the
// connection (a second bad frame is answered too).
func utf8Behaviour(t *testing.T, srv *Server, name string) string {
	t.Helper()
	u := srv.Endpoints(name)[0]
	if name == "hostd" { // the host endpoint: a token of the demo login, no HTTP login first
		u = srv.Base(name) + "/ws/host?host_id=h-utf8&host_token=" + srv.Env.Auth.HostToken
	}
	ws, _, err := websocket.DefaultDialer.Dial(u, nil)
	if err != nil {
		t.Fatalf("%s: dial %s: %v", name, u, err)
	}
	defer ws.Close()
	answered := 0
	for range 2 {
		if err := ws.WriteMessage(websocket.TextMessage, invalidUTF8); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for got := false; !got; {
			_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, data, err := ws.ReadMessage()
			var ce *websocket.CloseError
			switch {
			case errors.As(err, &ce) && answered == 0:
				return strconv.Itoa(ce.Code)
			case err != nil:
				t.Fatalf("%s: after %d answers: %v", name, answered, err)
			}
			var m struct { // coworker: code beside type; mitto: in data
				Code string `json:"code"`
				Data struct {
					Code string `json:"code"`
				} `json:"data"`
			}
			if json.Unmarshal(data, &m) == nil && (m.Code == "invalid_json" || m.Data.Code == "invalid_json") {
				answered++
				got = true
			}
		}
	}
	return "invalid_json"
}

// TestInvalidUTF8READMEFacts: the README's sentence on invalid UTF-8 says
// exactly what each dialect's reference server does, dialect by dialect:
// which fail the connection with 1007 and which answer invalid_json and
// keep it. Each dialect's own tests pin its behaviour in detail:
// TestInvalidUTF8Fails in minicodex, myagent and hostd, the "invalid
// UTF-8" rows of TestBadInput in mitto and coworker (answered, and the
// connection and session go on).
func TestInvalidUTF8READMEFacts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, err := Start(ctx, "127.0.0.1:0", Options{NoScriptedHost: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(ctx)
	by := map[string][]string{}
	for _, name := range dialect.Names() {
		b := utf8Behaviour(t, srv, name)
		by[b] = append(by[b], name)
	}
	readme := docsText(t)
	text := strings.Join(strings.Fields(string(readme)), " ")
	for _, want := range []string{
		"closes the connection with 1007 (RFC 6455 §8.1) in " + joinAnd(by["1007"]) + ";",
		joinAnd(by["invalid_json"]) + " answer it with their `invalid_json` error and keep the connection",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q (1007: %v; invalid_json: %v)", want, by["1007"], by["invalid_json"])
		}
	}
}

// joinAnd joins names as a sentence does: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// TestStoppedReaderREADMEFacts: the README says what a client that stops
// reading sees from serve and from wsproxy: 1006, since no close frame
// reaches a client that does not read; 1013 only when it reads again
// within the grace. TestStoppedReaderIsDropped and
// TestStoppedReaderIsClosedWith1013 (reference/server) and
// TestStoppedReaderSees1006 (internal/proxy) pin the behaviour.
func TestStoppedReaderREADMEFacts(t *testing.T) {
	t.Parallel()
	readme := docsText(t)
	text := strings.Join(strings.Fields(string(readme)), " ")
	for _, want := range []string{
		"a client that still does not read is dropped without a close frame, since none can reach it, and sees 1006 when it reads again",
		"it has a grace (5 s) to read again, and then gets what was on its way and a 1013 close",
		"wsproxy cuts a client that stops reading after its `--write-timeout` (the client sees 1006, the upstream gets 1001)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
	if strings.Contains(text, "blocks for the write timeout) is closed with 1013") {
		t.Error("README.md still says a client that stops reading is closed with 1013")
	}
}

// docsText is the README and the pages of docs/, where the facts these
// tests pin are written.
func docsText(t *testing.T) []byte {
	t.Helper()
	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var all []byte
	for _, f := range append([]string{"../README.md"}, files...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, b...), '\n')
	}
	return all
}
