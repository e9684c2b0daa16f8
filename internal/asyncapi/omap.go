package asyncapi

import (
	"bytes"
	"encoding/json"
)

// omap is a JSON object that keeps its members in insertion order, so an
// exported document reads top-down as AsyncAPI documents are written
// (asyncapi, info, servers, channels, operations, components).
type omap struct {
	keys []string
	vals map[string]any
}

func newOmap() *omap { return &omap{vals: map[string]any{}} }

// set adds or replaces a member; a nil value or an empty container is
// left out, so optional members never appear empty.
func (o *omap) set(k string, v any) *omap {
	if empty(v) {
		return o
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
	return o
}

func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case []string:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	case *omap:
		return x == nil || len(x.keys) == 0
	}
	return false
}

func (o *omap) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshal(o.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes without escaping <, > and & (schemas quote TypeScript).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func jsonIndent(dst *bytes.Buffer, src []byte) error { return json.Indent(dst, src, "", "  ") }
