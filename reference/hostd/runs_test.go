package hostd_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/wsconform/wsconform/reference/server"
)

// TestRelayWebAppExtras: the relay web app's Connect needs GET /health,
// and its run list GET /runs (Bearer), in the relay server's shapes.
func TestRelayWebAppExtras(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	if r := do(t, srv, http.MethodGet, "/health", "", nil); r.status != http.StatusOK || r.str("name") == "" || r.str("version") == "" {
		t.Errorf("GET /health: %d %s", r.status, r.raw)
	}
	if r := do(t, srv, http.MethodGet, "/runs", "", nil); r.status != http.StatusUnauthorized {
		t.Errorf("GET /runs without a token: %d %s, want 401", r.status, r.raw)
	}
	tok := login(t, srv)
	host := dialHost(t, srv, "h1", "")
	sendAcked(t, host, started("run_a", 1), ev("run.awaiting_input", "run_a", 2, map[string]any{"reason": "prompt"}))
	sendAcked(t, host, started("run_b", 1), exited("run_b", 2, 143))

	r := do(t, srv, http.MethodGet, "/runs", "Bearer "+tok, nil)
	if r.status != http.StatusOK {
		t.Fatalf("GET /runs: %d %s", r.status, r.raw)
	}
	var rows []struct {
		ID        string  `json:"id"`
		HostID    string  `json:"host_id"`
		Tool      string  `json:"tool"`
		Cwd       string  `json:"cwd"`
		Status    string  `json:"status"`
		StartedAt string  `json:"started_at"`
		EndedAt   *string `json:"ended_at"`
		ExitCode  *int64  `json:"exit_code"`
	}
	if err := json.Unmarshal(r.raw, &rows); err != nil {
		t.Fatalf("GET /runs body %s: %v", r.raw, err)
	}
	if len(rows) != 2 {
		t.Fatalf("GET /runs: %d rows, want 2: %s", len(rows), r.raw)
	}
	tests := []struct {
		i          int
		id, status string
		exited     bool
		exitCode   int64
	}{
		{0, "run_b", "exited", true, 143}, // newest first
		{1, "run_a", "awaiting_input", false, 0},
	}
	for _, tc := range tests {
		row := rows[tc.i]
		if row.ID != tc.id || row.Status != tc.status || row.HostID != "h1" || row.Tool != "codex" || row.Cwd != "/w" || row.StartedAt == "" {
			t.Errorf("row %d: %+v, want %s %s on h1, codex in /w", tc.i, row, tc.id, tc.status)
		}
		if tc.exited && (row.EndedAt == nil || row.ExitCode == nil || *row.ExitCode != tc.exitCode) {
			t.Errorf("row %d: ended_at %v exit_code %v, want set and %d", tc.i, row.EndedAt, row.ExitCode, tc.exitCode)
		}
		if !tc.exited && (row.EndedAt != nil || row.ExitCode != nil) {
			t.Errorf("row %d: ended_at %v exit_code %v, want null", tc.i, row.EndedAt, row.ExitCode)
		}
	}
}
