package catalog

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestQualifiedNameAndOwn(t *testing.T) {
	tests := []struct{ ns, own, want string }{
		{"github", "create_issue", "github__create_issue"},
		{"a", "b__x", "a__b__x"},
		{"a__b", "x", "a__b__x"},
		{"", "create_issue", "create_issue"},
	}
	for _, tt := range tests {
		name := QualifiedName(tt.ns, tt.own)
		if name != tt.want {
			t.Errorf("QualifiedName(%q, %q) = %q, want %q", tt.ns, tt.own, name, tt.want)
		}
		e := NewToolEntry(tt.ns, name, &mcp.Tool{Name: tt.own, InputSchema: json.RawMessage(`{"type":"object"}`)})
		if e.Own() != tt.own {
			t.Errorf("%s: Own() = %q, want %q", name, e.Own(), tt.own)
		}
	}
}

// Namespaces never picks a separator: every prefix that names a known
// namespace is one, the longest first.
func TestNamespaces(t *testing.T) {
	known := func(names ...string) func(string) bool {
		return func(ns string) bool { return slices.Contains(names, ns) }
	}
	tests := []struct {
		name  string
		known []string
		want  []string
	}{
		{"a__b__x", []string{"a", "a__b"}, []string{"a__b", "a"}},
		{"a__b__x", []string{"a"}, []string{"a"}},
		{"a__b__x", []string{"a__b"}, []string{"a__b"}},
		{"a__b__x", []string{"b", "a__b__x"}, nil}, // a whole name, or a middle part, is no namespace
		{"a___x", []string{"a", "a_"}, []string{"a_", "a"}},
		{"a__", []string{"a"}, nil}, // nothing after the separator
		{"__x", []string{""}, nil},
		{"create_issue", []string{"create"}, nil},
	}
	for _, tt := range tests {
		if got := Namespaces(tt.name, known(tt.known...)); !slices.Equal(got, tt.want) {
			t.Errorf("Namespaces(%q, %v) = %q, want %q", tt.name, tt.known, got, tt.want)
		}
	}
}

// Resolve gives a name one meaning: its listed entry, or for an unqualified
// name the one listed tool whose own name it is; a qualified name is never
// looked for again as a tool's own name, and a hidden entry's name means
// nothing.
func TestResolve(t *testing.T) {
	tool := func(src, own string, p Policy) *Entry {
		e := NewToolEntry(src, QualifiedName(src, own), &mcp.Tool{Name: own, InputSchema: json.RawMessage(`{"type":"object"}`)})
		e.Policy = p
		return e
	}
	c := New()
	c.Put(&Source{Name: "a", Kind: SourceServer, State: StateActive, Entries: []*Entry{
		tool("a", "b__x", PolicyCallable), tool("a", "echo", PolicyCallable), tool("a", "shared", PolicyCallable),
	}})
	c.Put(&Source{Name: "b", Kind: SourceServer, State: StateActive, Entries: []*Entry{tool("b", "x", PolicyHidden)}})
	c.Put(&Source{Name: "c", Kind: SourceServer, State: StateFailed})
	c.Put(&Source{Name: "d", Kind: SourceServer, State: StateActive, Entries: []*Entry{tool("d", "shared", PolicyCallable)}})
	snap := c.Snapshot()
	names := func(es []*Entry) (out []string) {
		for _, e := range es {
			out = append(out, e.Name)
		}
		return out
	}
	tests := []struct {
		name, entry string
		same        []string
		sources     []string
	}{
		{name: "a__b__x", entry: "a__b__x", sources: []string{"a"}},
		{name: "b__x", sources: []string{"b"}},    // hidden: not a's tool b__x
		{name: "c__b__x", sources: []string{"c"}}, // failed: nothing
		{name: "x"},                      // b's x is hidden
		{name: "echo", entry: "a__echo"}, // an own name
		{name: "Echo", entry: "a__echo"}, // in another case
		{name: "shared", same: []string{"a__shared", "d__shared"}},
		{name: "z__echo"},
	}
	for _, tt := range tests {
		r := snap.Resolve(tt.name)
		got := ""
		if r.Entry != nil {
			got = r.Entry.Name
		}
		var srcs []string
		for _, s := range r.Sources {
			srcs = append(srcs, s.Name)
		}
		if got != tt.entry || !slices.Equal(names(r.SameOwnName), tt.same) || !slices.Equal(srcs, tt.sources) {
			t.Errorf("Resolve(%q) = %q, same own name %q, sources %q; want %q, %q, %q", tt.name, got, names(r.SameOwnName), srcs, tt.entry, tt.same, tt.sources)
		}
	}
}
