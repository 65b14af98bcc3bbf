package main

import (
	"context"
	"testing"

	"github.com/toolsearch/toolsearch/internal/snapshot"
)

// TestToolSnapshots keeps each tool as clients list it in a reviewed file
// (testdata/snapshots); UPDATE_SNAPSHOTS=1 go test rewrites them.
func TestToolSnapshots(t *testing.T) {
	res, err := connect(t).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		snapshot.Check(t, "tools/"+tool.Name, tool)
	}
}
