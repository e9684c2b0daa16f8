package web

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"

	"github.com/wsconform/wsconform/reports"
)

// The page is one template with its style sheet and script inlined (the
// report's own, then the page's): no CDN, nothing fetched but the event
// stream and the downloads.
var (
	//go:embed assets/index.html.tmpl
	pageHTML string
	//go:embed assets/live.css
	pageCSS string
	//go:embed assets/live.js
	pageJS string
)

var pageTmpl = template.Must(template.New("page").Parse(pageHTML))

// pageData is what the template renders.
type pageData struct {
	Title  string
	CSS    template.CSS
	JS     template.JS
	Config template.JS
}

// pageConfig is what the script needs before the stream opens.
type pageConfig struct {
	Window  int  `json:"window"`
	HAR     bool `json:"har"`
	Replays bool `json:"replays"`
}

// csp keeps the page to itself: inline style and script (its own), the
// event stream and downloads from its origin, nothing from elsewhere.
const csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	cfg, _ := json.Marshal(pageConfig{Window: s.cfg.Window, HAR: s.harAvailable(), Replays: s.cfg.Replays})
	d := pageData{Title: s.cfg.Title, CSS: template.CSS(reports.CSS() + "\n" + pageCSS),
		JS: template.JS(reports.ReplayJS() + "\n" + pageJS), Config: template.JS(cfg)}
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, d); err != nil {
		http.Error(w, "wsproxy web view: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", csp)
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	_, _ = w.Write(b.Bytes())
}
