// Command front serves a built web app (the relay project's web/dist) and
// passes the protocol's paths on to a hostd server, on one origin.
//
//	go run ./ci/field/hostd/front -dist DIR -upstream http://127.0.0.1:PORT [-listen 127.0.0.1:0]
//
// The relay web app at 63f9a1c calls the server URL the user types in, with
// fetch and a WebSocket; its server sends no CORS headers, so the app only
// works when it is served from the server's origin. front is that origin
// for the field trial: /health, /auth/, /runs and /ws/ (HTTP and WebSocket
// upgrades) go to -upstream (wsconform gate's proxy, wsproxy, or the
// reference server), every other path is a file of -dist. The Host header
// and the Origin the browser sent are passed on unchanged, so the server
// judges the browser's own handshake. -first-ws-query adds a query to the
// first /ws/app upgrade only (fault=drop-after=40: the reference server
// drops that one connection, where gate's --fault drops every one). It
// prints its URL on stdout once it listens, then serves until killed.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
)

// proxied are the path prefixes that belong to the server.
var proxied = []string{"/health", "/auth/", "/runs", "/ws/"}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "front:", err)
		os.Exit(1)
	}
}

func run() error {
	dist := flag.String("dist", "", "folder of the built web app")
	upstream := flag.String("upstream", "", "the hostd server's base URL (http:// or ws://)")
	listen := flag.String("listen", "127.0.0.1:0", "address to serve on")
	firstQuery := flag.String("first-ws-query", "", "query added to the first /ws/app upgrade, e.g. fault=drop-after=40")
	flag.Parse()
	if *dist == "" || *upstream == "" {
		return errors.New("need -dist and -upstream")
	}
	h, err := handler(*dist, *upstream, *firstQuery)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	fmt.Printf("http://%s/\n", ln.Addr())
	return http.Serve(ln, h)
}

// handler routes the server's paths to upstream and the rest to dist.
func handler(dist, upstream, firstQuery string) (http.Handler, error) {
	up, err := url.Parse(strings.Replace(strings.Replace(upstream, "ws://", "http://", 1), "wss://", "https://", 1))
	if err != nil || up.Host == "" {
		return nil, fmt.Errorf("bad -upstream %q", upstream)
	}
	up.Path = strings.TrimSuffix(up.Path, "/")
	var first atomic.Bool
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(up)
			r.Out.Host = r.In.Host // keep the browser's Host: its Origin matches it
			if firstQuery != "" && r.In.URL.Path == "/ws/app" && first.CompareAndSwap(false, true) {
				r.Out.URL.RawQuery += "&" + firstQuery
			}
		},
		ErrorLog: log.New(os.Stderr, "front: ", 0),
	}
	files := http.FileServer(http.Dir(dist))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, p := range proxied {
			if r.URL.Path == strings.TrimSuffix(p, "/") || strings.HasPrefix(r.URL.Path, p) {
				rp.ServeHTTP(w, r)
				return
			}
		}
		files.ServeHTTP(w, r)
	}), nil
}
