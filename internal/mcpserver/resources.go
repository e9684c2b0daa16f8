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

// addResources lists the recordings (.jsonl), HAR files and wsconform
// --json reports under the roots as resources, and serves any under the
// roots by the templates: a recording reads as its validate_recording
// summary, a report as its verdict, failed scenarios and root causes
// (JSON): what an agent wants first, bounded whatever the file's size.
func (s *Server) addResources() {
	recs, reps := s.listFiles()
	for _, p := range recs {
		s.mcp.AddResource(&mcp.Resource{URI: recordingURI(p), Name: filepath.Base(p), MIMEType: "application/json",
			Description: "validation summary of the recording " + p}, s.readRecording)
	}
	for _, p := range reps {
		s.mcp.AddResource(&mcp.Resource{URI: reportURI(p), Name: filepath.Base(p), MIMEType: "application/json",
			Description: "summary of the wsconform report " + p + ": verdict, scenarios that did not pass, root causes"}, s.readReport)
	}
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: recordingScheme + "{+path}", Name: "recording",
		MIMEType: "application/json", Description: "validation summary of a recording or HAR file under the server's roots, by absolute path"}, s.readRecording)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: reportScheme + "{+path}", Name: "report",
		MIMEType: "application/json", Description: "summary of a wsconform --json report under the server's roots, by absolute path"}, s.readReport)
}

func recordingURI(abs string) string {
	return recordingScheme + (&url.URL{Path: filepath.ToSlash(abs)}).EscapedPath()
}

// listFiles walks the roots for recordings (*.jsonl, *.har) and
// wsconform reports (*.json that are one), skipping hidden and dependency
// folders.
func (s *Server) listFiles() (recs, reps []string) {
	visited := 0
	for _, root := range s.roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			visited++
			switch {
			case len(recs)+len(reps) >= maxListed || visited > maxVisited:
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
			switch ext := filepath.Ext(p); {
			case !d.Type().IsRegular():
			case ext == ".jsonl" || ext == ".har":
				recs = append(recs, p)
			case ext == ".json" && isReport(p):
				reps = append(reps, p)
			}
			return nil
		})
	}
	return recs, reps
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
