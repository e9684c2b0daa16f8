package redact

import (
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
)

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		query, header, member bool
	}{
		{"token", true, true, true},
		{"TOKEN", true, true, true},
		{"access_token", true, true, true},
		{"accessToken", true, true, true},
		{"host_token", true, true, true},
		{"hostToken", true, true, true},
		{"session_token", true, true, true},
		{"refresh_token", true, true, true},
		{"api_key", true, true, true},
		{"apiKey", true, true, true},
		{"APIKey", true, true, true},
		{"apikey", true, true, true},
		{"X-Api-Key", true, true, true},
		{"x-api-key", true, true, true},
		{"privateKey", true, true, true},
		{"provider_key", true, true, true},
		{"password", true, true, true},
		{"Password", true, true, true},
		{"db_password", true, true, true},
		{"secret", true, true, true},
		{"client_secret", true, true, true},
		{"clientSecret", true, true, true},
		{"auth", true, true, true},
		{"Authorization", true, true, true},
		{"Proxy-Authorization", true, true, true},
		{"Cookie", true, true, true},
		{"Set-Cookie", true, true, true},
		{"X-Auth-Token", true, true, true},
		{"X-Amz-Signature", true, true, true},
		{"WSCONFORM_HOST_TOKEN", true, true, true},
		{"key", true, true, false},
		{"sig", true, true, false},
		// not credentials
		{"tool_key", false, false, false},
		{"toolKey", false, false, false},
		{"idempotency_key", false, false, false},
		{"Sec-WebSocket-Key", false, false, false},
		{"inputTokens", false, false, false},
		{"outputTokens", false, false, false},
		{"max_tokens", false, false, false},
		{"tokens_used", false, false, false},
		{"token_type", false, false, false},
		{"authorized", false, false, false},
		{"provider_auth_result", false, false, false},
		{"type", false, false, false},
		{"session_id", false, false, false},
		{"sessionId", false, false, false},
		{"resumeSessionId", false, false, false},
		{"keyboard", false, false, false},
		{"monkey", false, false, false},
		{"", false, false, false},
		{"_", false, false, false},
	} {
		if got := QueryName(tc.name); got != tc.query {
			t.Errorf("QueryName(%q) = %v, want %v", tc.name, got, tc.query)
		}
		if got := HeaderName(tc.name); got != tc.header {
			t.Errorf("HeaderName(%q) = %v, want %v", tc.name, got, tc.header)
		}
		if got := MemberName(tc.name); got != tc.member {
			t.Errorf("MemberName(%q) = %v, want %v", tc.name, got, tc.member)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"apiKey": "api_key", "APIKey": "api_key", "X-Api-Key": "x_api_key", "API_KEY": "api_key",
		"__a__b__": "a_b", "hostToken2": "host_token2", "v2Token": "v2_token", "a.b c": "a_b_c",
	} {
		if got := string(normalize(in, nil)); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDialectMembersAreNotSecrets: the members that carry a frame's type
// and order are never redacted, so a redacted recording is judged like the
// original.
func TestDialectMembersAreNotSecrets(t *testing.T) {
	for _, name := range dialect.Names() {
		d, err := dialect.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{d.TypeField}
		names = append(names, strings.Split(d.Ordering.Pointer, "/")...)
		for _, n := range names {
			if n != "" && MemberName(n) {
				t.Errorf("%s: %q is a credential name", name, n)
			}
		}
	}
}
