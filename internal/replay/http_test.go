package replay

import (
	"strings"
	"testing"
)

// TestPlanHTTPExchanges: a recording's http lines are read into the plan,
// not into its timeline, and the player says it does not re-send them.
func TestPlanHTTPExchanges(t *testing.T) {
	t.Parallel()
	rec := strings.Join([]string{
		`{"kind":"header","format":"wsconform-recording","version":2,"dialect":"hostd","time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"http","conn":"h1","session":"hostd","index":1,"endpoint":"login","method":"POST","path":"/auth/login","status":200,"time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"open","conn":"c2","session":"hostd","url":"ws://127.0.0.1:1/ws/app?token=x","time":"2026-11-27T10:00:01Z"}`,
		`{"kind":"frame","conn":"c2","session":"hostd","dir":"c2s","index":2,"opcode":1,"text":"{\"type\":\"run.stop\",\"run_id\":\"r1\",\"data\":{\"signal\":\"term\"}}","time":"2026-11-27T10:00:02Z"}`,
		`{"kind":"http","conn":"h3","session":"hostd","index":3,"endpoint":"input","method":"POST","path":"/runs/r1/input","status":202,"request":"{}","time":"2026-11-27T10:00:03Z"}`,
		`{"kind":"http","conn":"h4","session":"hostd","index":4,"endpoint":"input","method":"POST","path":"/runs/r1/input","status":200,"time":"2026-11-27T10:00:04Z"}`,
	}, "\n")
	p, err := Read(strings.NewReader(rec), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Exchanges) != 3 || len(p.Events) != 2 || len(p.Problems) > 0 {
		t.Fatalf("plan: %d exchanges, %d events, problems %v", len(p.Exchanges), len(p.Events), p.Problems)
	}
	note := p.HTTPNote()
	if !strings.HasPrefix(note, "3 HTTP exchanges of the recording (login, input) not re-sent") {
		t.Errorf("note %q", note)
	}
	pl, err := newPlayer(p, Options{Against: "ws://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.notes) != 1 || pl.notes[0] != note {
		t.Errorf("player notes %q", pl.notes)
	}
	if (&Plan{}).HTTPNote() != "" {
		t.Error("a plan without exchanges has a note")
	}
}
