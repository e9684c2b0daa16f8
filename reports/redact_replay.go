package reports

import "github.com/wsconform/wsconform/internal/redact"

// redactReplays returns a copy of diffs redacted as Redact does the
// sessions' frames: on the first pass (literal false) the URLs and the
// credential members of the rows' payloads, which reveal the secrets; on
// the second the secrets known by then everywhere, and the member values
// as a finding's Actual (a credential member's value is replaced).
// Frames are copied, never changed in place: the report they came from
// keeps them.
func redactReplays(s *redact.Scrubber, diffs []ReplayDiff, literal bool) []ReplayDiff {
	if diffs == nil {
		return nil
	}
	out := append([]ReplayDiff(nil), diffs...)
	for i := range out {
		d := &out[i]
		if literal {
			d.URL, d.Error = s.Text(d.URL), s.Text(d.Error)
		} else {
			d.URL = s.URL(d.URL)
		}
		d.Rows = append([]ReplayRow(nil), d.Rows...)
		for k := range d.Rows {
			row := &d.Rows[k]
			row.Recorded = redactFramePtr(s, row.Recorded, literal)
			row.Replayed = redactFramePtr(s, row.Replayed, literal)
			row.Members = append([]MemberDiff(nil), row.Members...)
			for m := range row.Members {
				md := &row.Members[m]
				md.Recorded = redactActual(s, md.Pointer, md.Recorded)
				md.Replayed = redactActual(s, md.Pointer, md.Replayed)
			}
		}
	}
	return out
}

// redactFramePtr redacts one frame of a diff row into a copy.
func redactFramePtr(s *redact.Scrubber, f *Frame, literal bool) *Frame {
	if f == nil {
		return nil
	}
	one := []Frame{*f}
	if literal {
		one = literalFrames(s, one)
	} else {
		one = redactFrames(s, one)
	}
	c := one[0]
	return &c
}
