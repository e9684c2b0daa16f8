package runner

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/cucumber/godog"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// maxHTTPBody bounds what a scenario reads of an HTTP response.
const maxHTTPBody = 4 << 20

func stepHeader(ctx context.Context, key, value string) error {
	w := worldOf(ctx)
	v, err := expand(value, w.vars)
	if err != nil {
		return err
	}
	w.headers.Set(key, v)
	return nil
}

func stepHTTP(ctx context.Context, method, path string) error {
	return worldOf(ctx).request(ctx, method, path, "")
}

func stepHTTPWith(ctx context.Context, method, path string, doc *godog.DocString) error {
	return worldOf(ctx).request(ctx, method, path, doc.Content)
}

// request sends a plain HTTP request to the target; its JSON body becomes
// what "its" refers to.
func (w *World) request(ctx context.Context, method, path, body string) error {
	path, err := expand(path, w.vars)
	if err != nil {
		return err
	}
	body, err = expand(body, w.vars)
	if err != nil {
		return err
	}
	url, err := w.ep.http(path)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, w.to.scaled(w.to.HTTP))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader([]byte(body)))
	if err != nil {
		return harnessf("%s %s: %v", method, path, err)
	}
	req.Header = w.headers.Clone()
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	client := http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: w.sc.run.opts.Insecure},
		Proxy:           nil,
	}}
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return harnessf("%s %s: target unreachable: %v", method, url, err)
		}
		return failf("an HTTP response", err.Error(), "%s %s failed", method, path)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody))
	if err != nil {
		return failf("a complete HTTP body", err.Error(), "%s %s: reading the body failed", method, path)
	}
	w.status = resp.StatusCode
	w.lastIndex = 0 // an HTTP body is not a frame
	w.last, w.lastDesc = nil, fmt.Sprintf("%s %s (HTTP %d)", method, path, resp.StatusCode)
	if doc, _, err := jsonx.Decode(data, jsonx.DefaultMaxDepth); err == nil {
		w.last = doc
	}
	return nil
}

func stepStatus(ctx context.Context, code string) error {
	w := worldOf(ctx)
	if w.status == 0 {
		return harnessf("no HTTP request was made before")
	}
	if strconv.Itoa(w.status) != code {
		return failf("HTTP "+code, fmt.Sprintf("HTTP %d", w.status), "%s: wrong status", w.lastDesc)
	}
	return nil
}

// stepStatusClass tests the class of a status: specs that name endpoints
// but not their codes (hostd) let a server answer an accepted input 200 or
// 202 and a refused login 401 or 403.
func stepStatusClass(ctx context.Context, class string) error {
	w := worldOf(ctx)
	if w.status == 0 {
		return harnessf("no HTTP request was made before")
	}
	if strconv.Itoa(w.status/100) != class {
		return failf(class+"xx", fmt.Sprintf("HTTP %d", w.status), "%s: wrong status class", w.lastDesc)
	}
	return nil
}
