// Package catalog is what toolsearch knows of the tools and skills it
// fronts: one catalog of entries, fed by its sources, read through
// immutable snapshots. It knows nothing of where entries come from (package
// loader and those below it fill it) nor of how they are searched or
// served.
//
// A [Catalog] is made once and fed by its sources; readers take a
// [Snapshot] of it, or subscribe to its changes:
//
//	c := catalog.New("tool_search", "call_tool") // names no entry may take
//	c.Put(&catalog.Source{Name: "gh", Kind: catalog.SourceTools, Entries: entries})
//
//	snap := c.Snapshot()
//	if e, ok := snap.Lookup("gh__create_issue"); ok {
//		fmt.Println(e.Summary)
//	}
//	stop := c.Subscribe(func(old, new *catalog.Snapshot) { reindex(new) })
//	defer stop()
//
// # Sources, entries and snapshots
//
// A [Source] is one origin of entries (the skills, one upstream server, one
// tools file) with what is known of it: its state, when it was last
// listed, its last error and the problems found loading it. An [Entry] is
// one thing the model can find, a tool or a skill, under a name unique in
// the catalog (an upstream tool is SERVER__TOOL, made by [QualifiedName];
// the entry keeps its Source and [Entry.Own] name, and a name is never
// split to find them: [Snapshot.Resolve] says what a name somebody wrote
// means), with its one-line summary, its policy and a digest of everything
// a client could see of it ([ToolDigest]). An upstream's prompts
// (SERVER__PROMPT) and resources (by URI) are entries too, in name spaces
// of their own, for people to pick rather than the model ([Entry.ForModel]
// tells them apart); a URI that two sources claim goes to neither.
//
// [Catalog.Put] replaces a source whole; the catalog merges every source
// into an immutable [Snapshot] with a new version, refusing entries whose
// name is reserved, malformed or taken (a [Refusal] says why; nothing is
// renamed), and calls its subscribers in order. A reader holds on to one
// snapshot for as long as it needs consistent answers.
package catalog
