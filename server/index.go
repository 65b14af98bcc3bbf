package server

import (
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/search"
)

// Document turns a catalog entry into what the index ranks. The eval command
// and the server share it, so that what is measured is what is served.
func Document(e *loader.Entry) search.Document {
	if e.Kind == loader.KindSkill {
		d := search.SkillDocument(e.Name, e.Description, e.Skill.Body)
		d.Source = e.Source
		return d
	}
	tool := e.Tool
	if e.Quarantine != nil { // a held definition's text stays out of the index
		tool = e.Quarantine.Previous
		if tool == nil {
			tool = &mcp.Tool{}
		}
	}
	schema, ok := tool.InputSchema.(json.RawMessage)
	if !ok && tool.InputSchema != nil {
		schema, _ = json.Marshal(tool.InputSchema)
	}
	d := search.ToolDocument(e.Name, e.Name, e.Description, schema)
	d.Source = e.Source
	d.Title = tool.Title
	if d.Title == "" && tool.Annotations != nil {
		d.Title = tool.Annotations.Title
	}
	if e.Upstream != "" {
		d.AltNames = append(d.AltNames, e.Upstream)
	}
	return d
}

// syncIndex brings the index from the old snapshot's entries to the new
// one's, touching only entries that were added, removed or changed, so a
// one-skill edit never re-indexes the catalog.
func syncIndex(ix *search.Index, old, new *loader.Snapshot) {
	before := map[string]*loader.Entry{}
	if old != nil {
		for _, e := range old.Entries {
			if e.Listed() {
				before[e.Name] = e
			}
		}
	}
	var add []*loader.Entry
	for _, e := range new.Entries {
		if !e.Listed() {
			continue
		}
		prev, ok := before[e.Name]
		delete(before, e.Name)
		if ok && prev.Digest == e.Digest && prev.Source == e.Source && prev.Quarantine == e.Quarantine {
			continue
		}
		add = append(add, e)
	}
	var remove []string
	for name := range before {
		remove = append(remove, name)
	}
	if len(remove) > 0 {
		ix.Remove(remove...)
	}
	// Documents are built and added a batch at a time: a whole large catalog's
	// documents at once would more than double the memory the index itself needs.
	docs := make([]search.Document, 0, min(len(add), indexBatch))
	for batch := range slices.Chunk(add, indexBatch) {
		docs = docs[:0]
		for _, e := range batch {
			docs = append(docs, Document(e))
		}
		ix.Add(docs...)
	}
	if 2*len(add) >= ix.Len() {
		// Mostly new: a bulk load, whose leftover room is worth a pass.
		ix.Trim()
	}
}

// indexBatch is how many documents syncIndex builds and adds at a time: enough
// for Add to spread the analysis over every CPU.
const indexBatch = 4096
