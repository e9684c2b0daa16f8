package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/web"
)

// startWeb listens on o.web for the live view (--web); the proxy is
// attached and the page served once it exists (Listening.Start).
func startWeb(ctx context.Context, o options, args []string) (*web.Listening, error) {
	lv, err := web.Listen(ctx, web.Config{Listen: o.web, AllowHosts: o.allowHosts, AllowRemote: o.webRemote,
		Recording: o.record, KeepSecrets: o.noRedact, Title: "wsproxy → " + o.upstream,
		Command: "wsproxy " + strings.Join(args, " ")})
	if err != nil {
		return nil, harnessErr(fmt.Errorf("--web: %w", err))
	}
	return lv, nil
}

// tempRecording makes the recording --web needs for "Save HAR" when
// there is no --record: a file in the temporary directory, removed on
// exit (removeTempRecording). A session worth keeping is recorded with
// --record FILE, the one way to ask for a recording: a file the user did
// not ask for must not pile up in the temporary directory run after run.
func tempRecording() (string, error) {
	f, err := os.CreateTemp("", "wsproxy-*.jsonl")
	if err != nil {
		return "", harnessErr(fmt.Errorf("create a recording for --web: %w", err))
	}
	name := f.Name()
	f.Close()
	return name, nil
}

// announceTempRecording says where the recording --web made is while
// wsproxy runs, and that it goes on exit.
func announceTempRecording(stderr io.Writer, o options) {
	console.New(stderr, o.color).Dim("recording to %s for the live view's Save HAR; it is removed on exit (--record FILE keeps a recording)\n", o.record)
}

// removeTempRecording removes the recording --web made and says so.
func removeTempRecording(stderr io.Writer, o options) {
	con := console.New(stderr, o.color)
	if err := os.Remove(o.record); err != nil && !errors.Is(err, os.ErrNotExist) {
		con.Warn("warning: could not remove the temporary recording: %v\n", err)
		return
	}
	con.Dim("removed the temporary recording %s (--record FILE keeps a recording)\n", o.record)
}
