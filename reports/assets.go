package reports

import _ "embed"

// The report page's style sheet and scripts, exported for pages that show
// the report's pieces outside a report (the live web view of wsproxy), so
// that one place renders them.
var (
	//go:embed json.js
	jsonJS string
	//go:embed replay.js
	replayJS string
)

// CSS is the report page's style sheet: colours (light and dark), wire
// logs, findings and replay diffs (ReplayDiffHTML).
func CSS() string { return htmlCSS }

// ReplayJS is the script a page holding replay diffs (ReplayDiffHTML)
// needs: JSON pretty-printing (window.wscJSON: esc, prettyLines,
// linesHTML) and the pretty-printing of a diff row's payloads when it
// opens (window.wscReplay.pretty(root) does it for rows opened by other
// means). It needs no page data and works on fragments added later.
func ReplayJS() string { return jsonJS + "\n" + replayJS }

// JS is the report page's whole script: ReplayJS, then the page's own,
// which needs the page's embedded data (a WriteHTML page).
func JS() string { return ReplayJS() + "\n" + htmlJS }
