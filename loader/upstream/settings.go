package upstream

import (
	"path"
	"time"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// DefaultTimeout bounds a call when Settings.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// Settings are toolsearch's own settings for one upstream server (from
// toolsearch.yaml; how to start the server comes from .mcp.json). Globs use
// path.Match syntax and match the tool's own name at its server.
type Settings struct {
	// Disabled servers are never started. Their last known tools stay in the
	// catalog, marked disabled, and calls to them are refused.
	Disabled bool
	// Timeout bounds each call; zero means DefaultTimeout.
	Timeout time.Duration
	// ConnectWait is how long a call waits for the server while it is
	// connecting or re-listing its tools, within Timeout; zero means
	// Options.ConnectWait.
	ConnectWait time.Duration
	// AlwaysLoad globs select tools that are listed directly with their
	// schema instead of waiting to be found.
	AlwaysLoad []string
	// Policy maps globs to what the model may do with matching tools. When
	// several match, the most specific wins: the tool's exact name, then
	// the longest pattern, then the pattern that sorts first. Tools that
	// match nothing are callable.
	Policy map[string]catalog.Policy
	// Quarantine says which definitions wait for approval (package
	// loader/trust); "" means trust.DefaultMode.
	Quarantine trust.Mode
	// MaxConcurrent caps the calls to the server's tools running at once;
	// zero means no cap. A call beyond it waits for one to end, up to
	// QueueWait and within its timeout, then is refused (a *BusyError).
	MaxConcurrent int
	// QueueWait bounds that wait; zero means DefaultQueueWait.
	QueueWait time.Duration
	// OAuth configures logging in to an HTTP or SSE server that requires
	// OAuth.
	OAuth oauth.Settings
}

func (s *Settings) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

// policy returns the policy for a tool by its own name.
func (s *Settings) policy(tool string) catalog.Policy {
	if p, ok := s.Policy[tool]; ok {
		return p
	}
	best, found := "", false
	for pattern := range s.Policy {
		if !match(pattern, tool) {
			continue
		}
		if !found || len(pattern) > len(best) || (len(pattern) == len(best) && pattern < best) {
			best, found = pattern, true
		}
	}
	if !found {
		return catalog.PolicyCallable
	}
	return s.Policy[best]
}

func (s *Settings) alwaysLoad(tool string) bool {
	for _, pattern := range s.AlwaysLoad {
		if match(pattern, tool) {
			return true
		}
	}
	return false
}

// match reports whether a glob matches; a malformed glob matches nothing
// (the settings parser reports it).
func match(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return ok && err == nil
}
