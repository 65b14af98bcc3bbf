// Package atomicfiletest makes, for tests, the files that a configuration
// or state file may be swapped for and that atomicfile's bounded reads
// refuse, and the folders that tests of state files write in.
package atomicfiletest

import (
	"os"
	"testing"
)

// TempDir is t.TempDir for the tests that also run as Windows programs under
// Wine (.ci/run): there, Go's os.RemoveAll cannot delete, since Wine does
// not implement FileDispositionInformationEx, and t.TempDir's cleanup would
// fail the test. A folder left behind in the temporary folder harms nothing.
func TempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "toolsearch-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
