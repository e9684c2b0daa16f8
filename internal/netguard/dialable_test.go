package netguard

import "testing"

func TestDialable(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"[::]:8080", "127.0.0.1:8080"},
		{"0.0.0.0:9000", "127.0.0.1:9000"},
		{"127.0.0.1:1", "127.0.0.1:1"},
		{"[::1]:2", "[::1]:2"},
		{"192.168.1.5:3", "192.168.1.5:3"},
		{"not an address", "not an address"},
	} {
		if got := Dialable(c.in); got != c.want {
			t.Errorf("Dialable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
