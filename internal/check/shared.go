package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Helpers shared by the dialect rule files.

// replayMismatch reports an event delivered again with different content.
// orig holds the two views compared (as eventLog.compare made them), the
// new one located at base in the message: the diff is between the two
// views, so members a dialect ignores never show in it, and the pointer
// locates the first difference in the message.
func replayMismatch(rule Rule, m *message, orig *sighting, base, what string) Finding {
	fd := rule.fire(m, "%s delivered again with different content (first seen as frame %d on %s)", what, orig.frame, orig.conn)
	fd.Diff = jsonDiff(orig.was, orig.now)
	ptr, was, now := firstDifference(fd.Diff)
	if ptr == "/" {
		ptr = ""
	}
	fd.Pointer, fd.Expected, fd.Actual = base+ptr, was, now
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
