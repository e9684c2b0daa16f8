package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/web"
)

// liveView is the --web page: its server, listener, and the goroutine
// serving it until stop.
type liveView struct {
	srv    *web.Server
	ln     net.Listener
	url    string
	cancel context.CancelFunc
	done   chan error
}

// startWeb listens on o.web and makes the page's server; the proxy is
// attached and the page served by serve, once the proxy exists.
func startWeb(ctx context.Context, o options, args []string) (*liveView, error) {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", o.web)
	if err != nil {
		return nil, harnessErr(fmt.Errorf("listen on %s for --web: %w", o.web, err))
	}
	cfg := web.Config{Listen: o.web, AllowHosts: o.allowHosts, AllowRemote: o.webRemote, Recording: o.record,
		KeepSecrets: o.noRedact, Title: "wsproxy → " + o.upstream, Command: "wsproxy " + strings.Join(args, " ")}
	srv, err := web.New(cfg)
	if err != nil {
		ln.Close()
		return nil, usageErr("--web: %v", err)
	}
	return &liveView{srv: srv, ln: ln, url: "http://" + ln.Addr().String() + "/"}, nil
}

// serve attaches the proxy and serves the page until stop.
func (lv *liveView) serve(p *proxy.Proxy) {
	lv.srv.Attach(p)
	ctx, cancel := context.WithCancel(context.Background())
	lv.cancel, lv.done = cancel, make(chan error, 1)
	go func() { lv.done <- lv.srv.Serve(ctx, lv.ln) }()
}

// stop ends the page's streams and its server.
func (lv *liveView) stop() {
	if lv == nil {
		return
	}
	if lv.cancel == nil {
		lv.ln.Close()
		return
	}
	lv.cancel()
	<-lv.done
}

// tempRecording makes the recording --web needs for "Save HAR" when
// there is no --record: a file in the temporary directory, kept on exit.
func tempRecording() (string, error) {
	f, err := os.CreateTemp("", "wsproxy-*.jsonl")
	if err != nil {
		return "", harnessErr(fmt.Errorf("create a recording for --web: %w", err))
	}
	name := f.Name()
	f.Close()
	return name, nil
}

// announceTempRecording says where the recording --web made goes.
func announceTempRecording(stderr io.Writer, o options) {
	console.New(stderr, o.color).Dim("recording to %s for the live view's Save HAR (choose the file with --record)\n", o.record)
}
