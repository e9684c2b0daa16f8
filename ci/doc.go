// Package ci holds wsconform's ready-to-copy CI integration for gating a
// client implementation with `wsconform gate`: ci/gate.sh for any CI, a
// GitHub Actions workflow (ci/github), a GitLab CI job (ci/gitlab), and
// example clients in Node.js and Python (ci/examples), each with a
// well-behaved version that passes the gate and one with a planted protocol
// bug that fails it. See ci/README.md.
//
// The package has no code: its test (ci_test.go) checks that the YAML files
// parse, that the commands and `wsconform gate` flags they use exist, that
// gate.sh and the example clients are syntactically valid, and, end to end,
// that the gate passes the good clients and fails the bad ones with the
// finding that names their bug.
package ci
