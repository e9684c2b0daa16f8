package mcpserver

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recordingScheme prefixes the URI of a recording resource; the rest is
// its absolute path.
const recordingScheme = "wsconform://recording"

// Bounds of the walk that lists the recordings under the roots when the
// server starts: a root may be a large source tree.
const (
	maxListed    = 200
	maxListDepth = 6
	maxVisited   = 20000
)

// addResources lists the recordings (.jsonl) and HAR files under the
// roots as resources, and serves any recording under the roots by the
// template, each read as its validate_recording summary (JSON): what an
// agent wants from a recording first, and bounded whatever its size.
func (s *Server) addResources() {
	for _, p := range s.listRecordings() {
		s.mcp.AddResource(&mcp.Resource{URI: recordingURI(p), Name: filepath.Base(p), MIMEType: "application/json",
			Description: "validation summary of the recording " + p}, s.readRecording)
	}
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: recordingScheme + "{+path}", Name: "recording",
		MIMEType: "application/json", Description: "validation summary of a recording or HAR file under the server's roots, by absolute path"}, s.readRecording)
}

func recordingURI(abs string) string {
	return recordingScheme + (&url.URL{Path: filepath.ToSlash(abs)}).EscapedPath()
}

// listRecordings walks the roots for *.jsonl and *.har files, skipping
// hidden and dependency folders.
func (s *Server) listRecordings() []string {
	var out []string
	visited := 0
	for _, root := range s.roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			visited++
			switch {
			case len(out) >= maxListed || visited > maxVisited:
				return fs.SkipAll
			case err != nil:
				return nil // an unreadable folder is left out
			}
			if d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || strings.Count(rel, string(filepath.Separator)) >= maxListDepth) {
					return fs.SkipDir
				}
				return nil
			}
			if ext := filepath.Ext(p); (ext == ".jsonl" || ext == ".har") && d.Type().IsRegular() {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

// readRecording serves a recording resource: its path is checked as a
// tool's path argument is.
func (s *Server) readRecording(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, ok := strings.CutPrefix(uri, recordingScheme)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	p, err := url.PathUnescape(rest)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	res, err := s.validateRecording(ctx, validateArgs{Path: filepath.FromSlash(p)})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}
