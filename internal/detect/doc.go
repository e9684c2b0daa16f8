// Package detect guesses the dialect of traffic from what a reader sees
// first: the connection's URL path and the first frames. Every guess comes
// with its reason, because a user must be able to check it.
package detect
