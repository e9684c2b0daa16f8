package recording

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// MaxHARBytes bounds a HAR file: it is one JSON document, decoded whole.
const MaxHARBytes = 1 << 30

// har is the part of a HAR 1.2 file that carries WebSocket traffic, as
// Chrome DevTools exports it ("Save all as HAR with content").
type har struct {
	Log struct {
		Entries []harEntry `json:"entries"`
	} `json:"log"`
}

type harEntry struct {
	Started string `json:"startedDateTime"`
	Request struct {
		URL string `json:"url"`
	} `json:"request"`
	Messages []harMessage `json:"_webSocketMessages"`
}

type harMessage struct {
	Type   string          `json:"type"` // "send" (client→server) or "receive"
	Time   json.Number     `json:"time"` // epoch seconds, fractional
	Opcode int             `json:"opcode"`
	Data   json.RawMessage `json:"data"`
}

// ReadHAR reads the WebSocket connections of a HAR file as recording
// lines: an open line per connection, then every frame ordered by time.
// Messages it cannot read are reported as problems and skipped.
func ReadHAR(r io.Reader) ([]Line, []Problem, error) {
	var h har
	dec := json.NewDecoder(io.LimitReader(r, MaxHARBytes))
	dec.UseNumber()
	if err := dec.Decode(&h); err != nil {
		return nil, nil, fmt.Errorf("read HAR: %w", err)
	}
	var opens, frames []Line
	var problems []Problem
	for i, e := range h.Log.Entries {
		if len(e.Messages) == 0 {
			continue
		}
		conn := "h" + strconv.Itoa(i+1)
		started, _ := time.Parse(time.RFC3339Nano, e.Started)
		opens = append(opens, Line{Kind: KindOpen, Conn: conn, URL: e.Request.URL, Time: started})
		for j, m := range e.Messages {
			l, err := harFrame(conn, e.Request.URL, m)
			if err != nil {
				problems = append(problems, Problem{Err: fmt.Sprintf("entry %d, message %d: %v", i+1, j+1, err)})
				continue
			}
			frames = append(frames, l)
		}
	}
	sort.SliceStable(frames, func(a, b int) bool { return frames[a].Time.Before(frames[b].Time) })
	for i := range frames {
		frames[i].Index = int64(i + 1)
	}
	return append(opens, frames...), problems, nil
}

func harFrame(conn, url string, m harMessage) (Line, error) {
	var dir wire.Direction
	switch m.Type {
	case "send":
		dir = wire.ClientToServer
	case "receive":
		dir = wire.ServerToClient
	default:
		return Line{}, fmt.Errorf("type %q, want send or receive", m.Type)
	}
	secs, err := m.Time.Float64()
	if err != nil || math.IsInf(secs, 0) || secs < 0 || secs > 1e11 {
		return Line{}, fmt.Errorf("time %q is not epoch seconds", m.Time)
	}
	var data string
	if err := json.Unmarshal(m.Data, &data); err != nil {
		return Line{}, fmt.Errorf("data is not a string: %w", err)
	}
	whole, frac := math.Modf(secs)
	l := Line{Kind: KindFrame, Conn: conn, URL: url, Dir: dir, Opcode: m.Opcode,
		Time: time.Unix(int64(whole), int64(frac*1e9)).UTC()}
	switch wire.Opcode(m.Opcode) {
	case wire.OpText:
		l.Text = &data
	case wire.OpBinary:
		if _, err := base64.StdEncoding.DecodeString(data); err != nil {
			return Line{}, fmt.Errorf("binary data is not base64: %w", err)
		}
		l.Base64 = &data
	default:
		return Line{}, fmt.Errorf("opcode %d, want 1 (text) or 2 (binary)", m.Opcode)
	}
	return l, nil
}
