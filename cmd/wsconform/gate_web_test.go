package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestGateWeb: gate --web serves the live view of the gate's proxy while
// the client command runs: a frame the client exchanged is in the view's
// report download mid-run, and the page is served. Without --record it
// records to a temporary file, says where, and removes it on exit.
func TestGateWeb(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	urlFile, doneFile := filepath.Join(dir, "url"), filepath.Join(dir, "done")
	script := `echo "$WSCONFORM_URL" > "$1"; i=0; while [ ! -e "$2" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done`
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	codes := make(chan int, 1)
	go func() {
		err := run(ctx, []string{"gate", "--dialect", "minicodex", "--web", "127.0.0.1:0", "--color", "never",
			"--", "sh", "-c", script, "sh", urlFile, doneFile}, io.Discard, pw)
		codes <- exitCode(err, io.Discard)
		pw.Close()
	}()
	view, rest := make(chan []string, 1), make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`live view (http://\S+) .*recording to ([^,)]+)`)
		sc := bufio.NewScanner(pr)
		var b strings.Builder
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				view <- m[1:]
			}
			b.WriteString(sc.Text() + "\n")
		}
		close(view)
		rest <- b.String()
	}()
	m := <-view
	if m == nil {
		t.Fatal("gate --web did not say where the live view is")
	}
	page, rec := m[0], m[1]
	ws := dialGateClient(t, ctx, urlFile)
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ws.ReadMessage(); err != nil { // welcome
		t.Fatal(err)
	}
	var frames int64
	for deadline := time.Now().Add(10 * time.Second); frames < 2 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		frames = viewFrames(t, page+"report.json")
	}
	if frames < 2 {
		t.Errorf("the live view's report has %d frames mid-run, want the hello and the welcome", frames)
	}
	if st, err := os.Stat(rec); err != nil || st.Size() == 0 {
		t.Errorf("the temporary recording mid-run: %v", err)
	}
	resp, err := http.Get(page)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("the page: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	ws.Close()
	if err := os.WriteFile(doneFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := <-codes; code != exitOK {
		t.Errorf("gate exited %d, want 0", code)
	}
	if _, err := os.Stat(rec); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary recording %s is left behind: %v", rec, err)
		os.Remove(rec)
	}
	if out := <-rest; !strings.Contains(out, "removed the temporary recording "+rec) {
		t.Errorf("stderr:\n%s", out)
	}
}

// dialGateClient connects to the URL the gate's command wrote down.
func dialGateClient(t *testing.T, ctx context.Context, urlFile string) *websocket.Conn {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(urlFile)
		if u := strings.TrimSpace(string(b)); err == nil && u != "" {
			ws, _, err := websocket.DefaultDialer.DialContext(ctx, u, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ws.Close() })
			return ws
		}
	}
	t.Fatal("the gate's command did not write its URL")
	return nil
}

// viewFrames counts the frames of the live view's report download.
func viewFrames(t *testing.T, url string) int64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Sessions []struct {
			Frames []json.RawMessage `json:"frames"`
		} `json:"sessions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	var n int64
	for _, s := range r.Sessions {
		n += int64(len(s.Frames))
	}
	return n
}
