package replay

// maxAlignCells bounds the table of the exact alignment (a longest common
// subsequence of the two type sequences); longer streams, past their
// common head and tail, are aligned greedily.
const maxAlignCells = 4 << 20

// pair is one row of an alignment: indexes into the recorded and the
// replayed sequence, -1 for the side that has nothing there.
type pair struct{ a, b int }

// align pairs two sequences of message types so that the most messages of
// the same type face each other in order (a longest common subsequence);
// the rest face nothing (missing from b, or extra in b).
func align(a, b []string) []pair {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	out := make([]pair, 0, max(len(a), len(b)))
	for i := 0; i < head; i++ {
		out = append(out, pair{i, i})
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	var mid []pair
	if len(ma)*len(mb) <= maxAlignCells {
		mid = lcs(ma, mb)
	} else {
		mid = greedy(ma, mb)
	}
	for _, p := range mid {
		if p.a >= 0 {
			p.a += head
		}
		if p.b >= 0 {
			p.b += head
		}
		out = append(out, p)
	}
	for i := 0; i < tail; i++ {
		out = append(out, pair{len(a) - tail + i, len(b) - tail + i})
	}
	return out
}

// lcs is the exact alignment by dynamic programming; on ties a missing
// recorded message comes before an extra replayed one.
func lcs(a, b []string) []pair {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return gaps(a, b, 0, 0)
	}
	// t[i][j] is the LCS length of a[i:] and b[j:].
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var out []pair
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			out = append(out, pair{i, j})
			i++
			j++
		case t[i+1][j] >= t[i][j+1]:
			out = append(out, pair{i, -1})
			i++
		default:
			out = append(out, pair{-1, j})
			j++
		}
	}
	return append(out, gaps(a[i:], b[j:], i, j)...)
}

// greedy aligns long streams: each recorded message is paired with the
// next replayed one of its type within a window, else it is missing.
func greedy(a, b []string) []pair {
	const window = 64
	var out []pair
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] == b[j] {
			out = append(out, pair{i, j})
			i++
			j++
			continue
		}
		k := j + 1
		for k < len(b) && k < j+window && b[k] != a[i] {
			k++
		}
		if k < len(b) && b[k] == a[i] {
			for ; j < k; j++ {
				out = append(out, pair{-1, j})
			}
			continue
		}
		out = append(out, pair{i, -1})
		i++
	}
	return append(out, gaps(a[i:], b[j:], i, j)...)
}

func gaps(a, b []string, ia, ib int) []pair {
	var out []pair
	for i := range a {
		out = append(out, pair{ia + i, -1})
	}
	for j := range b {
		out = append(out, pair{-1, ib + j})
	}
	return out
}
