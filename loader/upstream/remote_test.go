package upstream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// TestBridgedFirstListingWaits: a stdio entry that bridges to a remote
// server (npx -y mcp-remote URL, what init --from claude-desktop imports)
// is held as the remote server it is: its first listing waits for a
// person, so its own readOnlyHint opens no auto-approved proxy before
// then. It counted as stdio, and its first listing was trusted.
func TestBridgedFirstListingWaits(t *testing.T) {
	defer func(m trust.Mode) { remoteMode = m }(remoteMode)
	remoteMode = trust.DefaultRemoteMode
	for _, tc := range []struct {
		name    string
		command string
		args    []string
		mode    trust.Mode
		held    bool
	}{
		{"mcp-remote", "npx", []string{"-y", "mcp-remote", "https://calc.example/mcp"}, "", true},
		{"supergateway", "npx", []string{"-y", "supergateway", "--sse", "https://calc.example/sse"}, "", true},
		{"uvx mcp-proxy", "uvx", []string{"mcp-proxy", "https://calc.example/sse"}, "", true},
		{"sh -c naming a URL", "sh", []string{"-c", "exec my-bridge https://calc.example/mcp"}, "", true},
		{"settings choose", "npx", []string{"-y", "mcp-remote", "https://calc.example/mcp"}, trust.ModeChanged, false},
		{"a local server", "npx", []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.opts.Settings["calc"] = Settings{Quarantine: tc.mode}
			f := e.add("calc", nil)
			f.setTool("add", "Adds two numbers.", "a", "b")
			e.startWith(ServerConfig{Name: "calc", Type: TypeStdio, Command: tc.command, Args: tc.args})
			src := waitSource(t, e.catalog, "calc", "listed", held("calc__add", tc.held))
			if tc.held && entry(src, "calc__add").Quarantine.Reason != trust.ReasonUnapproved {
				t.Errorf("reason %q", entry(src, "calc__add").Quarantine.Reason)
			}
		})
	}
}

// TestLoadConfigNotesBridges: a bridged entry loads as stdio, and says
// (on its catalog source) that it counts as remote, and why, without the
// secrets of its URL.
func TestLoadConfigNotesBridges(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {
		"bridged": {"command": "npx", "args": ["-y", "mcp-remote", "https://calc.example/mcp?key=sk-secret"]},
		"local": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	servers, _, err := LoadConfig(path)
	if err != nil || len(servers) != 2 {
		t.Fatalf("LoadConfig: %v, %v", servers, err)
	}
	bridged, local := servers[0], servers[1]
	if !bridged.Remote() || local.Remote() {
		t.Errorf("Remote: bridged %v, local %v; want true, false", bridged.Remote(), local.Remote())
	}
	if len(bridged.Problems) != 1 || bridged.Problems[0].Severity != problem.SeverityHint ||
		!strings.Contains(bridged.Problems[0].Message, "mcp-remote") || strings.Contains(bridged.Problems[0].Message, "sk-secret") {
		t.Errorf("bridged entry's problems %v, want one hint naming mcp-remote without the URL's key", bridged.Problems)
	}
	if len(local.Problems) != 0 {
		t.Errorf("local entry's problems %v", local.Problems)
	}
}
