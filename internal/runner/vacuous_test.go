package runner

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/features"
)

// refusalStep finds a step that expects a refusal: an error message of
// any dialect ("error", "system.error", "error.validation", …), an HTTP
// 4xx, a refused handshake.
var refusalStep = regexp.MustCompile(`receives (?:an? )?"[a-z_.|]*error[a-z_.|]*"|HTTP status is 4|is rejected`)

// refusalProof finds what shows that a refusal is about the thing tested:
// its words, a code the spec lists, an exact status, a close code.
var refusalProof = regexp.MustCompile(`the refusal names|"code"|"error_code"|its "[a-z_.]*code"|HTTP status is 4\d\d|is rejected with`)

// TestNoVacuousRefusal keeps issue 24's audit in step: every embedded
// scenario that expects a refusal proves it is a refusal of the thing
// tested (refusalProof), or says in its description how it does
// otherwise: "Control:" (a control step shows the server accepts the same
// thing done right, so the refusal is about the difference) or "Not a
// refusal" (an error event that reports the agent's own failure, not a
// refusal of what the client sent).
func TestNoVacuousRefusal(t *testing.T) {
	t.Parallel()
	files, err := fs.Glob(features.FS, "*/*.feature")
	if err != nil || len(files) == 0 {
		t.Fatalf("no features: %v", err)
	}
	scenario := regexp.MustCompile(`(?m)^  @id:(\S+)`)
	checked := 0
	for _, f := range files {
		b, err := fs.ReadFile(features.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		idx := scenario.FindAllStringSubmatchIndex(text, -1)
		for i, m := range idx {
			end := len(text)
			if i+1 < len(idx) {
				end = idx[i+1][0]
			}
			body, id := text[m[0]:end], text[m[2]:m[3]]
			if !refusalStep.MatchString(body) {
				continue
			}
			checked++
			if refusalProof.MatchString(body) || strings.Contains(body, "Control:") || strings.Contains(body, "Not a refusal") {
				continue
			}
			t.Errorf("%s: %s expects a refusal but never shows it is about the thing tested: add `the refusal names …`, check the code the spec lists, or a control (say \"Control:\" in the description)", path.Base(f), id)
		}
	}
	if checked < 50 {
		t.Fatalf("only %d scenarios expect a refusal: the patterns no longer match the features", checked)
	}
}
