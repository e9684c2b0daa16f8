package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Helpers shared by the dialect rule files.

// replayMismatch reports an event delivered again with different content.
func replayMismatch(rule Rule, m *message, orig *logged, what string) Finding {
	fd := rule.fire(m, "%s delivered again with different content (first seen as frame %d on %s)", what, orig.frame, orig.conn)
	fd.Diff = jsonDiff(orig.doc, m.Doc)
	fd.Pointer, fd.Expected, fd.Actual = firstDifference(fd.Diff)
	if fd.Pointer == "/" {
		fd.Pointer = ""
	}
	fd.Related = []int64{orig.frame}
	return fd
}

func joinIDs(ids []int64) string {
	const max = 10
	var parts []string
	for i, id := range ids {
		if i == max {
			parts = append(parts, fmt.Sprintf("… (%d in all)", len(ids)))
			break
		}
		parts = append(parts, strconv.FormatInt(id, 10))
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// firstLine is the first line of a multi-line text.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
