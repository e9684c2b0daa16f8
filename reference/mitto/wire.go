package mitto

import (
	"bytes"

	"github.com/wsconform/wsconform/reference/server"
)

// obj is a JSON object whose members keep their order on the wire, so the
// frames read like the spec's tables and are byte-identical run to run.
type obj []member

// member is one name/value pair of an obj.
type member struct {
	key string
	val any
}

// MarshalJSON writes the members in order, without HTML escaping (the
// agent's html travels as written).
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := server.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := server.Marshal(m.val)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// without returns a copy of o less the member key (mutations drop a
// required member with it).
func (o obj) without(key string) obj {
	out := make(obj, 0, len(o))
	for _, m := range o {
		if m.key != key {
			out = append(out, m)
		}
	}
	return out
}

// envelope is the {type, data} frame every mitto message uses
// (mitto.md §Message Envelope).
func envelope(typ string, data obj) obj {
	return obj{{"type", typ}, {"data", data}}
}

// encode marshals a frame once, so the same bytes go to every client.
// Our frames hold only strings, numbers, booleans and raw JSON, so it
// cannot fail in practice; a failure is logged and the frame skipped.
func (s *session) encode(frame obj) []byte {
	data, err := server.Marshal(frame)
	if err != nil {
		s.env.Log.Error("mitto: encode frame", "session", s.id, "err", err)
		return nil
	}
	return data
}
