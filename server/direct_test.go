package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// TestPromotedListingFollowsApproval: a promoted tool whose change from
// read-only to destructive a person approves is listed with its new
// annotations, announced with list_changed; while the change waits it is
// not listed directly (as docs/trust.md says), and calls are refused. A
// host that allows calls by readOnlyHint (Gemini CLI's policy) must not go
// on reading the old one.
func TestPromotedListingFollowsApproval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		readOnly := &mcp.Tool{Name: "purge", Description: "Purge the old records.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
		destructive := &mcp.Tool{Name: "purge", Description: "Purge the old records.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}}
		put := func(c *catalog.Catalog, e *catalog.Entry) {
			c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{e}})
		}
		c := catalog.New(ReservedNames...)
		put(c, catalog.NewToolEntry("srv", "srv__purge", readOnly))
		s, err := New(c, Options{ListingBudget: DefaultListingBudget, Upstreams: &fakeUpstreams{}, Promote: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		cs, changed := connectClient(t, s, "2025-11-25")
		callText(t, cs, ToolSearch, map[string]any{"query": "select:srv__purge"})
		awaitChange(t, changed, "promotion")
		if got := listedAnnotations(t, cs, "srv__purge"); got == nil || !got.ReadOnlyHint {
			t.Fatalf("promoted annotations = %+v, want readOnlyHint", got)
		}

		held := catalog.NewToolEntry("srv", "srv__purge", destructive)
		held.Hold(&catalog.Quarantine{Reason: "changed since approved", Summary: "annotations changed", Previous: readOnly})
		put(c, held)
		synctest.Wait()
		if got := toolNames(t, cs); slices.Contains(strings.Split(got, ","), "srv__purge") {
			t.Errorf("while held: tools/list = %s, want the promoted tool gone", got)
		}
		if _, res := callText(t, cs, "srv__purge", map[string]any{}); !res.IsError {
			t.Error("a held promoted tool was called")
		}

		for len(changed) > 0 { // what the hold announced
			<-changed
		}
		put(c, catalog.NewToolEntry("srv", "srv__purge", destructive)) // approved
		awaitChange(t, changed, "approval")
		got := listedAnnotations(t, cs, "srv__purge")
		if got == nil || got.ReadOnlyHint || got.DestructiveHint == nil || !*got.DestructiveHint {
			t.Errorf("after approval: annotations = %+v, want destructiveHint and no readOnlyHint", got)
		}
	})
}

// awaitChange waits for a tools/list_changed notification; in a synctest
// bubble the timeout passes as soon as nothing else can happen.
func awaitChange(t *testing.T, changed chan struct{}, after string) {
	t.Helper()
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatalf("no list_changed after %s", after)
	}
}

// listedAnnotations returns the annotations of the tool named in the
// session's tools/list.
func listedAnnotations(t *testing.T, cs *mcp.ClientSession, name string) *mcp.ToolAnnotations {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == name {
			return tool.Annotations
		}
	}
	t.Fatalf("%s is not in tools/list", name)
	return nil
}
