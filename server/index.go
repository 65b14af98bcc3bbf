package server

import (
	"encoding/json"

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
	schema, _ := json.Marshal(e.Tool.InputSchema)
	d := search.ToolDocument(e.Name, e.Name, e.Description, schema)
	d.Source = e.Source
	d.Title = e.Tool.Title
	if d.Title == "" && e.Tool.Annotations != nil {
		d.Title = e.Tool.Annotations.Title
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
	var add []search.Document
	for _, e := range new.Entries {
		if !e.Listed() {
			continue
		}
		prev, ok := before[e.Name]
		delete(before, e.Name)
		if ok && prev.Digest == e.Digest && prev.Source == e.Source {
			continue
		}
		add = append(add, Document(e))
	}
	var remove []string
	for name := range before {
		remove = append(remove, name)
	}
	if len(remove) > 0 {
		ix.Remove(remove...)
	}
	if len(add) > 0 {
		ix.Add(add...)
	}
}
