package gate

import (
	"io"
	"os"
	"sync"
)

// lockedWriter serialises writes to a writer that the command's output
// copiers and the proxy's console share.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// shareWriters makes the command's stdout and stderr and the console safe
// to write from several goroutines. Files are left alone: the kernel
// orders their writes, and the command keeps writing to the terminal
// itself (so its color detection still works).
func shareWriters(opts *Options) {
	var mu sync.Mutex
	wrap := func(w io.Writer) io.Writer {
		if _, ok := w.(*os.File); ok || w == nil {
			return w
		}
		return lockedWriter{mu: &mu, w: w}
	}
	opts.Stdout, opts.Stderr, opts.Console = wrap(opts.Stdout), wrap(opts.Stderr), wrap(opts.Console)
}
