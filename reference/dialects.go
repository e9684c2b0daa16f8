package reference

import (
	"net/http"

	"github.com/wsconform/wsconform/reference/coworker"
	"github.com/wsconform/wsconform/reference/hostd"
	"github.com/wsconform/wsconform/reference/minicodex"
	"github.com/wsconform/wsconform/reference/mitto"
	"github.com/wsconform/wsconform/reference/myagent"
	"github.com/wsconform/wsconform/reference/server"
)

// impl is one dialect's reference server.
type impl struct {
	// new builds the dialect's handler; it serves the dialect's paths at
	// its root.
	new func(*server.Env) http.Handler
	// mutations are the spec violations the dialect can commit on request.
	mutations []server.Mutation
}

// impls has one entry per dialect of internal/dialect's list; a test keeps
// the two in step.
var impls = map[string]impl{
	"minicodex": {minicodex.New, minicodex.Mutations},
	"hostd":     {hostd.New, hostd.Mutations},
	"myagent":   {myagent.New, myagent.Mutations},
	"mitto":     {mitto.New, mitto.Mutations},
	"coworker":  {coworker.New, coworker.Mutations},
}
