// Package reftest drives a reference dialect server over real loopback
// WebSocket connections in tests: it starts the server, dials gorilla
// clients, feeds every frame either side sends through the check engine,
// and at cleanup fails the test on any error finding (unless the test
// expects them, as mutation tests do) and on any goroutine the server left
// behind.
package reftest
