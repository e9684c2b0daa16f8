// Package validate is the offline feeder of the check engine: it reads
// recordings and HAR files, groups their connections into logical
// sessions, and runs every frame through a check.Session in order.
//
// The grouping (Grouper) is shared with the live proxy (internal/proxy),
// which feeds it frames as they pass: a connection whose session the proxy
// learned only from its traffic is "pending" until a session line binds
// it, and judging a proxy's recording offline gives the findings the proxy
// gave live.
//
// A JSONL recording is read twice: a first pass (prescan.go) finds the
// connections the recorder marked unjudged, which are never judged and
// are listed in Result.Notes, and the connections the dialect's
// sessionizer ties to an earlier one that an older recorder filed in
// another session, which are judged in the session they continue.
package validate
