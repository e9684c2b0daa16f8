package dialect

import "testing"

func TestEndpoint(t *testing.T) {
	t.Parallel()
	d := MustGet("hostd")
	tests := []struct {
		method, path string
		want, run    string
	}{
		{"POST", "/auth/login", "login", ""},
		{"post", "/api/auth/login/", "login", ""},
		{"POST", "/runs/r1/input", "input", "r1"},
		{"POST", "/relay/runs/run_9/input", "input", "run_9"},
		{"GET", "/auth/login", "", ""},
		{"POST", "/runs//input", "", ""},
		{"POST", "/runs/r1/stop", "", ""},
		{"POST", "/input", "", ""},
		{"POST", "/", "", ""},
	}
	for _, tt := range tests {
		ep, params, ok := d.Endpoint(tt.method, tt.path)
		if ep.Name != tt.want || ok != (tt.want != "") || params["run_id"] != tt.run {
			t.Errorf("Endpoint(%s %s) = %q %v %v, want %q run %q", tt.method, tt.path, ep.Name, params, ok, tt.want, tt.run)
		}
	}
	if name, ep, ok := AnyEndpoint("POST", "/runs/x/input"); !ok || name != "hostd" || ep.Name != "input" {
		t.Errorf("AnyEndpoint = %s %s %v", name, ep.Name, ok)
	}
	if !HasEndpoints("hostd") || HasEndpoints("mitto") || !HasEndpoints("auto") {
		t.Error("HasEndpoints: want hostd and auto, not mitto")
	}
}

func TestCheckEndpoints(t *testing.T) {
	t.Parallel()
	d := &Dialect{Manifest: Manifest{Dialect: "x", HTTPEndpoints: []HTTPEndpoint{{Name: "a", Method: "POST", Path: "/a", Request: "nope"}}},
		http: map[string]*Schema{}}
	if err := d.checkEndpoints(); err == nil {
		t.Error("an endpoint naming an unknown body schema was accepted")
	}
	d.HTTPEndpoints = []HTTPEndpoint{{Name: "a", Method: "POST", Path: "a"}}
	if err := d.checkEndpoints(); err == nil {
		t.Error("a relative path was accepted")
	}
}
