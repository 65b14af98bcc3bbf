package bridge

import (
	"maps"
	"strings"
	"testing"
)

// TestOf: the bridges as hosts' configurations start them, what each
// becomes, and the entries that are no bridge.
func TestOf(t *testing.T) {
	const u = "https://mcp.example.com/mcp"
	for _, tc := range []struct {
		name    string
		command string
		args    []string
		env     map[string]string
		bridge  bool
		program string
		url     string
		typ     string // "" when it cannot be converted
		headers map[string]string
		kept    string // part of why not
	}{
		{name: "npx mcp-remote", command: "npx", args: []string{"-y", "mcp-remote", u}, bridge: true, program: "mcp-remote", url: u, typ: "http"},
		{name: "a version and a header", command: "npx", args: []string{"-y", "mcp-remote@0.1.29", u, "--header", "Authorization: Bearer ${TOKEN}"},
			bridge: true, program: "mcp-remote", url: u, typ: "http", headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}},
		{name: "a header from env", command: "npx", args: []string{"mcp-remote", u, "--header", "Authorization:${AUTH_HEADER}"}, env: map[string]string{"AUTH_HEADER": "Bearer ${MY_TOKEN}"},
			bridge: true, program: "mcp-remote", url: u, typ: "http", headers: map[string]string{"Authorization": "Bearer ${MY_TOKEN}"}},
		{name: "/sse, a callback port and --transport", command: "npx", args: []string{"-y", "mcp-remote", "https://x.example/sse", "9696", "--transport", "sse-only", "--debug"},
			bridge: true, program: "mcp-remote", url: "https://x.example/sse", typ: "sse"},
		{name: "Windows cmd /c", command: "cmd", args: []string{"/c", "npx", "-y", "mcp-remote", u}, bridge: true, program: "mcp-remote", url: u, typ: "http"},
		{name: "installed globally", command: `C:\Users\me\AppData\Roaming\npm\mcp-remote.cmd`, args: []string{u}, bridge: true, program: "mcp-remote", url: u, typ: "http"},
		{name: "pnpm dlx", command: "pnpm", args: []string{"dlx", "mcp-remote", u}, bridge: true, program: "mcp-remote", url: u, typ: "http"},
		{name: "static OAuth client", command: "npx", args: []string{"mcp-remote", u, "--static-oauth-client-info", `{"client_id":"x"}`},
			bridge: true, program: "mcp-remote", url: u, kept: "--static-oauth-client-info"},
		{name: "a variable the bridge reads", command: "npx", args: []string{"mcp-remote", u}, env: map[string]string{"NODE_EXTRA_CA_CERTS": "/etc/ca.pem"},
			bridge: true, program: "mcp-remote", url: u, kept: "NODE_EXTRA_CA_CERTS"},
		{name: "no URL", command: "npx", args: []string{"mcp-remote"}, bridge: true, program: "mcp-remote", kept: "no server URL"},
		{name: "supergateway streamable HTTP", command: "npx", args: []string{"-y", "supergateway", "--streamableHttp", u, "--oauth2Bearer", "${TOKEN}"},
			bridge: true, program: "supergateway", url: u, typ: "http", headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}},
		{name: "supergateway SSE", command: "npx", args: []string{"-y", "supergateway", "--sse=https://x.example/sse", "--header", "X-Key: k", "--logLevel", "none"},
			bridge: true, program: "supergateway", url: "https://x.example/sse", typ: "sse", headers: map[string]string{"X-Key": "k"}},
		{name: "supergateway serving a stdio server", command: "npx", args: []string{"-y", "supergateway", "--stdio", "npx server", "--port", "8000"},
			bridge: true, program: "supergateway", kept: "--stdio"},
		{name: "uvx mcp-proxy", command: "uvx", args: []string{"mcp-proxy", "--transport", "streamablehttp", u}, env: map[string]string{"API_ACCESS_TOKEN": "${T}"},
			bridge: true, program: "mcp-proxy", url: u, typ: "http", headers: map[string]string{"Authorization": "Bearer ${T}"}},
		{name: "mcp-proxy with headers", command: "mcp-proxy", args: []string{"--headers", "X-Api-Key", "k", "https://x.example/sse"},
			bridge: true, program: "mcp-proxy", url: "https://x.example/sse", typ: "sse", headers: map[string]string{"X-Api-Key": "k"}},
		{name: "an unknown program naming a URL", command: "node", args: []string{"/opt/proxy.js", "--server=" + u}, bridge: true, url: "--server=" + u, kept: "does not know the program"},
		{name: "sh -c", command: "sh", args: []string{"-c", "exec npx -y mcp-remote " + u}, bridge: true, url: u, kept: "does not know"},
		{name: "a local server", command: "npx", args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/me"}},
		{name: "a database URL", command: "npx", args: []string{"-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/db"}},
		{name: "npx of another package", command: "npx", args: []string{"-y", "mcp-remote-helper-notes", "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, ok := Of(tc.command, tc.args, tc.env)
			if ok != tc.bridge {
				t.Fatalf("Of = %+v, %v; want a bridge: %v", b, ok, tc.bridge)
			}
			if !ok {
				return
			}
			want := tc.url
			if strings.HasPrefix(want, "--server=") {
				want = u
			}
			if b.Program != tc.program || b.URL != want || b.Type != tc.typ {
				t.Errorf("Of = %+v; want program %q, URL %q, type %q", b, tc.program, want, tc.typ)
			}
			if tc.typ != "" && !maps.Equal(b.Headers, tc.headers) && (len(b.Headers) > 0 || len(tc.headers) > 0) {
				t.Errorf("headers %v, want %v", b.Headers, tc.headers)
			}
			if (tc.kept == "") != (b.Kept == "") || !strings.Contains(b.Kept, tc.kept) {
				t.Errorf("kept %q, want one saying %q", b.Kept, tc.kept)
			}
		})
	}
}

// TestNotesKeepSecrets: why a bridge is kept never repeats a header's
// value or an argument that may be a token.
func TestNotesKeepSecrets(t *testing.T) {
	for _, args := range [][]string{
		{"mcp-remote", "https://x.example/mcp", "--header", "Authorization Bearer sk-secret"},
		{"mcp-remote", "https://x.example/mcp", "sk-secret"},
		{"mcp-proxy", "https://x.example/mcp", "sk-secret"},
		{"supergateway", "--sse", "https://x.example/sse", "--apiKey=sk-secret"},
		{"supergateway", "--sse", "https://x.example/sse", "sk-secret"},
	} {
		b, _ := Of("npx", args, nil)
		if b.Kept == "" || strings.Contains(b.Kept, "sk-secret") {
			t.Errorf("%v: kept %q, want a reason without the secret", args, b.Kept)
		}
	}
}
