//go:build !linux

package pgtest

import (
	"errors"
	"os"
	"os/exec"
)

// owner: the tests start a server of their own on Linux alone; elsewhere
// TOOLSEARCH_TEST_PG names one.
type owner struct{}

func runAs() (*owner, error) {
	return nil, errors.New("the tests start PostgreSQL themselves on Linux only")
}

func (o *owner) own(string) error { return nil }
func (o *owner) apply(*exec.Cmd)  {}
func interrupt(p *os.Process)     { p.Kill() }
