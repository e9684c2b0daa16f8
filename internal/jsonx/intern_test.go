package jsonx

import (
	"fmt"
	"testing"
)

// TestInternBounded: distinct short strings beyond the bound are still
// decoded right, and the cache stops growing at maxCached.
func TestInternBounded(t *testing.T) {
	t.Parallel()
	d := decoder{cache: &internCache{strs: map[string]string{}}}
	// the bytes a string came from may change after: the cache holds a copy
	b := []byte("type")
	s := d.intern(b)
	b[0] = 'X'
	if s != "type" || d.intern([]byte("type")) != "type" || len(d.cache.strs) != 1 {
		t.Error("interned string shares the input's bytes")
	}
	delete(d.cache.strs, "type")
	for i := range maxCached + 100 {
		want := fmt.Sprintf("id-%d", i)
		if got := d.intern([]byte(want)); got != want {
			t.Fatalf("intern(%q) = %q", want, got)
		}
	}
	if n := len(d.cache.strs); n != maxCached {
		t.Errorf("cache holds %d strings, want the bound %d", n, maxCached)
	}
	long := string(make([]byte, maxInterned+1))
	if d.intern([]byte(long)) != long || len(d.cache.strs) != maxCached {
		t.Error("a long string was cached or changed")
	}
}
