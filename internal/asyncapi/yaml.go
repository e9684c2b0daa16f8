package asyncapi

import (
	"bytes"

	"go.yaml.in/yaml/v3"
)

// marshalIndent renders the document as indented JSON.
func marshalIndent(doc *omap) ([]byte, error) {
	raw, err := marshal(doc)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := jsonIndent(&b, raw); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// ToYAML renders a JSON document as block YAML, keeping its member order
// (a yaml.Node decoded from JSON keeps it; clearing the flow style makes
// it block YAML).
func ToYAML(jsonDoc []byte) ([]byte, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(jsonDoc, &n); err != nil {
		return nil, err
	}
	block(&n)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func block(n *yaml.Node) {
	n.Style &^= yaml.FlowStyle
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle) != 0 && n.Tag == "!!str" {
		n.Style = 0 // let the encoder quote only what needs it
	}
	for _, c := range n.Content {
		block(c)
	}
}
