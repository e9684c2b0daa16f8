package redact

import "testing"

func TestIsMarker(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"«redacted: 32 chars»": true, "«redacted: 1 char»": true, "redacted(7)": true,
		"*****": true, // an older version's mask
		"":      false, "redacted": false, "redacted(x)": false, "sk-abc": false, "a «redacted: 3 chars»": false,
	} {
		if got := IsMarker(s); got != want {
			t.Errorf("IsMarker(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestHasMarker(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"use «redacted: 40 chars» now": true, "«redacted: 1 char»": true,
		"«redacted: »": false, "«redacted: 4 bytes»": false, "*****": false, "redacted(7)": false, "": false,
	} {
		if got := HasMarker(s); got != want {
			t.Errorf("HasMarker(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestMatchRedacted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		recorded, text string
		want           bool
	}{
		{"plain", "plain", true},
		{"plain", "other", false},
		{"use «redacted: 40 chars» now", "use " + ghp + " now", true},
		{"use «redacted: 40 chars» now", "use  now", false}, // a marker stands for something
		{"use «redacted: 40 chars» now", "used " + ghp + " now", false},
		{"use «redacted: 40 chars» now", "use " + ghp + " later", false},
		{"«redacted: 3 chars»", "abc", true},
		{`{"k":"«redacted: 3 chars»","j":"«redacted: 3 chars»"}`, `{"k":"abc","j":"def"}`, true},
		{`{"k":"«redacted: 3 chars»","j":"«redacted: 3 chars»"}`, `{"k":"abc","x":"def"}`, false},
		{"a«redacted: 1 char»b«redacted: 1 char»c", "axbyc", true},
		{"a«redacted: 1 char»b«redacted: 1 char»c", "abc", false},
		{"a«redacted: 1 char»b«redacted: 1 char»c", "abbbc", true},
	} {
		if got := MatchRedacted(tc.recorded, tc.text); got != tc.want {
			t.Errorf("MatchRedacted(%q, %q) = %v, want %v", tc.recorded, tc.text, got, tc.want)
		}
	}
}
