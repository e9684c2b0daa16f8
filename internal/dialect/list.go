package dialect

// names is the dialect list: adding a dialect means adding its folders
// (schemas/, features/, reference/) and one line here.
var names = []string{
	"minicodex",
	"hostd",
	"myagent",
	"mitto",
	"coworker",
}

// Names returns the known dialects in their canonical order.
func Names() []string { return append([]string(nil), names...) }

// Known reports whether name is a dialect.
func Known(name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return registered(name)
}
