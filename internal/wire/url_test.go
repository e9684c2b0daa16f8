package wire

import "testing"

func TestParseURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ raw, want, err string }{
		{"ws://h:1/ws", "ws://h:1/ws", ""},
		{"https://h/x?a=b", "wss://h/x?a=b", ""},
		{"http://h", "ws://h", ""},
		{"ftp://h", "", "scheme must be ws:// or wss://"},
		{"ws:///ws", "", "no host"},
		{"http//x", "", "scheme must be ws:// or wss://"},
	}
	for _, tt := range tests {
		u, err := ParseURL(tt.raw)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%s: err %v, want %q", tt.raw, err, tt.err)
		case tt.err == "" && (err != nil || u.String() != tt.want):
			t.Errorf("%s: %v, %v; want %s", tt.raw, u, err, tt.want)
		}
	}
}
