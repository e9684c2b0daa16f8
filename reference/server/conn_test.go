package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/reference/server"
)

// echo is a minimal dialect: it answers every message with one or more
// frames, so the plumbing can be tested without a protocol.
type echo struct {
	c   *server.Conn
	got chan server.Inbound
}

func (e *echo) Message(in server.Inbound) {
	if e.got != nil {
		e.got <- in
	}
	switch {
	case in.Oversize:
		_ = e.c.Send(map[string]any{"type": "too_big", "size": in.Size})
	case in.Binary:
		_ = e.c.Send(map[string]any{"type": "binary"})
	case strings.HasPrefix(string(in.Data), "burst "):
		var n int
		fmt.Sscanf(string(in.Data), "burst %d", &n)
		for i := 1; i <= n; i++ {
			_ = e.c.Send(map[string]any{"type": "n", "i": i})
		}
	default:
		_ = e.c.SendRaw(in.Data)
	}
}

func (e *echo) Closed() {}

// start serves the echo dialect with cfg; the returned env is shut down
// at cleanup and checked for leaks.
func start(t *testing.T, cfg server.Config, onAttach func(*server.Conn, *echo)) (string, *server.Env) {
	t.Helper()
	env := server.NewEnv(cfg)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = server.Serve(w, r, env, func(c *server.Conn) server.Handler {
			e := &echo{c: c}
			if onAttach != nil {
				onAttach(c, e)
			}
			return e
		})
	}))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := env.Shutdown(ctx); err != nil {
			t.Error(err)
		}
		hs.Close()
	})
	return "ws" + strings.TrimPrefix(hs.URL, "http"), env
}

func dial(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// readAll reads until the connection ends and returns the texts and the
// close code (1006 for a drop).
func readAll(t *testing.T, ws *websocket.Conn) ([]string, int) {
	t.Helper()
	var got []string
	for {
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, data, err := ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				return got, ce.Code
			}
			if strings.Contains(err.Error(), "timeout") {
				t.Fatalf("read timed out after %q", got)
			}
			return got, websocket.CloseAbnormalClosure
		}
		got = append(got, string(data))
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	n := func(i int) string { return fmt.Sprintf(`{"i":%d,"type":"n"}`, i) }
	tests := []struct {
		query    string
		want     []string
		wantCode int
	}{
		{"?fault=drop-after=2", []string{n(1), n(2)}, websocket.CloseAbnormalClosure},
		{"?fault=close=4000@3", []string{n(1), n(2), n(3)}, 4000},
		{"?fault=close=4000", nil, 4000},
		{"?fault=duplicate=2&fault=drop-after=3", []string{n(1), n(2), n(2), n(3)}, websocket.CloseAbnormalClosure},
		{"?fault=duplicate=n&fault=close=1000@2", []string{n(1), n(1), n(2)}, 1000},
		{"?fault=reorder=n&fault=close=1000@3", []string{n(2), n(1), n(3)}, 1000},
		{"?fault=delay=1ms&fault=jitter=2ms&fault=pause=5ms@1&fault=close=1000@2", []string{n(1), n(2)}, 1000},
	}
	url, _ := start(t, server.Config{}, nil)
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			t.Parallel()
			ws := dial(t, url+tt.query)
			_ = ws.WriteMessage(websocket.TextMessage, []byte("burst 5"))
			got, code := readAll(t, ws)
			if strings.Join(got, " ") != strings.Join(tt.want, " ") || code != tt.wantCode {
				t.Errorf("got %q then close %d; want %q then close %d", got, code, tt.want, tt.wantCode)
			}
		})
	}
}

func TestServerFaultsApplyToEveryConnection(t *testing.T) {
	t.Parallel()
	specs, err := fault.ParseAll([]string{"close=4002@1"})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := start(t, server.Config{Faults: specs}, nil)
	for i := 0; i < 2; i++ {
		ws := dial(t, url)
		_ = ws.WriteMessage(websocket.TextMessage, []byte("burst 3"))
		if got, code := readAll(t, ws); len(got) != 1 || code != 4002 {
			t.Errorf("connection %d: got %q, close %d; want one message then 4002", i, got, code)
		}
	}
}

func TestBadFaultQueryIsRejectedBeforeUpgrade(t *testing.T) {
	t.Parallel()
	url, _ := start(t, server.Config{}, nil)
	_, resp, err := websocket.DefaultDialer.Dial(url+"?fault=explode", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("dial with a bad fault: err %v, response %v; want 400", err, resp)
	}
	var body struct{ Error, Message string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Error != "bad_fault" || !strings.Contains(body.Message, "explode") {
		t.Errorf("400 body = %+v, %v; want {error: bad_fault, message naming the spec}", body, err)
	}
}

func TestOversizeAndBinaryKeepTheConnection(t *testing.T) {
	t.Parallel()
	url, _ := start(t, server.Config{MaxFrame: 16}, nil)
	ws := dial(t, url)
	steps := []struct {
		op   int
		data string
		want string
	}{
		{websocket.TextMessage, strings.Repeat("x", 100), `{"size":100,"type":"too_big"}`},
		{websocket.BinaryMessage, "\x00\x01", `{"type":"binary"}`},
		{websocket.TextMessage, "still here", "still here"},
	}
	for _, s := range steps {
		if err := ws.WriteMessage(s.op, []byte(s.data)); err != nil {
			t.Fatal(err)
		}
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, got, err := ws.ReadMessage()
		if err != nil || string(got) != s.want {
			t.Fatalf("after %.20q: got %q, %v; want %q", s.data, got, err, s.want)
		}
	}
}

func TestHugeMessageClosesWith1009(t *testing.T) {
	t.Parallel()
	url, _ := start(t, server.Config{MaxFrame: 16}, nil)
	ws := dial(t, url)
	_ = ws.WriteMessage(websocket.TextMessage, []byte(strings.Repeat("x", 16*16+1)))
	if _, code := readAll(t, ws); code != websocket.CloseMessageTooBig {
		t.Errorf("close code %d, want 1009", code)
	}
}

// A client that writes far more than it reads is slowed down (the server
// stops reading) rather than disconnected or answered out of order.
func TestFloodIsPushedBack(t *testing.T) {
	t.Parallel()
	url, _ := start(t, server.Config{QueueSize: 16}, nil)
	ws := dial(t, url)
	const n = 3000
	done := make(chan error, 1)
	go func() {
		for i := 0; i < n; i++ {
			if err := ws.WriteMessage(websocket.TextMessage, []byte(fmt.Sprint(i))); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for i := 0; i < n; i++ {
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, data, err := ws.ReadMessage()
		if err != nil || string(data) != fmt.Sprint(i) {
			t.Fatalf("echo %d: got %q, %v", i, data, err)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A client that never reads while the server pushes events at it is
// disconnected with 1013 once its queue is full, and Send says so.
func TestFullQueueDisconnectsWith1013(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		conns []*server.Conn
	)
	url, _ := start(t, server.Config{QueueSize: 8}, func(c *server.Conn, _ *echo) {
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
	})
	ws := dial(t, url)
	_ = ws.WriteMessage(websocket.TextMessage, []byte("hi"))
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := ws.ReadMessage(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	c := conns[0]
	mu.Unlock()
	big := []byte(`"` + strings.Repeat("x", 1<<20) + `"`)
	var err error
	for i := 0; i < 10000 && err == nil; i++ {
		err = c.SendRaw(big)
	}
	if !errors.Is(err, server.ErrClosed) {
		t.Fatalf("SendRaw to a client that never reads: %v, want ErrClosed", err)
	}
	if _, code := readAll(t, ws); code != websocket.CloseTryAgainLater {
		t.Errorf("close code %d, want 1013", code)
	}
}

func TestBackpressureCallback(t *testing.T) {
	t.Parallel()
	events := make(chan bool, 16)
	url, _ := start(t, server.Config{QueueSize: 8}, func(c *server.Conn, _ *echo) {
		c.OnPressure(func(drain bool) { events <- drain })
	})
	// The pause holds the writer while the burst fills the queue.
	ws := dial(t, url+"?fault=pause=200ms")
	_ = ws.WriteMessage(websocket.TextMessage, []byte("burst 7"))
	for i := 0; i < 7; i++ {
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, _, err := ws.ReadMessage(); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := <-events, <-events; !a || b {
		t.Errorf("pressure callbacks %v, %v; want drain then ok", a, b)
	}
}

func TestShutdownClosesWith1001(t *testing.T) {
	t.Parallel()
	url, env := start(t, server.Config{}, nil)
	ws := dial(t, url)
	_ = ws.WriteMessage(websocket.TextMessage, []byte("hi"))
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := ws.ReadMessage(); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		stopped <- env.Shutdown(ctx)
	}()
	if _, code := readAll(t, ws); code != websocket.CloseGoingAway {
		t.Errorf("close code %d, want 1001", code)
	}
	if err := <-stopped; err != nil {
		t.Error(err)
	}
	if _, resp, err := websocket.DefaultDialer.Dial(url, nil); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("dial after shutdown: %v %v, want 503", err, resp)
	}
}

func TestGoFinishesBeforeShutdownReturns(t *testing.T) {
	t.Parallel()
	env := server.NewEnv(server.Config{})
	var finished bool
	env.Go(func(ctx context.Context) {
		<-ctx.Done()
		finished = true
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := env.Shutdown(ctx); err != nil || !finished {
		t.Errorf("Shutdown = %v, goroutine finished = %v", err, finished)
	}
	env.Go(func(context.Context) { t.Error("Go ran after Shutdown") })
}
