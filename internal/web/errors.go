package web

import "errors"

// errNoSource: the proxy was not attached (Server.Attach) yet.
var errNoSource = errors.New("the proxy is not attached to the web view yet")
