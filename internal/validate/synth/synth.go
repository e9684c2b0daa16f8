// Package synth writes large, conforming recordings for measuring
// `wsconform validate` (issue 26): a myagent session per connection, each
// delivering numbered agent.partial_answer events, as the proxy records
// them. The frames raise no finding, so a measurement times the path of
// clean traffic.
package synth

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Options size a recording.
type Options struct {
	// Frames is the number of frame lines, about; Conns how many
	// connections (sessions) they are spread over, interleaved.
	Frames, Conns int
	// Text is the length of each event's content; the default, 40, gives
	// lines of about 200 bytes, as the proxy's recording of chat traffic.
	Text int
}

// Write writes the recording to w.
func Write(w io.Writer, o Options) error {
	if o.Conns <= 0 {
		o.Conns = 8
	}
	if o.Text <= 0 {
		o.Text = 40
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	fmt.Fprintf(bw, `{"kind":"header","format":"wsconform-recording","version":1,"dialect":"myagent","tool":"synth","time":%q}`+"\n", t0.Format(time.RFC3339Nano))
	for c := 1; c <= o.Conns; c++ {
		fmt.Fprintf(bw, `{"kind":"open","conn":"c%d","session":"s%d","url":"ws://127.0.0.1:7337/ws","time":%q}`+"\n", c, c, t0.Format(time.RFC3339Nano))
	}
	text := strings.Repeat("lorem ipsum ", o.Text/12+1)[:o.Text]
	seq := make([]int, o.Conns+1)
	var b []byte
	for i := 0; i < o.Frames; i++ {
		c := i%o.Conns + 1
		ts := t0.Add(time.Duration(i) * time.Millisecond).Format(time.RFC3339Nano)
		var payload string
		if seq[c] == 0 {
			payload = `{"event":"system.connected","timestamp":"2026-11-27T10:00:00Z","session_id":"sess_` + strconv.Itoa(c) + `","content":{"server_version":"1.0","capabilities":["seq"]}}`
		} else {
			payload = `{"event":"agent.partial_answer","timestamp":"2026-11-27T10:00:00Z","session_id":"sess_` + strconv.Itoa(c) +
				`","seq":` + strconv.Itoa(seq[c]) + `,"content":"` + text + `"}`
		}
		seq[c]++
		b = b[:0]
		b = append(b, `{"kind":"frame","conn":"c`...)
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, `","time":"`...)
		b = append(b, ts...)
		b = append(b, `","dir":"s2c","index":`...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, `,"opcode":1,"text":`...)
		b = strconv.AppendQuote(b, payload)
		b = append(b, "}\n"...)
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	for c := 1; c <= o.Conns; c++ {
		fmt.Fprintf(bw, `{"kind":"close","conn":"c%d","session":"s%d","time":%q,"code":1000,"by":"client"}`+"\n", c, c, t0.Format(time.RFC3339Nano))
	}
	return bw.Flush()
}
