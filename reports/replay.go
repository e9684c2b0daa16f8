package reports

import "github.com/wsconform/wsconform/internal/wire"

// KindReplay is a `wsconform replay` report: a recording's client side
// played against a live server, with the new server stream judged by the
// check engine (Sessions) and compared with the recorded one (Replays).
// A `serve --replay` or `gate --replay` report keeps its own kind and
// carries the client-side mismatches as findings and Replays.
const KindReplay = "replay"

// Diff operations of a ReplayRow.
const (
	DiffSame    = "same"    // the replayed message matches the recorded one within the masks
	DiffChanged = "changed" // same type and place, members differ (Members says which)
	DiffMissing = "missing" // recorded, not seen in the replay
	DiffExtra   = "extra"   // seen in the replay, not in the recording
	// DiffMoved: the same message (within the masks) a few places away,
	// as when a server sends two independent messages in the other order.
	// Shown, not a difference: the order a spec guarantees is the check
	// engine's to judge (ordering rules), not the recording's.
	DiffMoved = "moved"
	// DiffLate: a message at the end of a connection that only one
	// stream has and that came as the client let go: seen in the replay
	// after every recorded message when the recorded client left right
	// after its last answer, or recorded after the client's close frame.
	// Whether a server still sends as its client leaves is timing, not
	// behaviour. Shown, not a difference; the check engine judges it.
	DiffLate = "late"
)

// ReplayDiff compares one recorded connection with its replay.
type ReplayDiff struct {
	// Conn is the recorded connection id; Replayed is the new
	// connection's id ("" when it could not be opened).
	Conn     string `json:"conn"`
	Replayed string `json:"replayed,omitempty"`
	URL      string `json:"url"`
	// Dialect names the recording's dialect, for the heading of the
	// ordering column (event_id, seq, index); optional.
	Dialect string `json:"dialect,omitempty"`
	// Side is the direction compared: s2c when a server was replayed
	// against (wsconform replay), c2s when a client was (serve --replay).
	Side wire.Direction `json:"side"`
	// Matched is true when no row differs (ReplayRow.Differs).
	Matched bool `json:"matched"`
	// Masks are the members ignored, as given (dialect's and --ignore).
	Masks []string    `json:"masks,omitempty"`
	Rows  []ReplayRow `json:"rows"`
	// Error says why the replay of this connection stopped early, if it did.
	Error string `json:"error,omitempty"`
}

// ReplayRow is one line of a side-by-side diff: a recorded frame, a
// replayed frame, or both aligned.
type ReplayRow struct {
	Op       string       `json:"op"`
	Recorded *Frame       `json:"recorded,omitempty"`
	Replayed *Frame       `json:"replayed,omitempty"`
	Members  []MemberDiff `json:"members,omitempty"`
}

// MemberDiff is one member that differs in a DiffChanged row ("" for a
// member absent on that side).
type MemberDiff struct {
	Pointer  string `json:"pointer"`
	Recorded string `json:"recorded,omitempty"`
	Replayed string `json:"replayed,omitempty"`
}

// Differs counts the rows that differ.
func (d ReplayDiff) Differs() int {
	n := 0
	for _, r := range d.Rows {
		if r.Differs() {
			n++
		}
	}
	return n
}

// Differs reports whether a row is a difference: not DiffSame, DiffMoved
// or DiffLate, which are shown only.
func (r ReplayRow) Differs() bool {
	return r.Op != DiffSame && r.Op != DiffMoved && r.Op != DiffLate
}

// Counts counts the rows of each operation (DiffSame, DiffChanged…).
func (d ReplayDiff) Counts() map[string]int {
	m := map[string]int{}
	for _, r := range d.Rows {
		m[r.Op]++
	}
	return m
}
