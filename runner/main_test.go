package runner

import (
	"os"
	"testing"

	"github.com/toolsearch/toolsearch/internal/supervise"
)

// TestMain lets the test binary serve as the scripts' supervisor, as
// toolsearch's own binary does.
func TestMain(m *testing.M) {
	supervise.Init()
	os.Exit(m.Run())
}
