package fault

import (
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    Spec
		wantErr string
	}{
		{in: "drop-after=5", want: Spec{Kind: DropAfter, Dir: wire.ServerToClient, N: 5}},
		{in: "c2s:drop-after=0", want: Spec{Kind: DropAfter, Dir: wire.ClientToServer}},
		{in: "close=4000", want: Spec{Kind: Close, Dir: wire.ServerToClient, Code: 4000}},
		{in: "close=1011@3", want: Spec{Kind: Close, Dir: wire.ServerToClient, Code: 1011, N: 3}},
		{in: "delay=50ms", want: Spec{Kind: Delay, Dir: wire.ServerToClient, Dur: 50 * time.Millisecond}},
		{in: "jitter=1s", want: Spec{Kind: Jitter, Dir: wire.ServerToClient, Dur: time.Second}},
		{in: "duplicate=3", want: Spec{Kind: Duplicate, Dir: wire.ServerToClient, N: 3}},
		{in: "duplicate=assistant_text", want: Spec{Kind: Duplicate, Dir: wire.ServerToClient, Type: "assistant_text"}},
		{in: "reorder=run.output", want: Spec{Kind: Reorder, Dir: wire.ServerToClient, Type: "run.output"}},
		{in: "pause=2s@10", want: Spec{Kind: Pause, Dir: wire.ServerToClient, Dur: 2 * time.Second, N: 10}},
		{in: "explode=1", wantErr: `unknown kind "explode"`},
		{in: "drop-after=-1", wantErr: "message count"},
		{in: "drop-after=", wantErr: "syntax: drop-after=N"},
		{in: "close=1006", wantErr: "cannot be sent"},
		{in: "close=1005", wantErr: "cannot be sent"},
		{in: "close=abc", wantErr: "want a close code"},
		{in: "delay=forever", wantErr: "want a duration"},
		{in: "delay=-1s", wantErr: "want a duration"},
		{in: "delay=24h", wantErr: "want a duration"},
		{in: "duplicate=0", wantErr: "counting starts at 1"},
		{in: "reorder=", wantErr: "want a message type"},
		{in: "", wantErr: "unknown kind"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Parse(%q) error = %v, want it to mention %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		tt.want.Text = tt.in
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

// plans feeds types through an injector and returns what it decided.
func plans(t *testing.T, specs []string, types ...string) (start End, out []Plan) {
	t.Helper()
	parsed, err := ParseAll(specs)
	if err != nil {
		t.Fatal(err)
	}
	in := New(parsed, wire.ServerToClient, 1)
	if in == nil {
		t.Fatal("New returned nil for s2c specs")
	}
	start = in.Start()
	for _, typ := range types {
		out = append(out, in.Next(typ))
	}
	return start, out
}

func TestInjector(t *testing.T) {
	t.Parallel()
	t.Run("drop after N", func(t *testing.T) {
		_, p := plans(t, []string{"drop-after=2"}, "a", "b", "c")
		if p[0].End.Ends() || !p[1].End.Drop || p[2].End.Ends() {
			t.Errorf("drop-after=2 plans = %+v, want a drop after the second message only", p)
		}
	})
	t.Run("close at connect", func(t *testing.T) {
		start, _ := plans(t, []string{"close=4001"})
		if start.Code != 4001 {
			t.Errorf("Start() = %+v, want close 4001", start)
		}
	})
	t.Run("close after N", func(t *testing.T) {
		start, p := plans(t, []string{"close=4001@1"}, "a")
		if start.Ends() || p[0].End.Code != 4001 {
			t.Errorf("close=4001@1: start %+v, plan %+v", start, p[0])
		}
	})
	t.Run("delay adds to every message", func(t *testing.T) {
		_, p := plans(t, []string{"delay=10ms", "delay=5ms"}, "a", "b")
		for _, x := range p {
			if x.Wait != 15*time.Millisecond || x.Copies != 1 {
				t.Errorf("plan %+v, want 15ms wait, one copy", x)
			}
		}
	})
	t.Run("jitter is bounded and seeded", func(t *testing.T) {
		_, a := plans(t, []string{"jitter=100ms"}, "a", "b", "c", "d")
		_, b := plans(t, []string{"jitter=100ms"}, "a", "b", "c", "d")
		for i := range a {
			if a[i].Wait > 100*time.Millisecond || a[i].Wait != b[i].Wait {
				t.Errorf("jitter plan %d: %v vs %v (bound 100ms, same seed)", i, a[i].Wait, b[i].Wait)
			}
		}
	})
	t.Run("duplicate by number", func(t *testing.T) {
		_, p := plans(t, []string{"duplicate=2"}, "a", "b", "c")
		if p[0].Copies != 1 || p[1].Copies != 2 || p[2].Copies != 1 {
			t.Errorf("copies %d %d %d, want 1 2 1", p[0].Copies, p[1].Copies, p[2].Copies)
		}
	})
	t.Run("duplicate first of type only", func(t *testing.T) {
		_, p := plans(t, []string{"duplicate=b"}, "a", "b", "b")
		if p[0].Copies != 1 || p[1].Copies != 2 || p[2].Copies != 1 {
			t.Errorf("copies %d %d %d, want 1 2 1", p[0].Copies, p[1].Copies, p[2].Copies)
		}
	})
	t.Run("reorder holds then releases", func(t *testing.T) {
		_, p := plans(t, []string{"reorder=b"}, "a", "b", "c", "b")
		if p[1].Copies != 0 || !p[2].ReleaseHeld || p[3].Copies != 1 || p[3].ReleaseHeld {
			t.Errorf("reorder plans %+v, want b held, released after c, second b untouched", p)
		}
	})
	t.Run("reorder never loses the held message at the end", func(t *testing.T) {
		_, p := plans(t, []string{"reorder=b", "drop-after=2"}, "a", "b")
		if p[1].Copies != 1 || !p[1].End.Drop {
			t.Errorf("plan %+v, want b sent before the drop", p[1])
		}
	})
	t.Run("pause once after N", func(t *testing.T) {
		_, p := plans(t, []string{"pause=1s@1"}, "a", "b", "c")
		if p[0].Wait != 0 || p[1].Wait != time.Second || p[2].Wait != 0 {
			t.Errorf("waits %v %v %v, want 0 1s 0", p[0].Wait, p[1].Wait, p[2].Wait)
		}
	})
	t.Run("other direction is ignored", func(t *testing.T) {
		specs, _ := ParseAll([]string{"c2s:drop-after=1"})
		if New(specs, wire.ServerToClient, 1) != nil {
			t.Error("an injector for s2c took a c2s spec")
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, k := range Kinds {
		f.Add(k.Syntax)
	}
	f.Add("c2s:close=4000@3")
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := Parse(s)
		if err != nil {
			return
		}
		in := New([]Spec{spec}, spec.Dir, 1)
		in.Start()
		for i := 0; i < 3; i++ {
			p := in.Next("x")
			if p.Copies < 0 || p.Copies > 2 || p.Wait < 0 {
				t.Fatalf("%q: bad plan %+v", s, p)
			}
		}
	})
}
