package gate

import (
	"strings"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/reference/server"
)

// DefaultEnvVar names the variable that carries the main endpoint's URL.
const DefaultEnvVar = "WSCONFORM_URL"

// Env is the environment a client command gets: the proxy's URLs and, for
// hostd, the reference server's demo credentials.
//
//	WSCONFORM_URL        ws://127.0.0.1:PORT/ws (hostd: …/ws/app); renamed by --env-var
//	WSCONFORM_BASE_URL   ws://127.0.0.1:PORT
//	WSCONFORM_HTTP_URL   http://127.0.0.1:PORT
//	WSCONFORM_DIALECT    the dialect
//	hostd: WSCONFORM_APP_URL, WSCONFORM_HOST_URL, WSCONFORM_USER,
//	       WSCONFORM_PASSWORD, WSCONFORM_HOST_TOKEN
func Env(d *dialect.Dialect, base, urlVar string) []string {
	return EnvPath(d, base, d.Paths[0], urlVar)
}

// EnvPath is Env with another main endpoint path (gate --replay: the
// recording's first connection's path).
func EnvPath(d *dialect.Dialect, base, path, urlVar string) []string {
	if urlVar == "" {
		urlVar = DefaultEnvVar
	}
	httpURL := "http" + strings.TrimPrefix(base, "ws")
	env := []string{
		urlVar + "=" + base + path,
		"WSCONFORM_BASE_URL=" + base,
		"WSCONFORM_HTTP_URL=" + httpURL,
		"WSCONFORM_DIALECT=" + d.Dialect,
	}
	if d.Base() == "hostd" {
		a := server.DefaultAuth
		env = append(env,
			"WSCONFORM_APP_URL="+base+"/ws/app",
			"WSCONFORM_HOST_URL="+base+"/ws/host",
			"WSCONFORM_USER="+a.User,
			"WSCONFORM_PASSWORD="+a.Password,
			"WSCONFORM_HOST_TOKEN="+a.HostToken)
	}
	return env
}
