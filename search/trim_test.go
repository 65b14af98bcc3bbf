package search

import (
	"fmt"
	"reflect"
	"testing"
)

// Trim packs the postings into several chunks once they outgrow one; every
// list must stay capped, and answers must not change.
func TestTrimAcrossChunks(t *testing.T) {
	defer func(n int) { trimChunk = n }(trimChunk)
	trimChunk = 1000
	var docs []Document
	for i := range 600 {
		docs = append(docs, Document{
			ID: fmt.Sprintf("tool_%04d", i), Name: fmt.Sprintf("tool_%04d", i), Kind: KindTool,
			Description: fmt.Sprintf("Lists the issues, messages, channels, files and users of project %d in region %d.", i, i%13),
			Params:      []Param{{Name: "project", Description: "The project to read."}, {Name: fmt.Sprintf("limit_%d", i%7), Description: "How many results."}},
		})
	}
	trimmed, plain := NewIndex(), NewIndex()
	trimmed.Add(docs...)
	plain.Add(docs...)
	coded := 0
	for _, ts := range trimmed.terms {
		coded += len(ts.postings)
	}
	if coded <= 2*trimChunk {
		t.Fatalf("%d bytes of postings fill fewer than three chunks of %d", coded, trimChunk)
	}
	trimmed.Trim()
	for _, ts := range trimmed.terms {
		if cap(ts.postings) != len(ts.postings) {
			t.Fatalf("a trimmed list has room to grow into its neighbour: len %d, cap %d", len(ts.postings), cap(ts.postings))
		}
	}
	trimmed.Add(Document{ID: "extra", Name: "extra", Kind: KindTool, Description: "Lists the issues of project 7."})
	plain.Add(Document{ID: "extra", Name: "extra", Kind: KindTool, Description: "Lists the issues of project 7."})
	for _, q := range []string{"issues of project 7", "channels in region 3", "select:tool_0042,extra", "limit"} {
		got, want := trimmed.Search(Query{Text: q}), plain.Search(Query{Text: q})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: trimmed %+v, untrimmed %+v", q, got.Hits, want.Hits)
		}
	}
}
