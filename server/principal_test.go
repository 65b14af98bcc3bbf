package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/principal"
)

type userLoginErr struct{ who string }

func (e userLoginErr) Error() string { return "needs the caller's own login" }
func (e userLoginErr) UserLoginRequired() (string, string, string) {
	return e.who, "no login is stored for " + e.who, "Log in to srv as " + e.who + ": open toolsearch's status page with your own token and press \"Log in\" beside srv."
}

// userLoginUpstreams refuses every call for want of the caller's own
// login, and would run a (shared) login if asked.
type userLoginUpstreams struct{ loginUpstreams }

func (u *userLoginUpstreams) Call(ctx context.Context, _, _ string, _ json.RawMessage) (*mcp.CallToolResult, error) {
	return nil, userLoginErr{principal.From(ctx)}
}

// TestCallNeedsTheCallersOwnLogin: a call refused because the server
// takes each person's own login tells the model, in a sentence, how the
// person logs in; even a session that opens URLs does not start a login,
// which would store the server's shared one.
func TestCallNeedsTheCallersOwnLogin(t *testing.T) {
	up := &userLoginUpstreams{}
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: up})
	defer s.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "test"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	ms := s.NewMCPServer()
	defer s.Release(ms)
	cs := connectTo(t, ms, client, "2025-11-25")
	text, res := callText(t, cs, CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "hi"}})
	if !res.IsError || !strings.HasPrefix(text, "auth_required: server srv takes each person's own login, and operator has none that works (no login is stored for operator), so srv__echo was not called.") ||
		!strings.Contains(text, "Log in to srv as operator") {
		t.Errorf("result %q", text)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc["error"] != "auth_required" || sc["principal"] != "operator" {
		t.Errorf("structured content %v", res.StructuredContent)
	}
	if up.logins != 0 {
		t.Errorf("%d logins started: a person's refusal must not log in to the shared grant", up.logins)
	}
}
