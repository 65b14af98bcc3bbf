//go:build unix

package main

import (
	"errors"
	"testing"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
)

// TestConfigFilesRefuseSpecialFiles: toolsearch.yaml or a token file
// swapped for a link to /dev/zero or a FIFO is an error naming the file,
// not endless memory or a hang.
func TestConfigFilesRefuseSpecialFiles(t *testing.T) {
	for _, file := range atomicfiletest.SpecialFiles(t) {
		var nr *atomicfile.NotRegularError
		for _, explicit := range []bool{true, false} {
			if _, err := loadConfig(file, explicit); !errors.As(err, &nr) {
				t.Errorf("loadConfig(%s, %v): %v, want a *NotRegularError", file, explicit, err)
			}
		}
		if _, err := readTokenFile(file); !errors.As(err, &nr) {
			t.Errorf("readTokenFile(%s): %v, want a *NotRegularError", file, err)
		}
	}
}
