package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/server"
)

// TestStatusMeasuresOneAtATime changes the catalog twenty times while the
// page keeps asking for figures and every measurement takes long: one
// measurement runs at a time, a newer catalog cancels the one running, and
// the figures shown in the end are the latest catalog's.
func TestStatusMeasuresOneAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		catalog := testCatalog(t)
		s, _ := server.New(catalog, server.Options{})
		defer s.Close()
		v := newStatusView(s, nil)
		defer v.close()
		var running, peak, finished atomic.Int32
		release := make(chan struct{})
		v.measure = func(ctx context.Context, snap *loader.Snapshot) (*server.Report, error) {
			n := running.Add(1)
			defer running.Add(-1)
			if n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-release:
				finished.Add(1)
				return &server.Report{Queries: int(snap.Version)}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		for i := range 20 {
			tool := &mcp.Tool{Name: "t", Description: fmt.Sprintf("Version %d.", i), InputSchema: json.RawMessage(`{"type":"object"}`)}
			catalog.Put(&loader.Source{Name: "more", Kind: loader.SourceTools, Entries: []*loader.Entry{loader.NewToolEntry("more", "more__t", tool)}})
			v.tokens()
			synctest.Wait()
		}
		if p := peak.Load(); p != 1 {
			t.Errorf("%d measurements ran at once, want 1", p)
		}
		close(release)
		synctest.Wait()
		rep := v.tokens()
		if want := int(s.Snapshot().Version); rep == nil || rep.Queries != want {
			t.Errorf("figures shown are of version %v, want the latest, %d", rep, want)
		}
		if n := finished.Load(); n != 1 {
			t.Errorf("%d measurements ran to the end, want only the latest", n)
		}
	})
}

func TestFilterEntries(t *testing.T) {
	entries := []EntryReport{
		{Name: "srv__echo", Source: "srv", Summary: "Echo a message back."},
		{Name: "static_tool", Source: "Dump", Summary: "A static tool."},
		{Name: "pdf", Source: "skills", Summary: "Fill PDF forms."},
	}
	tests := []struct{ q, want string }{
		{"ECHO", "srv__echo"},          // name, any case
		{"dump", "static_tool"},        // source
		{"pdf FORMS", "pdf"},           // summary
		{"a", "srv__echo static_tool"}, // several
		{"nothing", ""},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range filterEntries(entries, tt.q) {
			got = append(got, e.Name)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("filter %q: %q, want %s", tt.q, got, tt.want)
		}
	}
}

// The status page may be opened with the token in its address: it tells
// the browser never to pass that address on as a referrer.
func TestStatusPageSendsNoReferrer(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{Token: "secret"})
	resp, err := http.Get(url + "/?token=secret")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("GET /: %s, Referrer-Policy %q; want 200 and no-referrer", resp.Status, resp.Header.Get("Referrer-Policy"))
	}
}
