package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

func TestReloadKeepsTheRunningConfigurationOnBrokenEdits(t *testing.T) {
	dir := t.TempDir()
	mcpPath := filepath.Join(dir, ".mcp.json")
	yamlPath := filepath.Join(dir, "toolsearch.yaml")
	write := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The servers never start (no such command): only the configuration
	// matters here.
	write(mcpPath, `{"mcpServers": {"a": {"command": "/nonexistent/a"}, "b": {"command": "/nonexistent/b"}}}`)
	write(yamlPath, "listingBudget: 300\n")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	sf := &sourceFlags{config: yamlPath, mcpConfig: mcpPath, follow: true, skills: stringList{t.TempDir()}}
	a, err := openApp(sf)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close(context.Background())
	a.startUpstreams()
	servers := func() []string {
		var names []string
		for _, src := range a.catalog.Snapshot().Sources {
			if src.Kind == catalog.SourceServer {
				names = append(names, src.Name)
			}
		}
		slices.Sort(names)
		return names
	}
	configProblems := func() string {
		src, ok := a.catalog.Snapshot().Source(configSource)
		if !ok {
			return ""
		}
		var msgs []string
		for _, p := range src.Problems {
			msgs = append(msgs, p.Message)
		}
		return strings.Join(msgs, "\n")
	}
	cfg := a.cfg

	steps := []struct {
		name         string
		mcp, yaml    string
		wantServers  []string
		wantProblems string // in the configuration source; "" for none
	}{
		{name: "invalid JSON", mcp: `{"mcpServers": {`, wantServers: []string{"a", "b"}, wantProblems: "invalid JSON"},
		{name: "one broken entry", mcp: `{"mcpServers": {"a": {"command": 5}, "b": {"command": "/nonexistent/b"}, "c": {"command": "/nonexistent/c"}}}`,
			wantServers: []string{"a", "b", "c"}, wantProblems: "mcpServers.a: the entry is broken; the server keeps running"},
		{name: "fixed, and b removed", mcp: `{"mcpServers": {"a": {"command": "/nonexistent/a"}, "c": {"command": "/nonexistent/c"}}}`,
			wantServers: []string{"a", "c"}},
		{name: "broken YAML", yaml: "listingBudget: [\n", wantServers: []string{"a", "c"}, wantProblems: "the configuration read before stays in force"},
		{name: "a policy that is no policy", yaml: "servers:\n  a:\n    policy:\n      x: maybe\n", wantServers: []string{"a", "c"}, wantProblems: "unknown policy"},
		{name: "all well again", yaml: "listingBudget: 300\n", wantServers: []string{"a", "c"}},
	}
	for _, st := range steps {
		if st.mcp != "" {
			write(mcpPath, st.mcp)
		}
		if st.yaml != "" {
			write(yamlPath, st.yaml)
		}
		cfg = a.reload(sf, cfg)
		if got := servers(); !slices.Equal(got, st.wantServers) {
			t.Errorf("%s: servers %v, want %v", st.name, got, st.wantServers)
		}
		got := configProblems()
		if st.wantProblems == "" && got != "" || !strings.Contains(got, st.wantProblems) {
			t.Errorf("%s: configuration problems %q, want %q", st.name, got, st.wantProblems)
		}
	}
}

func TestRestartKeysNameWhatAppliesAtTheNextStart(t *testing.T) {
	budget, other := 300, 500
	prev := &Config{ListingBudget: &budget, MCPConfig: "a.json", Servers: map[string]*ServerSettings{}}
	cur := &Config{ListingBudget: &other, MCPConfig: "b.json", Servers: map[string]*ServerSettings{"x": {Disabled: true}}, Promote: true}
	if got, want := restartKeys(prev, cur), []string{"listingBudget", "promote"}; !slices.Equal(got, want) {
		t.Errorf("restartKeys = %v, want %v", got, want)
	}
}
