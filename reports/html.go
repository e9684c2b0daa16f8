package reports

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"time"
)

//go:embed report.html.tmpl
var htmlTemplate string

var pageTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"dur":   func(d time.Duration) string { return d.Round(time.Millisecond).String() },
	"ts":    func(t time.Time) string { return t.Format("2006-01-02 15:04:05 MST") },
	"clock": func(t time.Time) string { return t.Format("15:04:05.000") },
	"cell": func(r *Report, id, target string) *Scenario {
		for i := range r.Scenarios {
			if r.Scenarios[i].ID == id && r.Scenarios[i].Target == target {
				return &r.Scenarios[i]
			}
		}
		return nil
	},
	"rows":     matrixRows,
	"verdicts": func() []Verdict { return Verdicts },
	"anchor":   func(s Scenario) string { return fmt.Sprintf("s-%s-%s", s.Target, s.ID) },
}).Parse(htmlTemplate))

// matrixRow is one scenario id across targets.
type matrixRow struct{ ID, Name, Dialect, Level string }

func matrixRows(r *Report) []matrixRow {
	seen := map[string]bool{}
	var out []matrixRow
	for _, s := range r.Scenarios {
		if !seen[s.ID] {
			seen[s.ID] = true
			out = append(out, matrixRow{s.ID, s.Name, s.Dialect, s.Level})
		}
	}
	return out
}

// WriteHTML writes the report as one self-contained HTML page: inline CSS
// and script, no network, readable offline and in CI artifact viewers.
func WriteHTML(w io.Writer, r *Report) error {
	if err := pageTmpl.Execute(w, r); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}
