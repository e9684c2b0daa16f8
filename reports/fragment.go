package reports

import (
	"fmt"
	"io"
)

// FindingHTML writes one finding as the HTML report shows it, with the
// report's own "finding" template, so that a page showing findings outside
// a report (wsproxy --web) renders them in the one place that renders a
// finding. Its id is "<prefix>-x<n>" and its frame links point at
// "#<prefix>-f<frame>"; style it with the report's style sheet.
func FindingHTML(w io.Writer, f Finding, prefix string, n int) error {
	fv := newFindingView(prefix, n, f, nil)
	if err := pageTmpl.ExecuteTemplate(w, "finding", fv); err != nil {
		return fmt.Errorf("failed to render finding %s: %w", f.Rule, err)
	}
	return nil
}
