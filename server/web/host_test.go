package web

import (
	"net"
	"net/http"
	"testing"

	"github.com/toolsearch/toolsearch/server"
)

func TestHostAllowed(t *testing.T) {
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7777}
	lan := &net.TCPAddr{IP: net.IPv4(192, 168, 1, 20), Port: 7777}
	tests := []struct {
		name    string
		local   net.Addr
		host    string
		allowed []string
		want    bool
	}{
		{"loopback by name", loopback, "localhost:7777", nil, true},
		{"loopback by address", loopback, "127.0.0.1:7777", nil, true},
		{"loopback IPv6", loopback, "[::1]:7777", nil, true},
		{"loopback without port", loopback, "localhost", nil, true},
		{"rebinding name on loopback", loopback, "evil.example:7777", nil, false},
		{"a LAN name on loopback", loopback, "192.168.1.20:7777", nil, false},
		{"an allowed name on loopback (a local proxy)", loopback, "mcp.example.com", []string{"mcp.example.com"}, true},
		{"allowed names ignore case and port", loopback, "MCP.Example.com:443", []string{"mcp.example.com"}, true},
		{"any name beyond loopback without a list", lan, "mcp.example.com:7777", nil, true},
		{"a listed name beyond loopback", lan, "mcp.example.com:7777", []string{"mcp.example.com"}, true},
		{"an unlisted name beyond loopback", lan, "evil.example:7777", []string{"mcp.example.com"}, false},
		{"loopback names stay allowed with a list", lan, "localhost:7777", []string{"mcp.example.com"}, true},
		{"unknown local address counts as loopback", nil, "evil.example", nil, false},
		{"empty host", loopback, "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hostAllowed(tt.local, tt.host, tt.allowed); got != tt.want {
				t.Errorf("hostAllowed(%v, %q, %v) = %v, want %v", tt.local, tt.host, tt.allowed, got, tt.want)
			}
		})
	}
}

// TestRebindingHostRefusedEverywhere sends what a DNS rebinding page sends:
// its own name in Host (and as its Origin), to a server bound to loopback.
// Every endpoint but /healthz refuses it, with or without a token set.
func TestRebindingHostRefusedEverywhere(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget})
	defer s.Close()
	for _, token := range []string{"", "secret"} {
		url, _ := startHTTP(t, s, Options{Token: token})
		for _, path := range []string{"/", "/status.json", "/search?q=echo", "/events", "/mcp"} {
			for _, origin := range []string{"", "http://evil.example:7777"} {
				req, _ := http.NewRequest(http.MethodGet, url+path, nil)
				req.Host = "evil.example:7777"
				if origin != "" {
					req.Header.Set("Origin", origin)
				}
				if token != "" {
					req.Header.Set("Authorization", "Bearer "+token)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusForbidden {
					t.Errorf("token %q, GET %s with Host evil.example, Origin %q: status %d, want 403", token, path, origin, resp.StatusCode)
				}
			}
		}
		req, _ := http.NewRequest(http.MethodGet, url+"/healthz", nil)
		req.Host = "evil.example:7777"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("/healthz with a foreign Host: status %d, want 200 (it reveals nothing)", resp.StatusCode)
		}
	}
}
