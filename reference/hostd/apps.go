package hostd

// appIndex holds the app connections by what they asked for, so relaying
// an event costs the apps that want it, not every app: unfiltered apps,
// apps indexed by each run_id they named (run_id=), and apps indexed by
// each host_id they named (host_id=, when they named no run). An app sits
// in one of the three; wants is still checked for apps that named both.
type appIndex struct {
	all    map[*appConn]struct{}
	byRun  map[string]map[*appConn]struct{}
	byHost map[string]map[*appConn]struct{}
}

func newAppIndex() appIndex {
	return appIndex{all: map[*appConn]struct{}{}, byRun: map[string]map[*appConn]struct{}{}, byHost: map[string]map[*appConn]struct{}{}}
}

// keys is where an app is indexed: its runs, else its hosts, else all.
func (x appIndex) keys(a *appConn) (map[string]map[*appConn]struct{}, map[string]bool) {
	switch {
	case a.filter.runs != nil:
		return x.byRun, a.filter.runs
	case a.filter.hosts != nil:
		return x.byHost, a.filter.hosts
	}
	return nil, nil
}

func (x appIndex) add(a *appConn) {
	idx, keys := x.keys(a)
	if idx == nil {
		x.all[a] = struct{}{}
		return
	}
	for k := range keys {
		if idx[k] == nil {
			idx[k] = map[*appConn]struct{}{}
		}
		idx[k][a] = struct{}{}
	}
}

func (x appIndex) remove(a *appConn) {
	idx, keys := x.keys(a)
	if idx == nil {
		delete(x.all, a)
		return
	}
	for k := range keys {
		delete(idx[k], a)
		if len(idx[k]) == 0 {
			delete(idx, k)
		}
	}
}

// each calls f for every app that wants run r.
func (x appIndex) each(r *run, f func(*appConn)) {
	for a := range x.all {
		f(a)
	}
	for a := range x.byRun[r.id] {
		if a.filter.wants(r) {
			f(a)
		}
	}
	for a := range x.byHost[r.hostID] {
		f(a)
	}
}
