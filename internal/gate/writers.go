package gate

import (
	"sync"

	"github.com/wsconform/wsconform/internal/console"
)

// shareWriters makes the command's stdout and stderr and the console safe
// to write from several goroutines (console.Shared).
func shareWriters(opts *Options) {
	var mu sync.Mutex
	opts.Stdout, opts.Stderr, opts.Console = console.Shared(opts.Stdout, &mu), console.Shared(opts.Stderr, &mu), console.Shared(opts.Console, &mu)
}
