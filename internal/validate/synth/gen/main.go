// Command gen writes a large conforming myagent recording to stdout, for
// timing `wsconform validate` (see README, Performance):
//
//	go run ./internal/validate/synth/gen -frames 1000000 > /tmp/1m.jsonl
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/wsconform/wsconform/internal/validate/synth"
)

func main() {
	var o synth.Options
	flag.IntVar(&o.Frames, "frames", 1000000, "frame lines to write")
	flag.IntVar(&o.Conns, "conns", 8, "connections (one session each), interleaved")
	flag.IntVar(&o.Text, "text", 40, "characters of content per event")
	flag.Parse()
	if err := synth.Write(os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
