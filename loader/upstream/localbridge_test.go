package upstream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/problem"
)

// TestLoadConfigLocalBridge: an http entry the operator marks "bridge":
// true reaches a toolsearch bridge of a local program and is not remote;
// nothing but that key makes it so, and a wrong value is reported where
// it is.
func TestLoadConfigLocalBridge(t *testing.T) {
	for _, tc := range []struct {
		name, entry string
		loads       bool
		remote      bool
		problem     string // part of the entry's one problem, "" for none
		severity    problem.Severity
	}{
		{"an http entry marked", `{"type": "http", "url": "http://bridge.internal:7778/mcp", "bridge": true}`, true, false, "toolsearch bridge of a local program", problem.SeverityHint},
		{"an sse entry marked", `{"type": "sse", "url": "http://127.0.0.1:7778/sse", "bridge": true}`, true, false, "toolsearch bridge of a local program", problem.SeverityHint},
		{"an http entry not marked", `{"type": "http", "url": "http://127.0.0.1:7778/mcp"}`, true, true, "", 0},
		{"marked false", `{"type": "http", "url": "http://127.0.0.1:7778/mcp", "bridge": false}`, true, true, "", 0},
		{"a stdio entry marked", `{"command": "weather", "bridge": true}`, true, false, "ignored", problem.SeverityWarning},
		{"not a boolean", `{"type": "http", "url": "http://127.0.0.1:7778/mcp", "bridge": "yes"}`, false, false, `mcpServers.s.bridge: want true or false, got string`, problem.SeverityError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".mcp.json")
			if err := os.WriteFile(path, []byte(`{"mcpServers": {"s": `+tc.entry+`}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			servers, probs, err := LoadConfig(path)
			if err != nil {
				t.Fatal(err)
			}
			if (len(servers) == 1) != tc.loads {
				t.Fatalf("loaded %d servers, want loads=%v (problems %v)", len(servers), tc.loads, probs)
			}
			if tc.loads && servers[0].Remote() != tc.remote {
				t.Errorf("Remote() = %v, want %v", servers[0].Remote(), tc.remote)
			}
			if tc.problem == "" {
				if len(probs) != 0 {
					t.Errorf("problems %v, want none", probs)
				}
				return
			}
			if len(probs) != 1 || !strings.Contains(probs[0].Message, tc.problem) || probs[0].Severity != tc.severity {
				t.Errorf("problems %v, want one of severity %v saying %q", probs, tc.severity, tc.problem)
			}
		})
	}
}
