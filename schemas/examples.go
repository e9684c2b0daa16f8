package schemas

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// Example is one message of a dialect's examples files
// (examples/<c2s|s2c|http>/<type>.json): a valid one, or an invalid one
// with why and the rule it breaks.
type Example struct {
	Dir     string // "c2s", "s2c" or "http"
	Type    string // the file's name less .json: the message type or HTTP body
	Valid   bool
	Message json.RawMessage
	Why     string // invalid examples: what is wrong
	Rule    string // invalid examples: the rule that fires
}

// Examples reads every example of a dialect, file by file in name order,
// the valid ones of a file before its invalid ones. Tests that hold the
// checker or the validators to the schemas, and `wsconform mcp`'s explain
// tool, read the examples through it.
func Examples(dialect string) ([]Example, error) {
	var out []Example
	for _, dir := range []string{"c2s", "s2c", "http"} {
		folder := path.Join(dialect, "examples", dir)
		entries, err := fs.ReadDir(FS, folder)
		if err != nil {
			continue // a dialect without HTTP bodies has no http folder
		}
		for _, e := range entries {
			raw, err := fs.ReadFile(FS, path.Join(folder, e.Name()))
			if err != nil {
				return nil, err
			}
			var ex struct {
				Valid   []json.RawMessage `json:"valid"`
				Invalid []struct {
					Why     string          `json:"why"`
					Message json.RawMessage `json:"message"`
					Rule    string          `json:"rule"`
				} `json:"invalid"`
			}
			if err := json.Unmarshal(raw, &ex); err != nil {
				return nil, fmt.Errorf("%s: %w", path.Join(folder, e.Name()), err)
			}
			typ := strings.TrimSuffix(e.Name(), ".json")
			for _, v := range ex.Valid {
				out = append(out, Example{Dir: dir, Type: typ, Valid: true, Message: v})
			}
			for _, v := range ex.Invalid {
				out = append(out, Example{Dir: dir, Type: typ, Message: v.Message, Why: v.Why, Rule: v.Rule})
			}
		}
	}
	return out, nil
}
