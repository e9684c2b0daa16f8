package asyncapi

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fixture"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/replay"
	"github.com/wsconform/wsconform/reports"
)

const liveTimeout = 60 * time.Second

// serve serves h on a loopback port until the test ends.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: liveTimeout}
	go srv.Serve(ln)
	t.Cleanup(func() { _ = srv.Close() })
	return "ws://" + ln.Addr().String()
}

// liveRun is what the three live feeders judged of one recording: the
// client replayed (wsconform replay) through the proxy (wsproxy) to the
// recording's server side (serve --replay, gate --replay's upstream).
type liveRun struct {
	replay, proxy, fixture []string
	matched                int
}

// runLive replays recording file, judged as dialect name by every part.
func runLive(t *testing.T, file, name string) liveRun {
	t.Helper()
	plan, err := replay.Load(file, name)
	if err != nil {
		t.Fatal(err)
	}
	masks, err := replay.VolatileMasks(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.New(fixture.Options{Plan: plan, Masks: masks})
	if err != nil {
		t.Fatal(err)
	}
	up := serve(t, fx)
	p, err := proxy.New(proxy.Config{Upstream: up, Dialect: name, Console: io.Discard, Quiet: true,
		Label: "asyncapi-live-" + strings.ReplaceAll(name, ":", "-")})
	if err != nil {
		t.Fatal(err)
	}
	front := serve(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	res, err := replay.Run(ctx, plan, replay.Options{Against: front})
	if err != nil {
		t.Fatalf("replay %s as %s: %v", file, name, err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := fx.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	var out liveRun
	for _, s := range res.Sessions {
		out.replay = append(out.replay, findingKeys(s.Findings)...)
	}
	for _, d := range res.Diffs {
		if d.Matched {
			out.matched++
		}
	}
	for _, s := range p.Report().Sessions {
		out.proxy = append(out.proxy, findingKeys(s.Findings)...)
	}
	judged := &reports.Report{}
	fx.Judge(judged)
	for _, s := range judged.Sessions {
		out.fixture = append(out.fixture, findingKeys(s.Findings)...)
	}
	sort.Strings(out.replay)
	sort.Strings(out.proxy)
	sort.Strings(out.fixture)
	return out
}

// findingKeys keeps what a live run decides: the frame indexes and
// connection ids of a live run are the order of arrival, and so is the
// direction of a replay mismatch, which lands on whichever of the two
// copies arrived second (hostd: the host's c2s event or the app's s2c
// copy of it; the built-in and --protocol runs saw them in either order
// in a CI run).
func findingKeys(fs []reports.Finding) []string {
	var out []string
	for _, f := range fs {
		dir := f.Dir
		if strings.HasSuffix(f.Rule, ".replay-mismatch") {
			dir = "either"
		}
		out = append(out, fmt.Sprintf("%s %s %s ptr=%s sev=%s", f.Rule, dir, f.Type, f.Pointer, f.Severity))
	}
	return out
}

// TestRoundTripLive: the recording of each dialect (internal/replay/
// testdata) replayed by wsconform replay through wsproxy to the
// recording's server side (the upstream of serve --replay and gate
// --replay): every part judges as the built-in dialect, then as its
// exported document read back, and each part's findings are the same.
func TestRoundTripLive(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		p := imported(t, name)
		for _, planted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/planted=%v", name, planted), func(t *testing.T) {
				t.Parallel()
				liveCompare(t, name, p.Name, planted)
			})
		}
	}
}

// liveCompare runs the recording of dialect name live as the built-in
// dialect and as the imported protocol, with faults planted in the
// server's frames when planted is set.
func liveCompare(t *testing.T, name, protocol string, planted bool) {
	{
		{
			file := filepath.Join("..", "replay", "testdata", name+".jsonl")
			if planted {
				file = plant(t, file, dialect.MustGet(name).TypeField)
			}
			want := runLive(t, file, name)
			got := runLive(t, file, protocol)
			for _, part := range []struct {
				what      string
				want, got []string
			}{{"replay", want.replay, got.replay}, {"wsproxy", want.proxy, got.proxy}, {"fixture", want.fixture, got.fixture}} {
				if strings.Join(part.want, "\n") != strings.Join(part.got, "\n") {
					t.Errorf("%s findings differ:\nbuilt-in:\n  %s\n--protocol:\n  %s", part.what,
						strings.Join(part.want, "\n  "), strings.Join(part.got, "\n  "))
				}
			}
			if got.matched != want.matched {
				t.Errorf("%d connections matched the recording, built-in %d", got.matched, want.matched)
			}
			t.Logf("replay %d, wsproxy %d, fixture %d findings; %d connections matched", len(want.replay), len(want.proxy), len(want.fixture), want.matched)
			if planted && len(want.proxy) == 0 {
				t.Error("the planted faults gave wsproxy no finding")
			}
		}
	}
}

// plant writes a copy of a recording whose server frames carry faults:
// every other one has its integers moved (ordering, cursors, counts), every
// third one loses a member.
func plant(t *testing.T, file, typeField string) string {
	t.Helper()
	lines := readLines(t, file)
	n := 0
	for i, line := range lines {
		if !strings.Contains(line, `"dir":"s2c"`) {
			continue
		}
		n++
		mu := mutations[2] // shift-integers
		if n%3 == 0 {
			mu = mutations[0] // drop-member
		} else if n%2 == 0 {
			continue
		}
		if m, ok := mutate(line, typeField, mu.do); ok {
			lines[i] = m
		}
	}
	out := filepath.Join(t.TempDir(), filepath.Base(file))
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportedHostdKeepsItsLogin: an exported hostd read back is served by
// serve --replay (and gate --replay) with hostd's HTTP login, as the
// built-in hostd is: the mechanisms follow x-wsconform.ruleSet, not the
// dialect's name.
func TestImportedHostdKeepsItsLogin(t *testing.T) {
	t.Parallel()
	p := imported(t, "hostd")
	plan, err := replay.Load(filepath.Join("..", "replay", "testdata", "hostd.jsonl"), p.Name)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.New(fixture.Options{Plan: plan})
	if err != nil {
		t.Fatal(err)
	}
	base := "http" + strings.TrimPrefix(serve(t, fx), "ws")
	resp, err := http.Post(base+"/auth/login", "application/json", strings.NewReader(`{"username":"u","password":"p"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		t.Fatalf("POST /auth/login: %d %s", resp.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	if err := fx.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}
