//go:build !unix

// Command maxrss measures a command's peak RSS on Unix systems only.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "maxrss: peak RSS is measured on Unix systems only")
	os.Exit(2)
}
