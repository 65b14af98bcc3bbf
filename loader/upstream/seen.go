package upstream

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server's tools are remembered by name, with the digest of the first
// definition seen (to mark later ones Changed) and when the name was last
// listed. A server that renames its tools without end would grow the memory
// without end: names not listed for forgetAfter are forgotten, and beyond
// maxRemembered names those listed longest ago.
const (
	forgetAfter   = 30 * 24 * time.Hour
	maxRemembered = 10_000 // besides the tools listed now
)

// seenTool is what is remembered of one name.
type seenTool struct {
	first string // catalog.ToolDigest of the first definition
	last  int64  // when last listed, in Unix seconds
}

// seenTools maps tool names to what is remembered of them.
type seenTools map[string]seenTool

// listed records a listing made at now of the tools named, whose digests
// digest gives, then forgets what is too old or too many.
func (s seenTools) listed(names []string, digest func(i int) string, now time.Time) {
	for i, name := range names {
		r, ok := s[name]
		if !ok {
			r.first = digest(i)
		}
		r.last = now.Unix()
		s[name] = r
	}
	s.forget(now, len(names)+maxRemembered)
}

// forget drops the names not listed since forgetAfter before now, then the
// least recently listed beyond limit.
func (s seenTools) forget(now time.Time, limit int) {
	cutoff := now.Add(-forgetAfter).Unix()
	maps.DeleteFunc(s, func(_ string, r seenTool) bool { return r.last < cutoff })
	if len(s) <= limit {
		return
	}
	names := slices.SortedFunc(maps.Keys(s), func(a, b string) int {
		return cmp.Or(cmp.Compare(s[a].last, s[b].last), strings.Compare(a, b))
	})
	for _, name := range names[:len(s)-limit] {
		delete(s, name)
	}
}

// A seenName is one name remembered, with what is remembered of it.
type seenName struct {
	name string
	seenTool
}

// sorted returns what is remembered, by name: the snapshot a cache file's
// firstSeen and lastSeen are written from. Two maps copied for them, and
// the keys of each sorted, held 14 MB for a server of 100,000 tools while
// its file was written, at the peak of a start.
func (s seenTools) sorted() []seenName {
	names := make([]seenName, 0, len(s))
	for name, r := range s {
		names = append(names, seenName{name, r})
	}
	slices.SortFunc(names, func(a, b seenName) int { return strings.Compare(a.name, b.name) })
	return names
}

// restoreSeen reads the maps of a cache file. A name without a last-listed
// time (a file an older version wrote) counts as listed when the file's
// catalog was. The names of the file's tools, and their digests (by
// position, when there is one for each) where the first digest is the
// current one, are kept as the tools have them: the maps' own copies of the
// same strings were about 11 MB for a server of 100,000 tools, most of them
// never changed.
func restoreSeen(first map[string]string, last map[string]int64, listed time.Time, tools []*mcp.Tool, digests []string) seenTools {
	s := make(seenTools, len(first))
	add := func(name, digest string) {
		t, ok := last[name]
		if !ok {
			t = listed.Unix()
		}
		s[name] = seenTool{first: digest, last: t}
	}
	for i, tool := range tools {
		digest, ok := first[tool.Name]
		if !ok {
			continue
		}
		if len(digests) == len(tools) && digests[i] == digest {
			digest = digests[i]
		}
		add(tool.Name, digest)
	}
	if len(s) == len(first) {
		return s // every name remembered is listed: none left to add
	}
	for name, digest := range first {
		if _, ok := s[name]; !ok { // no longer listed, still remembered
			add(name, digest)
		}
	}
	return s
}
