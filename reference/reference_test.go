package reference

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/schemas"
)

// TestDialectsInStep keeps the dialect list, the schemas and the reference
// servers in step: a sixth dialect needs all three.
func TestDialectsInStep(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		if _, ok := impls[name]; !ok {
			t.Errorf("dialect %s has no reference server in impls", name)
		}
		if _, err := fs.Stat(schemas.FS, name+"/manifest.json"); err != nil {
			t.Errorf("dialect %s has no schemas: %v", name, err)
		}
		if _, err := os.Stat(name); err != nil {
			t.Errorf("dialect %s has no reference/%s folder: %v", name, name, err)
		}
	}
	for name := range impls {
		if !dialect.Known(name) {
			t.Errorf("reference server %s is not in the dialect list", name)
		}
	}
}

// TestMutationsAreWellFormed: every dialect offers at least three
// mutations, names are unique across dialects and carry the dialect's
// prefix, and each names a rule the check engine has. (Each dialect's own
// tests prove the rule fires.)
func TestMutationsAreWellFormed(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, name := range dialect.Names() {
		ms := Mutations(name)
		if len(ms) < 3 {
			t.Errorf("%s offers %d mutations, want at least 3", name, len(ms))
		}
		for _, m := range ms {
			if other, dup := seen[m.Name]; dup {
				t.Errorf("mutation %s offered by %s and %s", m.Name, other, name)
			}
			seen[m.Name] = name
			if len(m.Name) <= len(name) || m.Name[:len(name)+1] != name+"-" {
				t.Errorf("mutation %s of %s lacks the %s- prefix", m.Name, name, name)
			}
			r, ok := check.Lookup(m.Rule)
			if m.Rule != "" && (!ok || (r.Dialect != "" && r.Dialect != name)) {
				t.Errorf("mutation %s names rule %q, which %s does not have", m.Name, m.Rule, name)
			}
			if m.Summary == "" {
				t.Errorf("mutation %s has no summary", m.Name)
			}
		}
	}
}

func TestHandlerRejectsUnknownNames(t *testing.T) {
	t.Parallel()
	if _, _, _, err := Handler(Options{Dialects: []string{"nope"}}); err == nil {
		t.Error("unknown dialect accepted")
	}
	if _, _, _, err := Handler(Options{Dialects: []string{"mitto"}, Mutate: []string{"minicodex-event-id-repeats"}}); err == nil {
		t.Error("a mutation of a dialect that is not served was accepted")
	}
}

// TestStartServesEveryDialectAndShutsDown starts the combined server on an
// ephemeral port, opens a WebSocket to each dialect's first unauthenticated
// path, and checks that Shutdown closes them with 1001.
func TestStartServesEveryDialectAndShutsDown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, err := Start(ctx, "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(srv.Dialects, dialect.Names()) {
		t.Errorf("served %v, want %v", srv.Dialects, dialect.Names())
	}
	var conns []*websocket.Conn
	for _, name := range srv.Dialects {
		if name == "hostd" {
			continue // every hostd endpoint needs a token
		}
		ep := srv.Endpoints(name)[0]
		ws, _, err := websocket.DefaultDialer.Dial(ep, nil)
		if err != nil {
			t.Fatalf("%s: dial %s: %v", name, ep, err)
		}
		defer ws.Close()
		conns = append(conns, ws)
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	for _, ws := range conns {
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
					t.Errorf("%s: %v, want close 1001", ws.RemoteAddr(), err)
				}
				break
			}
		}
	}
}

// TestScriptedHostFeedsApps: with hostd served, an app that logs in sees the
// scripted host's run without any real host daemon.
func TestScriptedHostFeedsApps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, err := Start(ctx, "127.0.0.1:0", Options{Dialects: []string{"hostd"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			t.Error(err)
		}
	}()
	httpBase := "http" + strings.TrimPrefix(srv.URL, "ws")
	resp, err := http.Post(httpBase+"/auth/login", "application/json", strings.NewReader(`{"username":"demo","password":"demo"}`))
	if err != nil {
		t.Fatal(err)
	}
	var login struct {
		Token string `json:"access_token"`
	}
	err = json.NewDecoder(resp.Body).Decode(&login)
	resp.Body.Close()
	if err != nil || login.Token == "" {
		t.Fatalf("login: %v %+v", err, login)
	}
	ws, _, err := websocket.DefaultDialer.Dial(srv.URL+"/ws/app?token="+url.QueryEscape(login.Token), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("no run.started from the scripted host: %v", err)
		}
		if strings.Contains(string(data), `"type":"run.started"`) {
			return
		}
	}
}
