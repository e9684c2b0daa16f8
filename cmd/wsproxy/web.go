package main

import (
	"context"
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
