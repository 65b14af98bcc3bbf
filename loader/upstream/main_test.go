package upstream

import (
	"os"
	"testing"

	"github.com/toolsearch/toolsearch/internal/supervise"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// TestMain lets the test binary serve as the stdio servers' supervisor, as
// toolsearch's own binary does. The tests of transports, logins and
// requests call remote servers' tools without approving them, under the
// stdio default; TestRemoteFirstListingWaits holds the real default.
func TestMain(m *testing.M) {
	supervise.Init()
	remoteMode = trust.DefaultMode
	os.Exit(m.Run())
}
