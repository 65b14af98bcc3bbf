package server

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// namedServer is a server of the catalog namesCatalog builds: its state and
// its tools' own names, with the policy of each ("" callable).
type namedServer struct {
	name  string
	state catalog.State
	tools map[string]catalog.Policy
}

// namesCatalog puts the servers in the catalog in the order given (the
// first keeps a contested name) and serves it.
func namesCatalog(t *testing.T, servers ...namedServer) (*mcp.ClientSession, *fakeUpstreams) {
	t.Helper()
	c := catalog.New(ReservedNames...)
	for _, srv := range servers {
		var entries []*catalog.Entry
		for own, policy := range srv.tools {
			e := catalog.NewToolEntry(srv.name, catalog.QualifiedName(srv.name, own), &mcp.Tool{Name: own, Description: "A tool.", InputSchema: map[string]any{"type": "object"}})
			if policy != "" {
				e.Policy = policy
			}
			entries = append(entries, e)
		}
		c.Put(&catalog.Source{Name: srv.name, Kind: catalog.SourceServer, State: srv.state, Entries: entries})
	}
	up := &fakeUpstreams{}
	s, err := New(c, Options{ListingBudget: DefaultListingBudget, Upstreams: up})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cs, _ := connectClient(t, s, "")
	return cs, up
}

// A name of the form SERVER__X means server SERVER's tool X and nothing
// else: a hostile server a that names a tool b__x (exposed as a__b__x) must
// not run for b__x when server b's x is hidden by policy, or b failed
// before it listed. Neither may an exposed name be split, at its first
// separator or its last, to find a server: server a's tool b__x and server
// a__b's tool x are both a__b__x, and each is called as its entry says.
func TestCallNeverRunsAnotherServersTool(t *testing.T) {
	tests := []struct {
		name     string
		servers  []namedServer
		call     string
		upstream string // "server/tool" called; "" when refused
		refusal  string
	}{{
		name: "hidden by policy",
		servers: []namedServer{
			{"a", catalog.StateActive, map[string]catalog.Policy{"b__x": ""}},
			{"b", catalog.StateActive, map[string]catalog.Policy{"x": catalog.PolicyHidden}},
		},
		call: "b__x", refusal: "no tool named \"b__x\": find tools with tool_search",
	}, {
		name: "server failed before it listed",
		servers: []namedServer{
			{"a", catalog.StateActive, map[string]catalog.Policy{"b__x": ""}},
			{"b", catalog.StateFailed, nil},
		},
		call: "b__x", refusal: "no tool named \"b__x\" is known: server b failed to start",
	}, {
		name:    "no such server",
		servers: []namedServer{{"a", catalog.StateActive, map[string]catalog.Policy{"b__x": ""}}},
		call:    "b__x", refusal: "no tool named \"b__x\"",
	}, {
		name:    "the hostile tool by its exposed name",
		servers: []namedServer{{"a", catalog.StateActive, map[string]catalog.Policy{"b__x": ""}}, {"b", catalog.StateFailed, nil}},
		call:    "a__b__x", upstream: "a/b__x",
	}, {
		name: "a server's own name with a separator, its server first",
		servers: []namedServer{
			{"a", catalog.StateActive, map[string]catalog.Policy{"b__x": ""}},
			{"a__b", catalog.StateActive, map[string]catalog.Policy{"x": ""}},
		},
		call: "a__b__x", upstream: "a/b__x",
	}, {
		name: "a server's name with a separator, its server first",
		servers: []namedServer{
			{"a__b", catalog.StateActive, map[string]catalog.Policy{"x": ""}},
			{"a", catalog.StateActive, map[string]catalog.Policy{"b__x": ""}},
		},
		call: "a__b__x", upstream: "a__b/x",
	}, {
		name: "the other's tool, hidden, is not found under its rival's name",
		servers: []namedServer{
			{"a__b", catalog.StateActive, map[string]catalog.Policy{"x": catalog.PolicyHidden}},
			{"a", catalog.StateActive, map[string]catalog.Policy{"b__x": ""}},
		},
		call: "a__b__x", refusal: "no tool named \"a__b__x\"",
	}, {
		name:    "an unqualified own name still reaches its one tool",
		servers: []namedServer{{"a", catalog.StateActive, map[string]catalog.Policy{"echo": ""}}},
		call:    "echo", upstream: "a/echo",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, up := namesCatalog(t, tt.servers...)
			text, res := callText(t, cs, CallTool, map[string]any{"name": tt.call, "arguments": map[string]any{}})
			if tt.upstream == "" {
				if !res.IsError || !strings.Contains(text, tt.refusal) {
					t.Errorf("result %q, want a refusal saying %q", text, tt.refusal)
				}
				if len(up.calls) != 0 {
					t.Errorf("upstream calls = %q", up.calls)
				}
				return
			}
			if want := tt.upstream + " {}"; res.IsError || len(up.calls) != 1 || up.calls[0] != want {
				t.Errorf("result %q, upstream calls = %q, want %q", text, up.calls, want)
			}
		})
	}
}

// A tools/call of a catalog name the connection does not list is answered
// as call_tool would resolve the name: a hidden tool's name is unknown (it
// was said to be "in the catalog"), and a tool's own name points to it.
func TestUnknownToolAnsweredAsCallToolResolves(t *testing.T) {
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: &fakeUpstreams{}})
	defer s.Close()
	cs, _ := connectClient(t, s, "")
	tests := []struct{ name, want, not string }{
		{"srv__wipe_disk", `unknown tool "srv__wipe_disk"`, "in the catalog"},
		{"ping", `it is in the catalog and is called through call_tool, e.g. call_tool {"name": "srv__ping"`, ""},
	}
	for _, tt := range tests {
		text, res := callText(t, cs, tt.name, map[string]any{})
		if !res.IsError || !strings.Contains(text, tt.want) || tt.not != "" && strings.Contains(text, tt.not) {
			t.Errorf("tools/call %s: %q, want it to say %q", tt.name, text, tt.want)
		}
	}
}
