// Package fuzzcorpus reads the inputs kept in Go fuzz corpora
// (testdata/fuzz/FuzzX/*, "go test fuzz v1" files). Tests that hold one
// implementation to another (the compiled schema validator to
// gojsonschema, the engine's findings to their golden file) feed them
// every payload the fuzzers ever found interesting.
package fuzzcorpus
