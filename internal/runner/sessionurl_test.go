package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/gorilla/websocket"
)

func TestSessionInURL(t *testing.T) {
	t.Parallel()
	mitto := &clientSpec{SessionQuery: []string{"session_id"}}
	tests := []struct {
		url  string
		spec *clientSpec
		want string
	}{
		{"ws://h/ws?session_id=abc", mitto, "?session_id="},
		{"ws://h/ws?session_id=", mitto, ""},
		{"ws://h/ws", mitto, ""},
		{"ws://h/ws?room=abc", &clientSpec{SessionQuery: []string{"room"}}, "?room="},
		{"ws://h/ws?SessionId=abc", nil, "?SessionId="},
		{"ws://h/api/sessions/abc/ws", nil, "/sessions/"},
		{"ws://h/sessions/", nil, ""},
		{"ws://h/ws?token=abc", nil, ""},
	}
	for _, tt := range tests {
		if got := sessionInURL(tt.url, tt.spec); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.url, got, tt.want)
		}
	}
}

// busySessionServer is a mitto-like server whose sessions take one prompt
// at a time: a prompt while the session's last one is not cancelled yet is
// refused with "prompt already in progress", as a real server does. It
// counts the refusals.
type busySessionServer struct {
	mu      sync.Mutex
	busy    map[string]bool
	refused int
}

func (s *busySessionServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	conn, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	sid := r.URL.Query().Get("session_id")
	send := func(typ, data string) {
		_ = conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"`+typ+`","data":`+data+`}`))
	}
	send("connected", fmt.Sprintf(`{"session_id":%q,"client_id":"c","acp_server":"a","is_running":false}`, sid))
	for {
		_, raw, err := conn.ReadMessage()
		if err != nil {
			return
		}
		s.mu.Lock()
		switch m := string(raw); {
		case strings.Contains(m, `"prompt"`) && s.busy[sid]:
			s.refused++
			s.mu.Unlock()
			send("error", `{"message":"prompt already in progress"}`)
			continue
		case strings.Contains(m, `"prompt"`):
			s.busy[sid] = true
			s.mu.Unlock()
			var p struct {
				Data struct {
					PromptID string `json:"prompt_id"`
				} `json:"data"`
			}
			_ = json.Unmarshal(raw, &p)
			send("prompt_received", fmt.Sprintf(`{"prompt_id":%q}`, p.Data.PromptID))
			continue
		case strings.Contains(m, `"cancel"`):
			// the session is free before the client hears so
			s.busy[sid] = false
		}
		s.mu.Unlock()
		send("prompt_complete", `{"event_count":0}`)
	}
}

// TestSharedSessionRunsSerially: scenarios given one session URL (mitto's
// ?session_id=) and no --concurrency run one at a time, with one notice,
// so none is refused for another's prompt; --concurrency given runs them
// at once as asked.
func TestSharedSessionRunsSerially(t *testing.T) {
	t.Parallel()
	fsys := busyFeature(6)
	srv := &busySessionServer{busy: map[string]bool{}}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	target := Target{Name: "busy", URL: "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws?session_id=shared"}

	var notices []string
	res, err := Run(context.Background(), Options{Features: fsys, Targets: []Target{target}, Notice: func(l string) { notices = append(notices, l) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res {
		for _, st := range s.Steps {
			if strings.Contains(st.Error+st.Actual, "already in progress") {
				t.Errorf("%s: refused for another scenario's prompt: %s", s.ID, st.Error)
			}
		}
	}
	srv.mu.Lock()
	refused := srv.refused
	srv.mu.Unlock()
	if refused != 0 || len(res) != 6 {
		t.Errorf("%d results, %d prompts refused; want 6 results, none refused", len(res), refused)
	}
	if len(notices) != 1 || notices[0] != SharedSessionNotice {
		t.Errorf("notices %q, want the shared-session one once", notices)
	}

	// without a session in the URL, or with --concurrency, no notice
	notices = nil
	for _, o := range []Options{
		{Targets: []Target{{Name: "own", URL: strings.TrimSuffix(target.URL, "?session_id=shared")}}},
		{Targets: []Target{target}, Concurrency: 2},
		{Targets: []Target{target}, SessionCmd: "echo " + target.URL},
	} {
		o.Features, o.Notice = fsys, func(l string) { notices = append(notices, l) }
		o.Timeouts = DefaultTimeouts
		o.Timeouts.Scale = 0.2 // verdicts are not judged here: refused prompts need not wait long
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	if len(notices) != 0 {
		t.Errorf("notices %q, want none", notices)
	}
}

// busyFeature is n mitto scenarios that each prompt and cancel once.
func busyFeature(n int) fstest.MapFS {
	var feature strings.Builder
	feature.WriteString("@mitto\nFeature: busy\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&feature, `
  @id:t.busy-%d @must
  Scenario: prompt %d
    Given a client connects
    And the client receives "connected"
    When the client sends:
      """
      {"type": "prompt", "data": {"message": "hi", "prompt_id": "p-{unique}"}}
      """
    Then the client receives "prompt_received"
    When the client sends:
      """
      {"type": "cancel", "data": {}}
      """
    Then the client receives "prompt_complete"
`, i, i)
	}
	fsys := fstest.MapFS{
		"mitto/busy.feature": {Data: []byte(feature.String())},
		"mitto/client.json":  {Data: []byte(`{"session_query": ["session_id"]}`)},
	}
	return fsys
}
