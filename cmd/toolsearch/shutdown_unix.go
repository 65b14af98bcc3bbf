//go:build unix

package main

import (
	"os"
	"syscall"
)

// shutdownSignals ask toolsearch to stop gracefully. SIGHUP (the terminal
// it ran in closed) is one: its default action would end toolsearch at
// once, and where no supervisor stops them when it dies (macOS), the
// scripts and servers it started would live on.
var shutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
