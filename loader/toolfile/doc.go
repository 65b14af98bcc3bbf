// Package toolfile reads MCP tool definitions from JSON: a file holding an
// array of tools or a tools/list result ([ReadTools], [DecodeTools]), and a
// tools/list result as an upstream sends it ([ReadListedTools]). A large
// file is read as it streams and its tools decoded on every core; their
// input schemas are packed into shared chunks ([SchemaPacker]), since a
// catalog of 100,000 tools holds them all for as long as it runs.
//
// A file read this way is a static source: searchable and measurable, not
// callable. loader.LoadToolsFile makes it one.
package toolfile
