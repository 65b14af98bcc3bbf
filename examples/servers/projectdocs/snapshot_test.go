package main

import (
	"context"
	"testing"

	"github.com/toolsearch/toolsearch/internal/snapshot"
)

// TestToolSnapshots keeps each tool as clients list it in a reviewed file
// (testdata/snapshots); UPDATE_SNAPSHOTS=1 go test rewrites them.
func TestToolSnapshots(t *testing.T) {
	res, err := connect(t, sampleRoot).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) == 0 {
		t.Fatal("no tools listed")
	}
	for _, tool := range res.Tools {
		snapshot.Check(t, "tools/"+tool.Name, tool)
	}
}
