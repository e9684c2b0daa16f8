package wire

import (
	"errors"
	"net/url"
)

// ParseURL reads the URL of a WebSocket server as every command takes it:
// ws:// or wss://, with http:// and https:// taken to mean the same server,
// and a host. Callers add their own checks (a query, a path).
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "ws", "wss":
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	default:
		return nil, errors.New("scheme must be ws:// or wss://")
	}
	if u.Host == "" {
		return nil, errors.New("no host")
	}
	return u, nil
}
