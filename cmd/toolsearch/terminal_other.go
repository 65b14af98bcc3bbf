//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos || windows)

package main

// stdinIsTerminal reports false where toolsearch cannot tell: what needs a
// person's confirmation then needs its flag.
func stdinIsTerminal() bool { return false }
