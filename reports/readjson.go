package reports

import (
	"encoding/json"
	"fmt"
	"io"
)

// MaxJSONReport bounds a report ReadJSON accepts (a run with full wire
// logs of 400 scenarios is a few tens of MB).
const MaxJSONReport = 512 << 20

// ReadJSON reads a report WriteJSON wrote: `wsconform merge` puts the
// reports of a sharded run back together from them. Another format or a
// newer version is refused with a clear error, never guessed at.
func ReadJSON(r io.Reader) (*Report, error) {
	dec := json.NewDecoder(io.LimitReader(r, MaxJSONReport+1))
	var rep Report
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("read json report: %w", err)
	}
	if rep.Format != Format {
		return nil, fmt.Errorf("read json report: format %q, want %q (a report of wsconform --json)", rep.Format, Format)
	}
	if rep.Version > Version {
		return nil, fmt.Errorf("read json report: version %d is newer than this wsconform reads (%d): update wsconform", rep.Version, Version)
	}
	if rep.Counts == nil {
		rep.Counts = map[Verdict]int{}
	}
	return &rep, nil
}
