package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// resolveRoots makes every root absolute with its symbolic links
// followed, so that a path is compared with what it really names.
func resolveRoots(roots []string) ([]string, error) {
	if len(roots) == 0 {
		roots = []string{"."}
	}
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", r, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", r, err)
		}
		st, err := os.Stat(real)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", r, err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("root %s is not a directory", r)
		}
		out = append(out, real)
	}
	return out, nil
}

// openPath resolves a path argument: relative paths are relative to the
// first root, and the file it names (links followed) must be a regular
// file under a root, no larger than the server reads. The error says
// which rule the path broke and names the roots, so that an agent can
// ask for the right file.
func (s *Server) openPath(arg, p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("argument %q: give the path of a recording (.jsonl) or HAR file", arg)
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("argument %q: a path cannot hold a NUL byte", arg)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.roots[0], p)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(p))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("argument %q: %s: no such file", arg, p)
		}
		return "", fmt.Errorf("argument %q: %w", arg, err)
	}
	if !s.underRoot(real) {
		return "", fmt.Errorf("argument %q: %s is outside the roots this server may read (%s); start `wsconform mcp --root DIR` to allow another directory",
			arg, p, strings.Join(s.roots, ", "))
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("argument %q: %w", arg, err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("argument %q: %s is not a regular file", arg, p)
	}
	if st.Size() > s.cfg.MaxFileBytes {
		return "", fmt.Errorf("argument %q: %s is %d bytes, more than the %d this server reads (wsconform mcp --max-file-bytes); judge it with `wsconform validate` instead",
			arg, p, st.Size(), s.cfg.MaxFileBytes)
	}
	return real, nil
}

// underRoot reports whether the resolved path p is a root or inside one.
func (s *Server) underRoot(p string) bool {
	for _, r := range s.roots {
		rel, err := filepath.Rel(r, p)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// checkURL parses a URL argument of one of schemes and, unless the server
// allows remote targets, refuses a host that is not loopback: an address
// in 127.0.0.0/8 or ::1, or the name localhost. A name that might
// resolve elsewhere is refused rather than looked up.
func (s *Server) checkURL(arg, raw string, schemes ...string) (*url.URL, error) {
	if raw == "" {
		return nil, fmt.Errorf("argument %q: give a URL (%s://127.0.0.1:PORT…)", arg, schemes[0])
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("argument %q: %w", arg, err)
	}
	ok := false
	for _, sc := range schemes {
		ok = ok || u.Scheme == sc
	}
	if !ok {
		return nil, fmt.Errorf("argument %q: %q: want a %s URL", arg, raw, strings.Join(schemes, " or "))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("argument %q: %q has no host", arg, raw)
	}
	if s.cfg.AllowRemote {
		return u, nil
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || strings.EqualFold(host, "localhost") {
		return u, nil
	}
	return nil, fmt.Errorf("argument %q: %s is not a loopback address; this server only reaches 127.0.0.1, ::1 and localhost unless started with `wsconform mcp --allow-remote`", arg, host)
}
