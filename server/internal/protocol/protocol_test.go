package protocol

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestIsModern(t *testing.T) {
	tests := []struct {
		meta mcp.Meta
		want bool
	}{
		{nil, false},
		{mcp.Meta{}, false},
		{mcp.Meta{mcp.MetaKeyProtocolVersion: "2025-11-25"}, false},
		{mcp.Meta{mcp.MetaKeyProtocolVersion: "2026-07-28"}, true},
		{mcp.Meta{mcp.MetaKeyProtocolVersion: "2027-01-01"}, true},
		{mcp.Meta{mcp.MetaKeyProtocolVersion: 20260728}, false},
	}
	for _, tt := range tests {
		if got := IsModern(nil, tt.meta); got != tt.want {
			t.Errorf("IsModern(%v) = %v, want %v", tt.meta, got, tt.want)
		}
	}
}

func TestIsLegacy(t *testing.T) {
	tests := []struct {
		meta mcp.Meta
		want bool
	}{
		{nil, false}, // neither the session nor the request says
		{mcp.Meta{mcp.MetaKeyProtocolVersion: "2025-06-18"}, true},
		{mcp.Meta{mcp.MetaKeyProtocolVersion: "2025-11-25"}, true},
		{mcp.Meta{mcp.MetaKeyProtocolVersion: "2026-07-28"}, false},
	}
	for _, tt := range tests {
		if got := IsLegacy(nil, tt.meta); got != tt.want {
			t.Errorf("IsLegacy(%v) = %v, want %v", tt.meta, got, tt.want)
		}
	}
}
