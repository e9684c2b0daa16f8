package runner

import (
	"context"
	"errors"
	"strconv"

	"github.com/cucumber/godog"

	"github.com/wsconform/wsconform/internal/wire"
)

// defaultClient is the name of "the client".
const defaultClient = "A"

func clientName(name string) string {
	if name == "" {
		return defaultClient
	}
	return name
}

// client returns a connected client by name.
func (w *World) client(name string) (*client, error) {
	c, ok := w.clients[clientName(name)]
	if !ok {
		return nil, harnessf("client %q is not connected (a step must connect it first)", clientName(name))
	}
	return c, nil
}

// connect opens a connection for name to path (resolved on the target).
func (w *World) connect(ctx context.Context, name, path string) (*client, error) {
	name = clientName(name)
	if old, ok := w.clients[name]; ok {
		old.drop()
		delete(w.clients, name)
	}
	path, err := expand(path, w.vars)
	if err != nil {
		return nil, err
	}
	url, err := w.ep.ws(path)
	if err != nil {
		return nil, err
	}
	c, _, err := w.dial(ctx, name, url)
	if err != nil {
		return nil, err
	}
	w.clients[name] = c
	w.lastRef[name] = path
	return c, nil
}

// stepConnect connects as a real client of the dialect does: the
// opening follows the handshake.
func stepConnect(ctx context.Context, name, path string) error {
	w := worldOf(ctx)
	c, err := w.connect(ctx, name, path)
	if err != nil {
		return err
	}
	return w.open(ctx, c)
}

func stepReconnect(ctx context.Context, name, path string) error {
	w := worldOf(ctx)
	if path == "" {
		path = w.lastRef[clientName(name)]
	}
	c, err := w.connect(ctx, name, path)
	if err != nil {
		return err
	}
	return w.open(ctx, c)
}

// stepRejected passes when the server refuses the handshake with an HTTP
// error, or accepts it and then closes the connection before the timeout.
func stepRejected(ctx context.Context, name, path, code string) error {
	w := worldOf(ctx)
	c, err := w.connect(ctx, name, path)
	var f *Failure
	if errors.As(err, &f) && f.Actual != "" && f.Expected == "101 Switching Protocols" {
		if code != "" && f.Actual != "HTTP "+code {
			return failf("HTTP "+code, f.Actual, "handshake refused with another status")
		}
		return nil
	}
	if err != nil {
		return err
	}
	_, err = c.waitFor(ctx, w.to.scaled(w.to.Receive), func(message) (bool, bool, error) { return true, false, nil })
	var closed *closedError
	if !errors.As(err, &closed) {
		if errors.Is(err, errTimeout) {
			return failf("the connection refused", "still open after "+w.to.scaled(w.to.Receive).String(), "client %q was accepted", clientName(name))
		}
		return err
	}
	delete(w.clients, clientName(name))
	if code != "" && strconv.Itoa(closed.code) != code {
		return failf("close code "+code, closeText(closed.code, closed.reason), "rejected with another close code")
	}
	return nil
}

func stepDisconnect(ctx context.Context, name string) error {
	w := worldOf(ctx)
	c, err := w.client(name)
	if err != nil {
		return err
	}
	c.closeWith(1000, "")
	delete(w.clients, c.name)
	return nil
}

func stepDrop(ctx context.Context, name string) error {
	w := worldOf(ctx)
	c, err := w.client(name)
	if err != nil {
		return err
	}
	c.drop()
	delete(w.clients, c.name)
	return nil
}

func stepSend(ctx context.Context, name string, doc *godog.DocString) error {
	w := worldOf(ctx)
	text, err := expand(doc.Content, w.vars)
	if err != nil {
		return err
	}
	if _, err := decodeJSON(text); err != nil {
		return err
	}
	return w.send(name, wire.OpText, []byte(text))
}

func stepSendText(ctx context.Context, name string, doc *godog.DocString) error {
	w := worldOf(ctx)
	text, err := expand(doc.Content, w.vars)
	if err != nil {
		return err
	}
	return w.send(name, wire.OpText, []byte(text))
}

func stepSendBinary(ctx context.Context, name, size string) error {
	n, err := sizeArg(size)
	if err != nil {
		return err
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return worldOf(ctx).send(name, wire.OpBinary, b)
}

// stepSendBig sends a JSON string of the given size, to probe a server's
// frame limit.
func stepSendBig(ctx context.Context, name, size string) error {
	n, err := sizeArg(size)
	if err != nil {
		return err
	}
	if n < 2 {
		n = 2
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = 'x'
	}
	b[0], b[n-1] = '"', '"'
	return worldOf(ctx).send(name, wire.OpText, b)
}

const maxSendSize = 256 << 20

func sizeArg(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > maxSendSize {
		return 0, harnessf("size %q: want 0..%d bytes", s, maxSendSize)
	}
	return n, nil
}

func (w *World) send(name string, op wire.Opcode, data []byte) error {
	c, err := w.client(name)
	if err != nil {
		return err
	}
	return c.send(op, data)
}
