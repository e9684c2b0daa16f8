package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// maxDiffLines keeps a diff readable; the rest is counted, not shown.
const maxDiffLines = 12

// jsonDiff describes how b differs from a, one line per differing member:
// "- /path: old" and "+ /path: new", keys compared regardless of order.
func jsonDiff(a, b any) string {
	var lines []string
	walkDiff("", a, b, &lines)
	return joinDiff(lines)
}

// firstDifference locates the first differing member of a diff and what it
// was and became ("absent" when missing on one side).
func firstDifference(diff string) (ptr, was, now string) {
	lines := strings.Split(diff, "\n")
	if len(lines) == 0 || len(lines[0]) < 2 {
		return "", "", ""
	}
	ptr, was = splitDiffLine(lines[0])
	now = "absent"
	if strings.HasPrefix(lines[0], "+ ") {
		was, now = "absent", was
		return ptr, was, now
	}
	if len(lines) > 1 {
		if p2, v := splitDiffLine(lines[1]); p2 == ptr && strings.HasPrefix(lines[1], "+ ") {
			now = v
		}
	}
	return ptr, was, now
}

func splitDiffLine(line string) (ptr, val string) {
	body := line[2:]
	if i := strings.Index(body, ": "); i >= 0 {
		return body[:i], body[i+2:]
	}
	return body, ""
}

func joinDiff(lines []string) string {
	if len(lines) > maxDiffLines {
		more := len(lines) - maxDiffLines
		lines = append(lines[:maxDiffLines], fmt.Sprintf("… %d more lines", more))
	}
	return strings.Join(lines, "\n")
}

func walkDiff(ptr string, a, b any, out *[]string) {
	am, aObj := a.(map[string]any)
	bm, bObj := b.(map[string]any)
	if aObj && bObj {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			p := ptr + "/" + jsonx.EscapePointer(k)
			av, inA := am[k]
			bv, inB := bm[k]
			switch {
			case !inA:
				*out = append(*out, "+ "+diffPointer(p)+": "+short(bv))
			case !inB:
				*out = append(*out, "- "+diffPointer(p)+": "+short(av))
			default:
				walkDiff(p, av, bv, out)
			}
		}
		return
	}
	aa, aArr := a.([]any)
	ba, bArr := b.([]any)
	if aArr && bArr && len(aa) == len(ba) {
		for i := range aa {
			walkDiff(ptr+"/"+strconv.Itoa(i), aa[i], ba[i], out)
		}
		return
	}
	if !jsonx.Equal(a, b) {
		p := ptr
		if p == "" {
			p = "/"
		}
		*out = append(*out, "- "+diffPointer(p)+": "+short(a), "+ "+diffPointer(p)+": "+short(b))
	}
}

// diffPointer keeps a pointer on its diff line: a member name is the
// peer's and may hold a line break, which would start a line of its own
// (a forged "+ /ok: true" in a console, a wrong first difference here).
// Values need nothing: short writes them as JSON, which escapes them.
var diffPointer = strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace
