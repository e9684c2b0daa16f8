package proxy

import (
	"fmt"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// The proxy's own findings. They are not check-engine rules (no spec
// requires them): they say what the proxy itself did to a connection or
// could not do, so a reader of the log or the report is never left
// guessing why frames are missing or a connection ended.
var (
	// RuleValidationGap: frames were relayed and recorded but not checked
	// because the validator fell behind.
	RuleValidationGap = check.Rule{ID: "proxy.validation-gap", Severity: check.Warning,
		Spec:    "interpretation: wsproxy's bounded validation queue (--validation-queue), not a spec rule",
		Summary: "Every relayed frame is checked; when the validator falls behind, frames are relayed and recorded but not checked, and the gap is reported."}
	// RuleFrameTooLarge: a peer sent a message over --max-frame.
	RuleFrameTooLarge = check.Rule{ID: "proxy.frame-too-large", Severity: check.Warning,
		Spec:    "interpretation: wsproxy's message size limit (--max-frame), not a spec rule",
		Summary: "A message larger than the proxy's limit is not relayed; the connection is closed with 1009 (message too big) on both legs."}
	// RuleSlowPeer: a peer read so slowly that its relay queue stayed full.
	RuleSlowPeer = check.Rule{ID: "proxy.slow-peer", Severity: check.Warning,
		Spec:    "interpretation: wsproxy's bounded relay queues and write deadline (--write-timeout), not a spec rule",
		Summary: "A peer that does not accept messages within the write timeout is disconnected rather than buffered without bound."}
)

// Rules lists the proxy's own finding rules, for documentation and tests.
func Rules() []check.Rule { return []check.Rule{RuleValidationGap, RuleFrameTooLarge, RuleSlowPeer} }

func gapFinding(conn string, frame int64, n int) check.Finding {
	return check.Finding{Rule: RuleValidationGap.ID, Severity: RuleValidationGap.Severity, Spec: RuleValidationGap.Spec,
		Message: fmt.Sprintf("%d frame(s) on %s were relayed and recorded but not checked: the validator fell behind (queue full); "+
			"findings that depend on them may be missing or spurious; `wsconform validate` of the recording checks every frame", n, conn),
		Expected: "every frame checked", Actual: fmt.Sprintf("%d not checked", n),
		Conn: conn, Frame: frame}
}

func tooLargeFinding(conn string, dir wire.Direction, limit int64) check.Finding {
	return check.Finding{Rule: RuleFrameTooLarge.ID, Severity: RuleFrameTooLarge.Severity, Spec: RuleFrameTooLarge.Spec,
		Message:  fmt.Sprintf("the %s sent a message larger than --max-frame; the connection was closed with 1009", sender(dir)),
		Expected: fmt.Sprintf("at most %d bytes", limit), Actual: "more", Conn: conn, Dir: dir}
}

// slowFinding blames the slow peer: dir is the direction that peer sends,
// so the finding's direction says whom it is about, as for rule findings.
func slowFinding(conn string, dir wire.Direction, why string) check.Finding {
	return check.Finding{Rule: RuleSlowPeer.ID, Severity: RuleSlowPeer.Severity, Spec: RuleSlowPeer.Spec,
		Message:  fmt.Sprintf("the %s did not accept messages in time (%s); the connection was closed", sender(dir), why),
		Expected: "messages accepted within the write timeout", Actual: why, Conn: conn, Dir: dir}
}

func sender(dir wire.Direction) string {
	if dir == wire.ClientToServer {
		return "client"
	}
	return "upstream"
}
