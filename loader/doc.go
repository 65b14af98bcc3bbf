// Package loader fills the catalog (package loader/catalog) from the places
// tools and skills come from: skill folders, static files of tool
// definitions, and (in package loader/upstream) the tools of upstream MCP
// servers. What each of them holds has a package of its own below it: a
// skill in loader/skill, a file of tool definitions in loader/toolfile, a
// source's problems in loader/problem; loader combines them with the
// catalog and keeps it in step as files change.
//
//	c := catalog.New("tool_search", "call_tool") // names no entry may take
//
//	skills := loader.NewSkillSource([]string{"./skills"}, c, logger)
//	skills.Load()                            // every skill folder under the roots
//	go skills.Watch(ctx, time.Second)        // and every edit after
//
//	tools, err := loader.LoadToolsFile("gh=./dumps/github.json")
//	if err != nil {
//		return err
//	}
//	c.Put(tools)
//
// # Skills
//
// A [SkillSource] keeps the skills of a set of roots in the catalog (a skill
// is a folder holding a SKILL.md, read and validated by package
// loader/skill), re-reading only the folders an edit touched, and withholds
// a skill the scanner flags until a person approves it. [WatchFiles]
// follows configuration files as [SkillSource.Watch] follows skill roots.
//
// # Tools
//
// [LoadToolsFile] reads a JSON array of MCP tools or a tools/list result
// (package loader/toolfile) as a static source: searchable and measurable,
// not callable. The tools of live servers come from package
// loader/upstream, which keeps each server's source in step with its
// tools/list and forwards calls to it.
//
// # Where new sources go
//
// A new kind of origin gets a package below loader that builds catalog
// sources and puts them in the catalog, as loader/upstream does; what it
// needs of the rest of toolsearch comes in through its options. Credentials
// for upstream servers (OAuth tokens, their refresh and storage) belong
// below loader/upstream, in loader/upstream/oauth: the transport asks it
// for a token, and nothing above the loader sees one.
package loader
