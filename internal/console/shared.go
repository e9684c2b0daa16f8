package console

import (
	"io"
	"os"
	"sync"
)

// Shared makes w safe to write from several goroutines (a live log
// beside a command's own output), serialised by mu, which writers that
// must not interleave share. A file is returned as it is: the kernel
// orders its writes, and the Printer still sees a terminal for its color
// detection.
func Shared(w io.Writer, mu *sync.Mutex) io.Writer {
	if _, ok := w.(*os.File); ok || w == nil {
		return w
	}
	return lockedWriter{mu: mu, w: w}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
