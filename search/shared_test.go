package search

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func TestSharedParams(t *testing.T) {
	retry := Param{Name: "retry-mode", Description: "Retry strategy: fixed keeps the delay, exponential doubles it each time."}
	own := func(i int) Param { return Param{Name: "name", Description: fmt.Sprintf("The name of thing %d.", i)} }
	tool := func(i int, ps ...Param) Document {
		return Document{ID: fmt.Sprint("t", i), Name: fmt.Sprint("t", i), Kind: KindTool, Params: ps}
	}
	for _, tc := range []struct {
		name     string
		tools    int
		withoutR int // tools without the retry parameter
		cleared  bool
	}{
		{"every tool of a server", 10, 0, true},
		{"nine in ten", 10, 1, true},
		{"eight in ten", 10, 2, false},
		{"a small server", minSharedTools - 1, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sp SharedParams
			docs := make([]Document, tc.tools)
			for i := range docs {
				docs[i] = tool(i, own(i), retry)
				if i < tc.withoutR {
					docs[i] = tool(i, own(i))
				}
				sp.Count(docs[i])
			}
			last := docs[len(docs)-1]
			before := slices.Clone(last.Params)
			sp.Drop(&last)
			if !reflect.DeepEqual(last.Params[0], before[0]) {
				t.Errorf("the tool's own parameter changed: %+v", last.Params[0])
			}
			if got := last.Params[1].Description == ""; got != tc.cleared || last.Params[1].Name != retry.Name {
				t.Errorf("shared parameter after Drop: %+v, want its description cleared: %v", last.Params[1], tc.cleared)
			}
			if !reflect.DeepEqual(docs[len(docs)-1].Params[1], retry) {
				t.Error("Drop changed the caller's parameters in place")
			}
		})
	}
	// A short description shared by all says what the server works on, and stays.
	var sp SharedParams
	symbol := Param{Name: "symbol", Description: "Stock symbol in Yahoo Finance format."}
	for i := range 10 {
		sp.Count(tool(i, symbol))
	}
	d := tool(0, symbol)
	if sp.Drop(&d); d.Params[0].Description == "" {
		t.Error("a six-word shared description was cleared")
	}
	// Past the sample, a parameter of a tool's own is not kept.
	var big SharedParams
	for i := range 10 * sharedSample {
		big.Count(tool(i, own(i), retry))
	}
	if len(big.counts) != 1 {
		t.Errorf("after %d tools, %d parameters counted, want the shared one", big.tools, len(big.counts))
	}
	d = tool(0, own(0), retry)
	if big.Drop(&d); d.Params[1].Description != "" || d.Params[0].Description == "" {
		t.Errorf("in a large server: %+v", d.Params)
	}
	var none *SharedParams
	d = tool(0, retry)
	none.Drop(&d) // a server never counted
	if !reflect.DeepEqual(d.Params[0], retry) {
		t.Errorf("nil SharedParams changed %+v", d.Params)
	}
}
