package statetest_test

import (
	"path/filepath"
	"testing"

	"github.com/toolsearch/toolsearch/internal/state/statetest"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// TestFiles runs the suite against the files: each process opens the same
// folder, as two toolsearch processes of one user do.
func TestFiles(t *testing.T) {
	statetest.Run(t, func(t *testing.T) statetest.State {
		dir := t.TempDir()
		return func(t *testing.T) statetest.Process {
			grants, err := oauth.NewStore(filepath.Join(dir, "oauth"))
			if err != nil {
				t.Fatal(err)
			}
			return statetest.Process{
				Approvals: trust.FileBackend(filepath.Join(dir, trust.FileName), nil),
				Grants:    grants,
				Catalogs:  upstream.FileCatalogs{Dir: filepath.Join(dir, "upstreams")},
				Logins:    grants.Logins(),
			}
		}
	})
}
