// Package loader turns the places tools and skills come from into one
// catalog of entries: skill folders, static files of tool definitions, and
// (in package loader/upstream) the tools of upstream MCP servers. It knows
// nothing of how the catalog is searched or served.
//
// A [Catalog] is made once and fed by its sources; readers take a
// [Snapshot] of it, or subscribe to its changes:
//
//	catalog := loader.NewCatalog("tool_search", "call_tool") // names no entry may take
//
//	skills := loader.NewSkillSource([]string{"./skills"}, catalog, logger)
//	skills.Load()                            // every skill folder under the roots
//	go skills.Watch(ctx, time.Second)        // and every edit after
//
//	tools, err := loader.LoadToolsFile("gh=./dumps/github.json")
//	if err != nil {
//		return err
//	}
//	catalog.Put(tools)
//
//	snap := catalog.Snapshot()
//	if e, ok := snap.Lookup("gh__create_issue"); ok {
//		fmt.Println(e.Summary)
//	}
//	stop := catalog.Subscribe(func(old, new *loader.Snapshot) { reindex(new) })
//	defer stop()
//
// # Sources, entries and snapshots
//
// A [Source] is one origin of entries (the skills, one upstream server, one
// tools file) with what is known of it: its state, when it was last
// listed, its last error and the [Problems] found loading it. An [Entry] is
// one thing the model can find, a tool or a skill, under a name unique in
// the catalog (an upstream tool is SERVER__TOOL, made by [QualifiedName];
// the entry keeps its Source and [Entry.Own] name, and a name is never
// split to find them: [Snapshot.Resolve] says what a name somebody wrote
// means), with its one-line summary,
// its policy and a digest of everything a client could see of it. An
// upstream's prompts (SERVER__PROMPT) and resources (by URI) are entries
// too, in name spaces of their own, for people to pick rather than the
// model ([Entry.ForModel] tells them apart); a URI that two sources claim
// goes to neither.
//
// [Catalog.Put] replaces a source whole; the catalog merges every source
// into an immutable [Snapshot] with a new version, refusing entries whose
// name is reserved, malformed or taken (a [Refusal] says why; nothing is
// renamed), and calls its subscribers in order. A reader holds on to one
// snapshot for as long as it needs consistent answers. [WatchFiles] follows
// configuration files as [SkillSource.Watch] follows skill roots.
//
// # Skills
//
// A skill is a folder holding a SKILL.md: YAML frontmatter and Markdown
// instructions. [LoadSkill] reads one folder and snapshots its files (the
// bytes served later are the bytes validated now, so nothing outside the
// folder is ever read through a skill); [ParseSkill] validates a SKILL.md
// by the Agent Skills rules, collecting every problem with its file, line
// and field. A problem of severity [SeverityError] refuses the skill;
// warnings and hints load it and tell its author. A SKILL.md in a folder of
// a skill is a nested skill of its own. [SkillSource] keeps the skills of a
// set of roots in the catalog, re-reading only the folders an edit touched.
//
// # Tools
//
// [LoadToolsFile] reads a JSON array of MCP tools or a tools/list result as
// a static source: searchable and measurable, not callable. The tools of
// live servers come from package loader/upstream, which keeps each server's
// source in step with its tools/list and forwards calls to it.
//
// # Where new sources go
//
// A new kind of origin gets a package below loader that builds [Source]s
// and puts them in the catalog, as loader/upstream does; what it needs of
// the rest of toolsearch comes in through its options. Credentials for
// upstream servers (OAuth tokens, their refresh and storage) belong below
// loader/upstream, in loader/upstream/oauth: the transport asks it for a
// token, and nothing above the loader sees one.
package loader
