package replay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// echoRecording is a minicodex connection whose client sends two pings,
// r1 and r2, each answered by a pong quoting its req_id; the client closes
// `leave` after the last answer.
func echoRecording(leave time.Duration) []byte {
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	at := func(ms int) string { return t0.Add(time.Duration(ms) * time.Millisecond).Format(time.RFC3339Nano) }
	frame := func(ms, index int, dir, text string) string {
		b, _ := json.Marshal(text)
		return fmt.Sprintf(`{"kind":"frame","conn":"c1","time":%q,"dir":%q,"index":%d,"opcode":1,"text":%s}`, at(ms), dir, index, b)
	}
	end := 30 + int(leave/time.Millisecond)
	return []byte(strings.Join([]string{
		`{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex","tool":"test","time":"` + at(0) + `"}`,
		`{"kind":"open","conn":"c1","url":"ws://127.0.0.1:1/ws","time":"` + at(0) + `"}`,
		frame(10, 1, "c2s", `{"type":"ping","req_id":"r1"}`),
		frame(20, 2, "s2c", `{"type":"pong","req_id":"r1"}`),
		frame(25, 3, "c2s", `{"type":"ping","req_id":"r2"}`),
		frame(30, 4, "s2c", `{"type":"pong","req_id":"r2"}`),
		fmt.Sprintf(`{"kind":"frame","conn":"c1","time":%q,"dir":"c2s","index":5,"opcode":8,"text":"","code":1000}`, at(end)),
		fmt.Sprintf(`{"kind":"close","conn":"c1","time":%q,"code":1000,"reason":"","by":"client"}`, at(end)),
	}, "\n") + "\n")
}

// serveWS serves a WebSocket on loopback and hands each connection to fn;
// it returns the URL to replay against.
func serveWS(t *testing.T, fn func(c *websocket.Conn)) string {
	t.Helper()
	u := websocket.Upgrader{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := u.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		fn(c)
	}))
	t.Cleanup(s.Close)
	return "ws" + strings.TrimPrefix(s.URL, "http") + "/ws"
}

// echoServer answers every ping with a pong quoting req (the ping's own
// req_id when req is ""), then, after the last ping (r2), sends tail.
func echoServer(t *testing.T, req string, tail ...string) string {
	t.Helper()
	return serveWS(t, func(c *websocket.Conn) {
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			var m struct {
				ReqID string `json:"req_id"`
			}
			_ = json.Unmarshal(data, &m)
			quote := req
			if quote == "" {
				quote = m.ReqID
			}
			_ = c.WriteMessage(websocket.TextMessage, []byte(`{"type":"pong","req_id":"`+quote+`"}`))
			if m.ReqID == "r2" {
				for _, x := range tail {
					_ = c.WriteMessage(websocket.TextMessage, []byte(x))
				}
			}
		}
	})
}

// TestCorrelatedWaits: a replay waits for the answer that quotes the
// request's own id. A server whose pong quotes another request is missing
// the answer (a note names the id), though a pong of that type came; one
// that quotes the right ids matches.
func TestCorrelatedWaits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		req      string
		matched  bool
		noteWant string
	}{
		{"quotes the request", "", true, ""},
		{"quotes another request", "r-stale", false, "1 pong (req_id r1) of the recording did not come within 300ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := replayAgainst(t, echoRecording(5*time.Millisecond), echoServer(t, tt.req),
				Options{AnswerTimeout: 300 * time.Millisecond})
			if got := res.Differs() == 0; got != tt.matched {
				t.Errorf("matched %v, want %v:\n%s", got, tt.matched, describe(res))
			}
			notes := strings.Join(res.Notes, "\n")
			if tt.noteWant == "" && notes != "" {
				t.Errorf("notes, want none:\n%s", notes)
			}
			if tt.noteWant != "" && !strings.Contains(notes, tt.noteWant) {
				t.Errorf("notes do not say %q:\n%s", tt.noteWant, notes)
			}
		})
	}
}
