package replay

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestRewriteSet: --set puts a value in place of the recorded one at the
// member it names, keeping the frame's layout; a redacted credential left
// as recorded is collected for a note, a run of asterisks in a chat text
// is not.
func TestRewriteSet(t *testing.T) {
	t.Parallel()
	const setKey = `{"type": "provider_auth_set_api_key", "provider": "openai", "apiKey": "«redacted: 12 chars»"}`
	tests := []struct {
		name, typ, in string
		sets          []string
		want          string
		noted         []string
	}{
		{"name at any depth", "provider_auth_set_api_key", setKey, []string{"apiKey=sk-real"},
			`{"type": "provider_auth_set_api_key", "provider": "openai", "apiKey": "sk-real"}`, nil},
		{"type and pointer", "provider_auth_set_api_key", setKey, []string{"provider_auth_set_api_key:/apiKey=sk-real"},
			`{"type": "provider_auth_set_api_key", "provider": "openai", "apiKey": "sk-real"}`, nil},
		{"other type", "provider_auth_set_api_key", setKey, []string{"login:/apiKey=sk-real"},
			setKey, []string{"provider_auth_set_api_key /apiKey"}},
		{"left redacted", "provider_auth_set_api_key", setKey, nil,
			setKey, []string{"provider_auth_set_api_key /apiKey"}},
		{"nested under a credential", "auth", `{"type":"auth","credentials":{"user":"«redacted: 3 chars»"}}`, nil,
			`{"type":"auth","credentials":{"user":"«redacted: 3 chars»"}}`, []string{"auth /credentials/user"}},
		{"asterisks in a text", "user_message", `{"type":"user_message","text":"*****"}`, nil,
			`{"type":"user_message","text":"*****"}`, nil},
		{"a token redacted in a text", "user_message", `{"type":"user_message","text":"use «redacted: 40 chars»"}`, nil,
			`{"type":"user_message","text":"use «redacted: 40 chars»"}`, []string{"user_message /text"}},
		{"redacted in JSON in a string", "tool", `{"type":"tool","args":"{\"apiKey\":\"«redacted: 9 chars»\"}"}`, nil,
			`{"type":"tool","args":"{\"apiKey\":\"«redacted: 9 chars»\"}"}`, []string{"tool /args"}},
		{"a pointer is from the root", "auth", `{"type":"auth","data":{"pin":1000}}`, []string{"/pin=x"},
			`{"type":"auth","data":{"pin":1000}}`, nil},
		{"a whole object", "auth", `{"type":"auth","data":{"pin":1000}}`, []string{"/data=x"},
			`{"data":"x","type":"auth"}`, nil},
		{"a number stays a number", "auth", `{"type":"auth","data":{"pin":1000}}`, []string{"/data/pin=4711"},
			`{"type":"auth","data":{"pin":4711}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var sets []Set
			for _, s := range tt.sets {
				set, err := ParseSet(s)
				if err != nil {
					t.Fatal(err)
				}
				sets = append(sets, set)
			}
			w := rewriter{ids: NewIDs("coworker"), sets: sets, redacted: map[string]bool{}}
			if got := string(w.rewrite(tt.typ, []byte(tt.in), nil)); got != tt.want {
				t.Errorf("rewrite = %s\nwant       %s", got, tt.want)
			}
			var noted []string
			for k := range w.redacted {
				noted = append(noted, k)
			}
			if fmt.Sprint(noted) != fmt.Sprint(tt.noted) {
				t.Errorf("noted %v, want %v", noted, tt.noted)
			}
		})
	}
}

func TestParseSetErrors(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"apiKey", "=x", "a/b=x"} {
		if _, err := ParseSet(s); err == nil {
			t.Errorf("ParseSet(%q) took it", s)
		}
	}
}

// TestSetReachesServer: a replay sends the --set value to the server, and
// without it says which redacted value it sent as recorded.
func TestSetReachesServer(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	text, _ := json.Marshal(`{"type":"provider_auth_set_api_key","sessionId":"s1","provider":"openai","methodId":"api_key","apiKey":"«redacted: 7 chars»"}`)
	rec := strings.Join([]string{
		`{"kind":"header","format":"wsconform-recording","version":1,"dialect":"coworker","tool":"test","time":"` + t0.Format(time.RFC3339Nano) + `"}`,
		`{"kind":"open","conn":"c1","url":"ws://127.0.0.1:1/ws","time":"` + t0.Format(time.RFC3339Nano) + `"}`,
		`{"kind":"frame","conn":"c1","time":"` + t0.Add(time.Millisecond).Format(time.RFC3339Nano) + `","dir":"c2s","index":1,"opcode":1,"text":` + string(text) + `}`,
	}, "\n") + "\n"
	tests := []struct {
		name string
		set  []string
		want string
		note bool
	}{
		{"given", []string{"apiKey=sk-1234"}, `"apiKey":"sk-1234"`, false},
		{"not given", nil, `"apiKey":"«redacted: 7 chars»"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var got []string
			url := serveWS(t, func(c *websocket.Conn) {
				for {
					_, data, err := c.ReadMessage()
					if err != nil {
						return
					}
					mu.Lock()
					got = append(got, string(data))
					mu.Unlock()
				}
			})
			res := replayAgainst(t, []byte(rec), url, Options{Set: tt.set})
			mu.Lock()
			defer mu.Unlock()
			if len(got) != 1 || !strings.Contains(got[0], tt.want) {
				t.Errorf("server got %q, want a frame with %s", got, tt.want)
			}
			notes := strings.Join(res.Notes, "\n")
			if said := strings.Contains(notes, "--set provider_auth_set_api_key:/apiKey=VALUE"); said != tt.note {
				t.Errorf("note about the redacted apiKey: %v, want %v; notes:\n%s", said, tt.note, notes)
			}
		})
	}
}
