package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

// TestValidateHTTPLines: http lines are judged with the frames of their
// session (a line without one joins hostd's shared session), counted, and
// their findings reach the report's sessions through the Collector; an
// exchange no endpoint declares is skipped.
func TestValidateHTTPLines(t *testing.T) {
	t.Parallel()
	rec := strings.Join([]string{
		`{"kind":"header","format":"wsconform-recording","version":2,"dialect":"hostd","time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"http","conn":"h1","index":1,"endpoint":"login","method":"POST","path":"/auth/login","status":200,"request":"{}","response":"{\"access_token\":\"«redacted: 4 chars»\"}","time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"open","conn":"c2","session":"hostd","url":"ws://h/ws/host?host_id=x","time":"2026-11-27T10:00:01Z"}`,
		`{"kind":"frame","conn":"c2","session":"hostd","dir":"c2s","index":2,"time":"2026-11-27T10:00:01Z","opcode":1,"text":"{\"type\":\"run.started\",\"ts\":\"2026-11-27T10:00:01Z\",\"host_id\":\"x\",\"run_id\":\"r1\",\"seq\":1,\"data\":{\"tool\":\"codex\",\"cwd\":\"/\",\"command\":\"c\"}}"}`,
		`{"kind":"http","conn":"h3","session":"hostd","index":3,"endpoint":"input","method":"POST","path":"/runs/r1/input","status":401,"request":"{\"input_id\":\"7f1c2a9e-8b7d-4c6e-9f00-123456789abc\",\"text\":\"y\\n\"}","time":"2026-11-27T10:00:02Z"}`,
		`{"kind":"http","conn":"h4","session":"hostd","index":4,"method":"POST","path":"/analytics","status":500,"time":"2026-11-27T10:00:02Z"}`,
		`{"kind":"close","conn":"c2","session":"hostd","time":"2026-11-27T10:00:03Z","code":1000,"by":"client"}`,
	}, "\n") + "\n"
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	col := NewCollector(path, reports.WireLimits{})
	res, err := File(context.Background(), path, Options{Observer: col})
	if err != nil {
		t.Fatal(err)
	}
	if res.Exchanges != 2 || res.Sessions != 1 || len(res.Problems) > 0 {
		t.Errorf("exchanges %d, sessions %d, problems %v", res.Exchanges, res.Sessions, res.Problems)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "hostd.http-no-bearer" || res.Findings[0].Session != "hostd" || res.Findings[0].Frame != 3 {
		t.Fatalf("findings %+v", res.Findings)
	}
	ss := col.Sessions()
	if len(ss) != 1 || ss[0].ID != "hostd" || len(ss[0].Findings) != 1 || ss[0].Findings[0].Rule != "hostd.http-no-bearer" {
		t.Errorf("report sessions %+v", ss)
	}
}
