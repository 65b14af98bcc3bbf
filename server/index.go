package server

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/skill"
	"github.com/toolsearch/toolsearch/search"
)

// Document turns a catalog entry into what the index ranks. The eval command
// and the server share it, so that what is measured is what is served.
func Document(e *catalog.Entry) search.Document {
	switch e.Kind {
	case catalog.KindSkill:
		d := search.SkillDocument(e.Name, skill.IndexedDescription(e.Description), e.Skill.Body)
		d.Source = e.Source
		return d
	case catalog.KindPrompt, catalog.KindResource:
		return featureDocument(e)
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
	d := search.ToolDocument(e.Name, e.Name, skill.IndexedDescription(e.Description), schema)
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

// featureDocument makes the document of a prompt (its arguments are its
// parameters) or a resource (its name is its URI, and the resource's own
// name counts as a name too).
func featureDocument(e *catalog.Entry) search.Document {
	d := search.Document{ID: indexID(e), Name: e.Name, Kind: string(e.Kind), Source: e.Source, Description: skill.IndexedDescription(e.Description)}
	switch {
	case e.Prompt != nil:
		d.Title = e.Prompt.Title
		for _, a := range e.Prompt.Arguments {
			if a != nil {
				d.Params = append(d.Params, search.Param{Name: a.Name, Description: a.Description})
			}
		}
		if e.Upstream != "" {
			d.AltNames = append(d.AltNames, e.Upstream)
		}
	case e.Resource != nil:
		d.Title = e.Resource.Title
		d.AltNames = append(d.AltNames, e.Resource.Name)
	case e.Template != nil:
		d.Title = e.Template.Title
		d.AltNames = append(d.AltNames, e.Template.Name)
	}
	return d
}

// indexID is an entry's key in the index. Tools and skills are keyed by
// name, as Document has always keyed them; prompts and resources, whose
// names live in name spaces of their own, by kind and name. Neither a tool
// nor a skill name holds a colon.
func indexID(e *catalog.Entry) string {
	switch {
	case e.Kind == catalog.KindPrompt:
		return "prompt:" + e.Name
	case e.Template != nil:
		return "template:" + e.Name
	case e.Kind == catalog.KindResource:
		return "resource:" + e.Name
	}
	return e.Name
}

// entryByIndexID finds the entry an index hit names.
func entryByIndexID(snap *catalog.Snapshot, id string) (*catalog.Entry, bool) {
	if name, ok := strings.CutPrefix(id, "prompt:"); ok {
		return snap.Prompt(name)
	}
	if uri, ok := strings.CutPrefix(id, "resource:"); ok {
		return snap.Resource(uri)
	}
	if tmpl, ok := strings.CutPrefix(id, "template:"); ok {
		return snap.ResourceTemplate(tmpl)
	}
	return snap.Lookup(id)
}

// syncIndex brings the index from the old snapshot's entries to the new
// one's, touching only entries that were added, removed or changed, so a
// one-skill edit never re-indexes the catalog. A tool's change has its
// server's tools counted again for the parameters they share (see
// search.SharedParams); shared keeps, per server, what they shared the last
// time (a fingerprint), and when that changes, all of them are indexed again.
func syncIndex(ix *search.Index, old, new *catalog.Snapshot, shared map[serverID]uint64) {
	before := map[string]*catalog.Entry{}
	if old != nil {
		for _, e := range old.Entries {
			if e.Listed() {
				before[indexID(e)] = e
			}
		}
	}
	var add []*catalog.Entry
	changed := map[string]bool{}   // index IDs of the entries in add
	touched := map[serverID]bool{} // servers whose tools changed
	for _, e := range new.Entries {
		if !e.Listed() {
			continue
		}
		id := indexID(e)
		prev, ok := before[id]
		delete(before, id)
		if ok && prev.Digest == e.Digest && prev.Source == e.Source && prev.Quarantine == e.Quarantine {
			continue
		}
		add = append(add, e)
		changed[id] = true
		if e.Kind == catalog.KindTool {
			touched[serverKey(e)] = true
		}
		if ok && prev.Kind == catalog.KindTool {
			touched[serverKey(prev)] = true
		}
	}
	var remove []string
	for name, e := range before {
		remove = append(remove, name)
		if e.Kind == catalog.KindTool {
			touched[serverKey(e)] = true
		}
	}
	if len(remove) > 0 {
		ix.Remove(remove...)
	}
	// Documents are built and added a batch at a time: a whole large catalog's
	// documents at once would more than double the memory the index itself needs.
	pending := make([]search.Document, 0, min(len(add), indexBatch))
	put := func(d search.Document) {
		if pending = append(pending, d); len(pending) == indexBatch {
			ix.Add(pending...)
			pending = pending[:0]
		}
	}
	servers := map[serverID][]*catalog.Entry{} // the tools of each touched server
	if len(touched) > 0 {
		for _, e := range new.Entries {
			if !e.Listed() || e.Kind != catalog.KindTool {
				continue
			}
			if k := serverKey(e); touched[k] {
				servers[k] = append(servers[k], e)
			}
		}
	}
	n := 0 // entries indexed
	for _, e := range add {
		if e.Kind != catalog.KindTool { // tools are added with their server's, below
			put(Document(e))
			n++
		}
	}
	for k := range touched {
		if servers[k] == nil {
			delete(shared, k) // the server has no tools left
		}
	}
	for k, tools := range servers {
		var sp search.SharedParams
		var docs []search.Document // a small server's tools, read once
		if len(tools) <= indexBatch {
			docs = make([]search.Document, len(tools))
			for i, e := range tools {
				docs[i] = Document(e)
				sp.Count(docs[i])
			}
		} else {
			// Which parameters nine in ten tools share shows in an even sample as
			// well: a server of 100,000 tools is neither held at once nor read twice.
			for i := 0; i < len(tools); i += len(tools) / sharedSampleTools {
				sp.Count(Document(tools[i]))
			}
		}
		// When what the tools share is unchanged, only the tools that changed are
		// indexed again; when it changed, all of them.
		fp := sp.Fingerprint()
		prev, known := shared[k]
		all := !known || prev != fp
		shared[k] = fp
		for i, e := range tools {
			if !all && !changed[indexID(e)] {
				continue
			}
			var d search.Document
			if docs != nil {
				d = docs[i]
			} else {
				d = Document(e)
			}
			sp.Drop(&d)
			put(d)
			n++
		}
	}
	if len(pending) > 0 {
		ix.Add(pending...)
	}
	if 2*n >= ix.Len() {
		// Mostly new: a bulk load, whose leftover room is worth a pass.
		ix.Trim()
	}
}

// Documents returns the index documents of entries as syncIndex builds them,
// without the descriptions of the parameters each server's tools share
// (counted over all of a server's tools, where syncIndex samples a server of
// more than indexBatch).
func Documents(entries []*catalog.Entry) []search.Document {
	shared := map[serverID]*search.SharedParams{}
	docs := make([]search.Document, len(entries))
	for i, e := range entries {
		docs[i] = Document(e)
		k := serverKey(e)
		if shared[k] == nil {
			shared[k] = &search.SharedParams{}
		}
		shared[k].Count(docs[i])
	}
	for i, e := range entries {
		shared[serverKey(e)].Drop(&docs[i])
	}
	return docs
}

// A serverID names the server of an entry for search.SharedParams: its
// source and, where one source holds several servers' tools under the
// names a tools file gives them ("github__create_issue"), the prefix of its
// name. Two substrings, so that keying every tool of a large catalog
// allocates nothing.
type serverID struct{ source, prefix string }

func serverKey(e *catalog.Entry) serverID {
	if e.Upstream != "" {
		// Its source named it (SOURCE__OWN): the source is its server,
		// whatever separators its own name holds.
		return serverID{e.Source, ""}
	}
	// A name given as it is can only be guessed at, as search groups it:
	// the part before its last separator. A guess for ranking, never for
	// calling (catalog.Snapshot.Resolve).
	prefix := ""
	if i := strings.LastIndex(e.Name, catalog.NameSeparator); i > 0 {
		prefix = e.Name[:i]
	}
	return serverID{e.Source, prefix}
}

// sharedSampleTools is how many of a server's tools syncIndex reads to find the
// parameters they share.
const sharedSampleTools = 1024

// indexBatch is how many documents syncIndex builds and adds at a time: enough
// for Add to spread the analysis over every CPU.
const indexBatch = 4096

// indexer brings the index up to the latest snapshot whenever the catalog
// changes, until Close. It runs apart from update so that a catalog is
// listed as soon as it is loaded: indexing 100,000 tools takes a second or
// two that the first tools/list need not wait for. Changes that come while
// it works are taken together in the next pass.
func (s *Server) indexer() {
	for {
		select {
		case <-s.indexKick:
		case <-s.done:
			return
		}
		if s.indexGate != nil {
			s.indexGate()
		}
		s.mu.RLock()
		from, to := s.indexed, s.snap
		s.mu.RUnlock()
		if from == to {
			continue
		}
		s.indexMu.Lock()
		s.indexing.Store(true)
		syncIndex(s.index, from, to, s.indexShared)
		s.indexing.Store(false)
		s.mu.Lock()
		s.indexed = to
		close(s.indexedC)
		s.indexedC = make(chan struct{})
		s.mu.Unlock()
		s.indexMu.Unlock()
		// Priced now, so that no summary waits for it (see eagerBook).
		s.priceEagerLater()
	}
}

// testIndexGate, when set, runs before each pass of the indexers of the
// servers made from then on: tests hold it back to search while indexing is
// still to come.
var testIndexGate func()

// indexedSnapshot waits until the index reflects the snapshot served when
// it was called (or a later one), and returns the snapshot the index
// reflects. The index stays as it is until done is called, so that hits
// and entries agree. A search during indexing thus waits rather than
// missing what is not indexed yet.
func (s *Server) indexedSnapshot() (snap *catalog.Snapshot, done func()) {
	s.waitIndexed(nil)
	s.indexMu.RLock()
	s.mu.RLock()
	snap = s.indexed
	s.mu.RUnlock()
	if snap == nil { // closed before anything was indexed
		snap = &catalog.Snapshot{}
	}
	return snap, s.indexMu.RUnlock
}

// waitIndexed waits until the index reflects the snapshot served when it
// was called, the server is closed, or ctx (when not nil) ends.
func (s *Server) waitIndexed(ctx context.Context) error {
	var ctxDone <-chan struct{}
	if ctx != nil {
		ctxDone = ctx.Done()
	}
	s.mu.RLock()
	want := s.snap.Version
	for s.indexed == nil || s.indexed.Version < want {
		ch := s.indexedC
		s.mu.RUnlock()
		select {
		case <-ch:
		case <-s.done:
			return nil
		case <-ctxDone:
			return ctx.Err()
		}
		s.mu.RLock()
	}
	s.mu.RUnlock()
	return nil
}

// Bulk reports whether the server is at work over a whole catalog: bringing
// the index up to a new snapshot, or pricing it for the eager baseline
// (see eagerBook). For a large catalog either is a burst of garbage, from
// analysis or from the tokenizer, that the collector should keep small.
func (s *Server) Bulk() bool { return s.indexing.Load() || s.pricing.Load() > 0 }

// WaitIndexed waits until every entry of the catalog as it is now can be
// found by a search, or until ctx ends.
func (s *Server) WaitIndexed(ctx context.Context) error {
	return s.waitIndexed(ctx)
}
