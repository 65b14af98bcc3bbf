package web

import "testing"

func TestOriginAllowed(t *testing.T) {
	tests := []struct {
		origin, host string
		allowed      []string
		want         bool
	}{
		{"http://localhost:3000", "127.0.0.1:7777", nil, true},
		{"http://127.0.0.1:7777", "127.0.0.1:7777", nil, true},
		{"http://[::1]:8080", "127.0.0.1:7777", nil, true},
		{"https://mcp.example.com", "mcp.example.com", nil, true}, // the page the server itself serves
		{"https://app.example.com", "127.0.0.1:7777", []string{"https://app.example.com"}, true},
		{"https://evil.example", "127.0.0.1:7777", []string{"https://app.example.com"}, false},
		{"https://evil.example", "127.0.0.1:7777", []string{"*"}, true},
		{"null", "127.0.0.1:7777", nil, false}, // sandboxed frames and file pages
		{"http://app.example.com.evil.example", "127.0.0.1:7777", []string{"http://app.example.com"}, false},
	}
	for _, tt := range tests {
		if got := originAllowed(tt.origin, tt.host, tt.allowed); got != tt.want {
			t.Errorf("originAllowed(%q, %q, %v) = %v, want %v", tt.origin, tt.host, tt.allowed, got, tt.want)
		}
	}
}
