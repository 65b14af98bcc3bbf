package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// stdinIsTerminal reports whether stdin is a console, where a person may
// answer.
func stdinIsTerminal() bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(os.Stdin.Fd()), &mode) == nil
}
