package scan

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// A doc is every text of one definition laid end to end, so that each rule
// reads it in one pass: a definition has dozens of short strings, and the
// cost of scanning them one by one was in the setting up. A separator that
// no pattern crosses keeps matches inside one piece.
type doc struct {
	buf    strings.Builder
	pieces []piece
	name   string // of the tool, for a tool definition
	// jsons are the JSON documents addJSON read, as encoded, in order:
	// references reads a tool's enum values off them.
	jsons [][]byte
	// unquoted is scratch for unquoteJSON.
	unquoted []byte
}

// separator ends each piece: a line break and a full stop stop every
// pattern that joins words.
const separator = "\n.\n"

// A piece is one text of the definition and where it came from.
type piece struct {
	start, end int    // in buf
	field      string // the field, for texts outside a JSON document
	root       string // for a string of a JSON document: the document's field
	ordinal    int    // which string of the document, keys counted
	key        bool   // an object key (a parameter's name, say)
}

// add appends a text known by its field.
func (d *doc) add(field, text string) {
	if text == "" {
		return
	}
	start := d.buf.Len()
	d.buf.WriteString(text)
	d.pieces = append(d.pieces, piece{start: start, end: d.buf.Len(), field: field})
	d.buf.WriteString(separator)
}

// addJSON appends every string and key of a JSON value: a json.RawMessage,
// or anything that marshals. Escapes are decoded, so that \u200b counts as
// the character it spells.
func (d *doc) addJSON(root string, v any) {
	if v == nil {
		return
	}
	data, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return
		}
	}
	d.jsons = append(d.jsons, data)
	d.buf.Grow(len(data))
	ordinal := 0
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for j < len(data) && data[j] != '"' {
			if data[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
		if j >= len(data) {
			return // not JSON
		}
		start := d.buf.Len()
		if escaped {
			if !d.unquoteJSON(data[i : j+1]) {
				return
			}
		} else {
			d.buf.Write(data[i+1 : j])
		}
		k := j + 1
		for k < len(data) && (data[k] == ' ' || data[k] == '\n' || data[k] == '\t' || data[k] == '\r') {
			k++
		}
		d.pieces = append(d.pieces, piece{start: start, end: d.buf.Len(), root: root, ordinal: ordinal, key: k < len(data) && data[k] == ':'})
		d.buf.WriteString(separator)
		ordinal++
		i = j
	}
}

// unquoteJSON writes the text of a JSON string (quotes included) to buf,
// and reports whether the string was valid: json.Unmarshal's decoding of a
// string, a lone surrogate and each byte of invalid UTF-8 made U+FFFD,
// without the reflection a schema of many short strings paid for.
//
// The strings are found by the loop above, not by jsontext's Decoder
// (issue 46): tokenizing every document cost the scanner 6.5 % more
// (ToolReferences over the dev split, median of five runs in turn), past
// the start-up guard's 5 %.
func (d *doc) unquoteJSON(quoted []byte) bool {
	var err error
	d.unquoted, err = jsontext.AppendUnquote(d.unquoted[:0], quoted)
	if err != nil && !jsontext.Value(quoted).IsValid(jsontext.AllowInvalidUTF8(true)) {
		return false // not a JSON string; an error of a valid one is a U+FFFD made
	}
	d.buf.Write(d.unquoted)
	return true
}

// text is the whole buffer as a string, shared, not copied: nothing is
// added once scanning starts.
func (d *doc) text() string { return d.buf.String() }

// locate finds the piece holding a span of the buffer and clips the span
// to it.
func (d *doc) locate(start, end int) (p *piece, s, e int, ok bool) {
	i := sort.Search(len(d.pieces), func(i int) bool { return d.pieces[i].end > start })
	if i == len(d.pieces) || d.pieces[i].start > start {
		return nil, 0, 0, false
	}
	p = &d.pieces[i]
	return p, start - p.start, min(end, p.end) - p.start, true
}

// findings collects a definition's findings within the caps, translating
// spans of the buffer into fields and offsets within them.
type findings struct {
	d        *doc
	src      map[string]any // JSON documents by root, to name fields
	kind     kind
	tool     string      // the tool's name, for a tool definition
	norm     *normalized // the text the rules read, for addNorm
	list     []Finding
	perField map[string]int
	// prefix is put before each message: what a decoded run's findings
	// say of where they were found.
	prefix string
	// codeReadAt is one more than where a line of code reads a store of
	// credentials other than a project's .env, or dumps the environment;
	// 0 when none does. The flows across a skill's files start there.
	codeReadAt int
	// proseReadAt is the same for a sentence that tells the model to read
	// such a store: a flow across files starts there only through a file
	// both name.
	proseReadAt int
}

func (fs *findings) full() bool { return len(fs.list) >= maxPerText }

// addNorm records a finding on a span of the normalized text.
func (fs *findings) addNorm(rule Rule, sev Severity, start, end int, msg string) {
	start, end = fs.norm.back(start, end)
	fs.add(rule, sev, start, end, msg)
}

// add records a finding on the buffer span [start, end). A span that one
// of the rule's findings already covers is not reported again.
func (fs *findings) add(rule Rule, sev Severity, start, end int, msg string) {
	if fs.full() {
		return
	}
	for i, f := range fs.list {
		if f.Rule == rule && f.bufStart < end && start < f.bufEnd {
			if sev == SeverityWithhold && f.Severity == SeverityWarn {
				fs.list[i].Severity, fs.list[i].Message = sev, fs.prefix+msg
			}
			return
		}
	}
	p, s, e, ok := fs.d.locate(start, end)
	if !ok || e <= s {
		return
	}
	field := p.field
	if field == "" {
		field = jsonField(p.root, fs.src[p.root], p.ordinal)
		if p.key {
			field += " (name)"
		}
	}
	if fs.perField == nil {
		fs.perField = map[string]int{}
	}
	key := string(rule) + " " + field
	if fs.perField[key] >= maxPerField {
		return
	}
	fs.perField[key]++
	text := fs.d.text()[p.start:p.end]
	fs.list = append(fs.list, Finding{Rule: rule, Severity: sev, Field: field, Start: s, End: e, Span: quoteSpan(text[s:e]), Message: fs.prefix + msg, bufStart: start, bufEnd: end})
}

// has reports whether a finding of the rule and severity was made.
func (fs *findings) has(rule Rule, sev Severity) bool {
	for _, f := range fs.list {
		if f.Rule == rule && f.Severity == sev {
			return true
		}
	}
	return false
}

// sorted returns the findings by rule order, then field, then position.
func (fs *findings) sorted() []Finding {
	order := map[Rule]int{}
	for i, r := range Rules {
		order[r] = i
	}
	for i := range fs.list {
		fs.list[i].bufStart, fs.list[i].bufEnd = 0, 0
	}
	sort.SliceStable(fs.list, func(i, j int) bool {
		a, b := fs.list[i], fs.list[j]
		if order[a.Rule] != order[b.Rule] {
			return order[a.Rule] < order[b.Rule]
		}
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		return a.Start < b.Start
	})
	return fs.list
}

// jsonField names the ordinal-th string (keys counted) of a JSON document
// by its path: inputSchema.properties.note.description. Findings are rare,
// so the document is read again here rather than every path kept.
func jsonField(root string, v any, ordinal int) string {
	data, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return root
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		path  string
		array bool
		key   string
		index int
		inKey bool
	}
	var stack []frame
	path := func() string {
		if len(stack) == 0 {
			return root
		}
		f := &stack[len(stack)-1]
		if f.array {
			return f.path + "[" + strconv.Itoa(f.index) + "]"
		}
		return f.path + "." + f.key
	}
	advance := func() {
		if len(stack) > 0 {
			if f := &stack[len(stack)-1]; f.array {
				f.index++
			} else {
				f.inKey = true
			}
		}
	}
	n := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return root
		}
		if len(stack) > 0 && !stack[len(stack)-1].array && stack[len(stack)-1].inKey {
			if key, ok := tok.(string); ok {
				f := &stack[len(stack)-1]
				f.key, f.inKey = key, false
				if n == ordinal {
					return path()
				}
				n++
				continue
			}
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				stack = append(stack, frame{path: path(), array: tok == '[', inKey: tok == '{'})
			} else {
				stack = stack[:len(stack)-1]
				advance()
			}
		case string:
			if n == ordinal {
				return path()
			}
			n++
			advance()
		default:
			advance()
		}
	}
}

// quoteSpan shows a span in double quotes with every character a reader
// would not see (controls, format characters, the tag block) as an escape,
// cut at maxSpanRunes.
func quoteSpan(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	n := 0
	for _, r := range s {
		if n == maxSpanRunes {
			b.WriteString(`"…`)
			return b.String()
		}
		n++
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError, invisibleRune(r), !unicode.IsGraphic(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
