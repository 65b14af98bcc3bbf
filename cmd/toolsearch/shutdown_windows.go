package main

import (
	"os"
	"syscall"
)

// shutdownSignals ask toolsearch to stop gracefully. Go delivers Ctrl-C and
// Ctrl-Break as os.Interrupt, and the console closing, the user logging
// off and the system shutting down as SIGTERM; after those three Windows
// ends the process within seconds, shorter than the grace, and the job
// objects of scripts and servers end them with it.
var shutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
