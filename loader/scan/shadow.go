package scan

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// crossTool are phrases with which a tool tells the model how other tools
// must behave: the shadowing attack needs no name to work ("when this tool
// is available, the email tool must ..."). Skills and prompts orchestrate
// tools legitimately, so these apply to tool definitions only.
var crossToolPatterns = []pattern{
	mk(RuleShadowing, "a condition on this tool's mere presence, the opening of a shadowing attack",
		`\b(?:when|whenever|if|once|while|as\s+long\s+as)\s+this\s+(?:tool|function|server)\s+is\s+(?:available|present|loaded|installed|enabled|connected|active|in\s+use)\b`,
		[]string{"this tool is", "this function is", "this server is"}).strongIn(kindTool),
	mk(RuleShadowing, "a claimed effect on another tool",
		`\bside[-\s]effects?\s+on\s+(?:(?:the|all|any|other|another)\s+)*(?:also\s+present\s+|other\s+)?[\w.-]+\s+`+toolWord,
		[]string{"side effect", "side-effect"}).strongIn(kindTool),
	mk(RuleShadowing, "an instruction to use this tool in another tool's place",
		`\b(?:use|call|invoke|prefer)\s+this\s+(?:tool|function)\s+instead\b|\binstead\s+of\s+(?:using\s+|calling\s+)?(?:(?:the|any)\s+)?(?:other\s+)?(?:built-in\s+|default\s+)?[\w.-]+\s+(?:tool|function)\b`,
		[]string{"instead"}),
	mk(RuleShadowing, "an instruction about how other tools must behave",
		`\b(?:(?:all|any|every|other|another)\s+)+[\w.-]*\s*tools?\s+(?:must|should|shall|needs?\s+to|has\s+to|have\s+to)\b`,
		[]string{"tool must", "tool should", "tool shall", "tool needs", "tool has to", "tools must", "tools should", "tools have to", "tools need"}).strongIn(kindTool),
	// Ranking and order: a tool that forbids the others, or runs after
	// them to change what they returned, steers calls it does not own.
	mk(RuleShadowing, "an instruction not to use the other tools",
		`\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shall\s+not)\s+(?:ever\s+)?(?:use|call|invoke|choose|select|run|rely\s+on|trust)\s+(?:any|an?|the)\s+(?:of\s+the\s+)?other\s+(?:[\w.-]+\s+){0,2}?`+toolWord+`\b`,
		[]string{"other"}, negations...).around(120).strongIn(kindTool),
	mk(RuleShadowing, changedResult,
		`\b(?:replace|replaces|overwrite|overwrites|override|overrides|discard|discards|ignore|ignores|disregard|supersede|supersedes|rewrite|rewrites|correct|corrects|substitute)\s+(?:the\s+|any\s+|all\s+|each\s+)?(?:results?|outputs?|responses?|answers?|values?|return\s+values?)\s+(?:of|from|returned\s+by|produced\s+by|given\s+by)\s+(?:(?:the|any|all|every|each|other|another|previous|prior)\s+)*(?:[\w.'-]+\s+){0,2}?(?:tools?|functions?|calls?)\b`,
		resultVerbs(" the result", " the output", " the response", " the answer", " the value", " any result", " all result", " result", " output", " response")).around(160).strongIn(kindTool),
	mk(RuleShadowing, changedResult,
		`\b(?:its|this\s+(?:tool|function)'?s?|the)\s+(?:results?|outputs?|responses?|values?|answers?)\s+(?:always\s+)?(?:supersedes?|overrides?|replaces?|takes?\s+precedence\s+over|wins?\s+over)\s+(?:(?:the|any|all|every|each|other|another)\s+)*(?:[\w.-]+\s+){0,2}?(?:tools?|functions?)(?:'s|s')?`,
		[]string{"supersede", "overrides", "override the", "override any", "override all", "replaces the", "replaces any", "replace the", "precedence over", "wins over", "win over"}).around(120).strongIn(kindTool),
	mk(RuleShadowing, changedResult,
		`\binstead\s+of\s+(?:the\s+|any\s+|an?\s+)?(?:other\s+)?(?:[\w.-]+\s+){0,2}?(?:tool|function)(?:'s|s')\s+(?:results?|outputs?|responses?|answers?|values?)`,
		[]string{"tool's result", "tool's output", "tool's response", "tool's answer", "tool's value", "tools' result", "tools' output", "function's result", "function's output", "function's response"}).around(120).strongIn(kindTool),
	mk(RuleShadowing, changedResult,
		`\b(?:results?|outputs?|responses?|values?|answers?)\s+(?:of|from)\s+(?:the\s+|any\s+|all\s+)?(?:other|another|previous|prior)\s+(?:[\w.-]+\s+){0,2}?(?:tools?|functions?)\b[^.\n]{0,80}?\b(?:overwrite|replace|override|discard|ignore|disregard|correct|rewrite)`,
		[]string{"of the other", "from the other", "of other", "from other", "of another", "from another", "of the previous", "of previous", "from the previous", "from previous", "of the prior", "of prior"},
		"overwrite", "replace", "override", "discard", "ignore", "disregard", "correct", "rewrite").around(200).strongIn(kindTool),
	mk(RuleShadowing, changedResult,
		`\b(?:after|once|whenever|every\s+time)\b[^.\n]{0,80}?\b(?:tool|function|call)\b[^.\n]{0,80}?\b(?:call|run|invoke|use|pass)\s+this\s+(?:tool|function)\b[^.\n]{0,120}?\b(?:replace|overwrite|override|discard|rewrite|substitute|correct|amend|alter)`,
		[]string{"this tool", "this function"}, "replace", "overwrite", "override", "discard", "rewrite", "substitute", "correct", "amend", "alter").around(240).strongIn(kindTool),
	mk(RuleShadowing, changedResult,
		`\b(?:disregard|ignore|discard|distrust|do\s+not\s+trust|don'?t\s+trust|never\s+trust)\s+(?:what|whatever|anything)\s+(?:the\s+|any\s+|other\s+|another\s+)*(?:[\w.-]+\s+){0,2}?(?:tools?|functions?)\s+(?:returned|returns|return|said|says|reported|reports|gave|gives|output|outputs)\b`,
		[]string{"disregard what", "ignore what", "discard what", "distrust what", "trust what", "ignore anything", "disregard anything"}).around(120).strongIn(kindTool),
	mk(RuleShadowing, "an instruction to run this tool after another tool",
		`\b(?:after|once|whenever|every\s+time)\s+(?:you\s+)?(?:call|use|invoke|run|receive)\w*\s+(?:(?:any|every|each|another|other|the\s+output\s+of|the\s+result\s+of)\s+)+(?:[\w.-]+\s+)?(?:tool|function)s?\b[^.\n]{0,80}?\b(?:call|run|invoke|use)\s+this\s+(?:tool|function)\b`+
			`|\b(?:after|once|whenever|every\s+time)\s+(?:the\s+|any\s+|another\s+)?(?:other\s+)?[\w.-]+\s+(?:tool|function)\s+(?:returns|responds|finishes|completes|runs|is\s+(?:called|used|run))\b[^.\n]{0,80}?\b(?:call|run|invoke|use)\s+this\s+(?:tool|function)\b`+
			`|\b(?:after|following)\s+(?:any|every|each|all)\s+(?:other\s+)?(?:[\w.-]+\s+){0,2}?(?:tool\s+|function\s+)?(?:calls?|invocations?|uses?|runs?)\b[^.\n]{0,80}?\b(?:call|run|invoke|use|pass)\b[^.\n]{0,40}?\bthis\s+(?:tool|function)\b`,
		[]string{"this tool", "this function"}, "after", "once", "whenever", "every time", "following").around(200),
}

// changedResult is the message of the rules of changing what another tool
// returned, one expression a phrasing, each with its own triggers.
const changedResult = "an instruction to change what another tool returned"

// resultVerbs are the verbs of changing a result, each followed by each of
// the given objects.
func resultVerbs(objects ...string) []string {
	var out []string
	for _, v := range []string{"replace", "overwrite", "override", "discard", "ignore", "disregard", "supersede", "rewrite", "correct", "substitute",
		"replaces", "overwrites", "overrides", "discards", "ignores", "supersedes", "rewrites", "corrects"} {
		for _, o := range objects {
			out = append(out, v+o)
		}
	}
	return out
}

// Names records which server each tool belongs to, for Shadowing. The zero
// value is empty and ready; it is not safe for concurrent writes. A name
// has one server but rarely: it is kept as that, without a slice of its
// own (a catalog records two names for each of its tools).
type Names struct {
	owners map[string]string   // lowercased name -> its server, when one
	shared map[string][]string // lowercased name -> servers, sorted, when several
}

// Add records that server has a tool, under its own name and the name
// toolsearch exposes it by (SERVER__TOOL).
func (n *Names) Add(server, own, exposed string) {
	if n.owners == nil {
		n.owners = map[string]string{}
	}
	for _, name := range []string{own, exposed} {
		if !distinctive(name) {
			continue
		}
		key := strings.ToLower(name)
		if list, ok := n.shared[key]; ok {
			if i, found := slices.BinarySearch(list, server); !found {
				n.shared[key] = slices.Insert(list, i, server)
			}
			continue
		}
		switch cur, ok := n.owners[key]; {
		case !ok:
			n.owners[key] = server
		case cur != server:
			if n.shared == nil {
				n.shared = map[string][]string{}
			}
			n.shared[key] = []string{min(cur, server), max(cur, server)}
			delete(n.owners, key)
		}
	}
}

// Len reports how many names are recorded.
func (n *Names) Len() int { return len(n.owners) + len(n.shared) }

// servers returns the servers of a lowercased name, sorted.
func (n *Names) servers(name string) ([]string, bool) {
	if list, ok := n.shared[name]; ok {
		return list, true
	}
	if server, ok := n.owners[name]; ok {
		return []string{server}, true
	}
	return nil, false
}

// distinctive reports whether a tool name is specific enough that a
// mention of it means the tool: "send_email" or "createIssue", not "search"
// or "add", which prose uses as words.
func distinctive(name string) bool {
	if len(name) < 5 {
		return false
	}
	if strings.ContainsAny(name, "_-") {
		return true
	}
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// Shadowing reports the tools of other servers that a tool of server names
// in its texts: a tool has no business telling the model about another
// server's tools, and doing so is how a server steers calls it does not
// own (sending every email to an attacker, say). A name also held by the
// tool's own server, or one of the tool's own parameter names, does not
// count. Mentions are found as whole identifiers, also at the end of a
// prefixed one (mcp_tool_send_email names send_email).
func Shadowing(server string, t *mcp.Tool, names *Names) []Finding {
	return References(t).Shadowing(server, names)
}

// Refs are the identifiers a tool's texts mention that could name other
// tools: what Shadowing needs of a definition, small enough to keep for
// every tool while the names of other servers come and go. A catalog keeps
// one per tool (100,000 for a large server), so nothing here points into
// the scanned text, and it takes two allocations besides itself: the
// names end to end in one string, and the references as offsets into it.
type Refs struct {
	tool *mcp.Tool
	// text is, end to end: the tool's own key names, lowercased, each
	// between NULs ("\x00user_id\x00"; only those a mention could be taken
	// for: distinctive and of name bytes alone, so that no NUL of a key
	// splits it); the identifiers as written; and, when any of them has an
	// upper-case letter, the identifiers lowercased.
	text        string
	own, idents int32 // the lengths of the first two parts
	list        []ref
}

// A ref is one identifier, at [at, at+n) of the identifiers and at
// [start, start+n) of its text: the field wheres[where], or the
// ordinal-th string of the JSON document wheres[where] when ordinal is not
// negative. Texts of 2 GB and more are not referenced: no upstream message
// is that large.
type ref struct {
	at, n, start, ordinal int32
	where                 uint8
}

// wheres are the texts of a tool definition (see toolDoc); a text not
// among them is reported as the definition's.
var wheres = []string{"definition", "title", "description", "annotations.title", "inputSchema", "outputSchema"}

func whereOf(name string) uint8 {
	if i := slices.Index(wheres, name); i > 0 {
		return uint8(i)
	}
	return 0
}

// ownNames, written and words are the parts of r.text.
func (r *Refs) ownNames() string { return r.text[:r.own] }
func (r *Refs) written() string  { return r.text[r.own : r.own+r.idents] }
func (r *Refs) words() string {
	if int(r.own+r.idents) == len(r.text) {
		return r.written()
	}
	return r.text[r.own+r.idents:]
}

// References collects the identifiers of a tool's texts for Shadowing; nil
// (which Shadowing takes) when they have none.
func References(t *mcp.Tool) *Refs { return toolDoc(t).references(t) }

// references collects the identifiers of a tool's doc.
func (d *doc) references(t *mcp.Tool) *Refs {
	text := d.text()
	if len(text) > math.MaxInt32 {
		return nil
	}
	r := &Refs{tool: t}
	var buf []byte
	for _, p := range d.pieces {
		if !p.key {
			continue
		}
		if name := strings.ToLower(text[p.start:p.end]); isIdentifier(name) && distinctive(name) {
			if len(buf) == 0 {
				buf = append(buf, 0)
			}
			buf = append(append(buf, name...), 0)
		}
	}
	// A tool's own enum values are its own names too: GitHub's
	// projects_write takes create_project as a method, which names no
	// other server's tool.
	for _, name := range enumValues(d.jsons) {
		if name = strings.ToLower(name); isIdentifier(name) && distinctive(name) {
			if len(buf) == 0 {
				buf = append(buf, 0)
			}
			buf = append(append(buf, name...), 0)
		}
	}
	r.own = int32(len(buf))
	var list []ref
	upper := false
	for _, p := range d.pieces {
		if p.key {
			continue
		}
		s := text[p.start:p.end]
		where, ordinal := whereOf(p.field), int32(-1)
		if p.field == "" {
			where, ordinal = whereOf(p.root), int32(p.ordinal)
		}
		forIdentifiers(s, func(start, end int) {
			list = append(list, ref{at: int32(len(buf)) - r.own, n: int32(end - start), start: int32(start), ordinal: ordinal, where: where})
			for _, c := range []byte(s[start:end]) {
				upper = upper || 'A' <= c && c <= 'Z'
			}
			buf = append(buf, s[start:end]...)
		})
	}
	r.idents = int32(len(buf)) - r.own
	if len(list) == 0 {
		return nil // nothing a tool could be named by
	}
	if upper {
		buf = append(buf, strings.ToLower(string(buf[r.own:]))...)
	}
	r.text, r.list = string(buf), slices.Clone(list)
	return r
}

// enumValues returns the strings of every enum and const of a tool's
// schemas, read off the JSON without decoding it (as toolDoc encoded it):
// most schemas have none.
func enumValues(schemas [][]byte) []string {
	var out []string
	for _, data := range schemas {
		for _, key := range [][]byte{[]byte(`"enum"`), []byte(`"const"`)} {
			for rest := data; ; {
				i := bytes.Index(rest, key)
				if i < 0 {
					break
				}
				rest = rest[i+len(key):]
				out = appendJSONStrings(out, rest)
			}
		}
	}
	return out
}

// appendJSONStrings appends the strings of the JSON value (a string, or an
// array of values) after the colon that starts data.
func appendJSONStrings(out []string, data []byte) []string {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 || data[0] != ':' {
		return out // "enum" as a value or a property name, not a keyword here
	}
	data = bytes.TrimLeft(data[1:], " \t\r\n")
	array := len(data) > 0 && data[0] == '['
	if array {
		data = data[1:]
	}
	for {
		data = bytes.TrimLeft(data, " \t\r\n,")
		if len(data) == 0 || data[0] != '"' {
			return out
		}
		end := bytes.IndexByte(data[1:], '"')
		if end < 0 {
			return out
		}
		if s := data[1 : 1+end]; bytes.IndexByte(s, '\\') < 0 {
			out = append(out, string(s))
		}
		data = data[2+end:]
		if !array {
			return out
		}
	}
}

// Shadowing reports the references that name another server's tools.
func (r *Refs) Shadowing(server string, names *Names) []Finding {
	if r == nil || names == nil || names.Len() == 0 {
		return nil
	}
	var out []Finding
	perField := map[string]int{}
	words, own := r.words(), r.ownNames()
	for _, ref := range r.list {
		if len(out) >= maxPerText {
			break
		}
		at, end := int(ref.at), int(ref.at+ref.n)
		other := names.other(words[at:end], server, own)
		if other == "" {
			continue
		}
		field := wheres[ref.where]
		if ref.ordinal >= 0 {
			field = jsonField(field, toolJSON(r.tool)[field], int(ref.ordinal))
		}
		if perField[field] >= maxPerField {
			continue
		}
		perField[field]++
		out = append(out, Finding{Rule: RuleShadowing, Severity: SeverityWithhold, Field: field, Start: int(ref.start), End: int(ref.start + ref.n),
			Span: quoteSpan(r.written()[at:end]), Message: "names a tool of another server (" + other + ")"})
	}
	return out
}

// forIdentifiers calls fn with the span of every word of s that could be a
// distinctive tool name: letters, digits, _ and -, with a _ or - inside or
// an upper-case letter after the first. Plain words, most of any text, are
// skipped without being copied.
func forIdentifiers(s string, fn func(start, end int)) {
	i := 0
	for i < len(s) {
		if !isNameByte(s[i]) {
			i++
			continue
		}
		start, marked := i, false
		for i < len(s) && isNameByte(s[i]) {
			c := s[i]
			if c == '_' || c == '-' || i > start && 'A' <= c && c <= 'Z' {
				marked = true
			}
			i++
		}
		end := i
		for end > start && (s[end-1] == '_' || s[end-1] == '-') {
			end--
		}
		if marked && end-start >= 5 {
			fn(start, end)
		}
	}
}

// isIdentifier reports whether s is made of name bytes only.
func isIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// other returns a server other than self holding the tool a word names,
// or "" when the word names none or also one of self's.
func (n *Names) other(word, self, own string) string {
	candidates := []string{word}
	for i := 0; i < len(word); i++ {
		if word[i] == '_' && i+1 < len(word) && word[i+1] != '_' {
			candidates = append(candidates, word[i+1:])
		}
	}
	for _, c := range candidates {
		servers, ok := n.servers(c)
		if !ok || isOwn(own, c) || !distinctive(c) {
			continue
		}
		if _, mine := slices.BinarySearch(servers, self); mine {
			continue
		}
		return servers[0]
	}
	return ""
}

// isOwn reports whether name is among own, names each between NULs.
func isOwn(own, name string) bool {
	return own != "" && strings.Contains(own, "\x00"+name+"\x00")
}
