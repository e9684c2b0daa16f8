package sessionize

import (
	"fmt"
	"strings"
	"sync"
)

// Spec is a session rule as data: the x-wsconform.session member of an
// AsyncAPI document. Locations are JSON pointers into a frame ("/data/
// session_id"); Shared names one session for every connection, PerConn
// (or an empty Spec) gives each connection a session of its own.
type Spec struct {
	Shared     string   `json:"shared,omitempty"`
	PerConn    bool     `json:"perConnection,omitempty"`
	Query      string   `json:"query,omitempty"`
	Server     []string `json:"server,omitempty"`
	Client     []string `json:"client,omitempty"`
	Resume     string   `json:"resume,omitempty"`
	ResumeAt   []string `json:"resumeAt,omitempty"`
	TypeField  string   `json:"typeField,omitempty"`
	BareResume string   `json:"bareResume,omitempty"`
}

var (
	definedMu sync.RWMutex
	defined   = map[string]sessionRule{}
)

// SpecOf returns the session rule of a dialect as data.
func SpecOf(dialectName string) (Spec, bool) {
	r, ok := ruleOf(dialectName)
	if !ok {
		return Spec{}, false
	}
	return Spec{Shared: r.shared, PerConn: r.perConn, Query: r.query, Server: pointers(r.server),
		Client: pointers(r.client), Resume: r.resume, ResumeAt: pointers(r.resumeAt),
		TypeField: r.typeField, BareResume: r.bareResume}, true
}

// Define gives an imported protocol its session rule. A name of a built-in
// dialect is refused.
func Define(dialectName string, s Spec) error {
	if _, builtin := sessionRules[dialectName]; builtin {
		return fmt.Errorf("dialect %q has a built-in session rule", dialectName)
	}
	r := sessionRule{shared: s.Shared, perConn: s.PerConn, query: s.Query, server: paths(s.Server),
		client: paths(s.Client), resume: s.Resume, resumeAt: paths(s.ResumeAt), typeField: s.TypeField,
		bareResume: s.BareResume}
	if r.shared == "" && r.query == "" && len(r.server) == 0 && len(r.client) == 0 && r.resume == "" {
		r.perConn = true
	}
	definedMu.Lock()
	defined[dialectName] = r
	definedMu.Unlock()
	return nil
}

// ruleOf looks a dialect's rule up among the built-in and defined ones.
func ruleOf(dialectName string) (sessionRule, bool) {
	if r, ok := sessionRules[dialectName]; ok {
		return r, true
	}
	definedMu.RLock()
	defer definedMu.RUnlock()
	r, ok := defined[dialectName]
	return r, ok
}

func pointers(ps [][]string) []string {
	var out []string
	for _, p := range ps {
		out = append(out, "/"+strings.Join(p, "/"))
	}
	return out
}

func paths(ps []string) [][]string {
	var out [][]string
	for _, p := range ps {
		p = strings.TrimPrefix(p, "/")
		if p == "" {
			continue
		}
		out = append(out, strings.Split(p, "/"))
	}
	return out
}
