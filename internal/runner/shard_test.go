package runner

import (
	"fmt"
	"testing"
	"time"
)

// TestShardPartition: for any N, the N shards hold every case exactly
// once, in catalog order, the same way on every call; by count they differ
// by at most one case, by time the largest shard is within the longest
// case of the smallest.
func TestShardPartition(t *testing.T) {
	t.Parallel()
	var cases []*Case
	durations := map[string]time.Duration{}
	for i := 0; i < 97; i++ {
		id := fmt.Sprintf("d.s%02d", (i*37)%97) // catalog order is not id order
		cases = append(cases, &Case{ID: id})
		durations[id] = time.Duration(1+(i*7)%13) * 100 * time.Millisecond
	}
	delete(durations, "d.s05") // a scenario the previous run did not have
	for _, n := range []int{1, 2, 3, 4, 7, 97, 200} {
		for _, timed := range []bool{false, true} {
			seen := map[string]int{}
			var loads []time.Duration
			var counts []int
			for i := 1; i <= n; i++ {
				sh := Shard{Index: i, Count: n}
				if timed {
					sh.Durations = durations
				}
				got := sh.pick(cases)
				again := sh.pick(cases)
				if fmt.Sprint(ids(got)) != fmt.Sprint(ids(again)) {
					t.Fatalf("shard %d/%d differs between two calls", i, n)
				}
				last := -1
				var load time.Duration
				for _, c := range got {
					seen[c.ID]++
					pos := indexOf(cases, c)
					if pos < last {
						t.Fatalf("shard %d/%d is not in catalog order", i, n)
					}
					last = pos
					if d, ok := durations[c.ID]; ok {
						load += d
					}
				}
				loads, counts = append(loads, load), append(counts, len(got))
			}
			for _, c := range cases {
				if seen[c.ID] != 1 {
					t.Fatalf("N=%d timed=%v: %s in %d shards", n, timed, c.ID, seen[c.ID])
				}
			}
			if !timed && spread(counts) > 1 {
				t.Errorf("N=%d by count: shard sizes %v", n, counts)
			}
			if timed && n > 1 && n < len(cases) && maxD(loads)-minD(loads) > 1300*time.Millisecond {
				t.Errorf("N=%d by time: loads %v differ by more than the longest case", n, loads)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"1/1", "2/4", " 4/4 "} {
		if _, err := ParseShard(ok); err != nil {
			t.Errorf("ParseShard(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "0/4", "5/4", "a/b", "1/0", "3", "1/1001", "-1/2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}

func ids(cs []*Case) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func indexOf(cs []*Case, c *Case) int {
	for i, x := range cs {
		if x == c {
			return i
		}
	}
	return -1
}

func spread(xs []int) int {
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi - lo
}

func maxD(xs []time.Duration) time.Duration {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func minD(xs []time.Duration) time.Duration {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}
