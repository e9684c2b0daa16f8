package runner

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
)

// tlsAdvice says what a user can do about a TLS handshake with a wss://
// target (url) that failed with err, or "" when nothing specific helps.
// A server that answers the TLS hello with something that is not TLS
// (plain HTTP, most often) does not speak TLS on that port: the target
// wants ws://, and --insecure, which only skips the certificate check,
// cannot help. A certificate the system does not trust is what --insecure
// is for.
func tlsAdvice(url string, err error) string {
	var rec tls.RecordHeaderError
	if errors.As(err, &rec) {
		return fmt.Sprintf("the target does not speak TLS on this port: use %s", plainURL(url))
	}
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	if errors.As(err, &certErr) || errors.As(err, &unknownAuth) || errors.As(err, &hostErr) {
		return "use --insecure to accept this certificate"
	}
	return ""
}

// plainURL is url with ws:// for wss://.
func plainURL(url string) string {
	if rest, ok := strings.CutPrefix(url, "wss://"); ok {
		return "ws://" + rest
	}
	return "ws://"
}
