// Package search ranks tools and skills for the tool_search tool: documents with fields go
// in, ranked hits come out. It knows nothing of MCP.
//
// Ranking follows what users of other tool searches asked for: an exact name always wins,
// then name prefixes, then text relevance. Text relevance is BM25F over the tool's name
// (split into words), server, title, description, parameter names, descriptions and enum
// values, and a skill's headings and body, with stop words, Porter stemming, a small table
// of synonyms and abbreviations common in tool catalogs, WordNet's derivationally related
// forms (and, for a word no document has, the words of its most frequent sense), two
// neighbouring query words that a name writes as one ("current weather",
// get_current_weather), a name's compound words cut where both parts are words of the
// catalog (`bicepschema`: bicep, schema; at a quarter of a name word's weight), hints from the types of values a request carries (dates, files,
// places, currencies), and a share of the evidence of the tool's server as a whole. Text in
// scripts written without spaces (Chinese, Japanese, Korean, Thai, …) is cut into
// overlapping character pairs; a request's Chinese words also count as their English
// glosses in CC-CEDICT, and a document described only in Chinese is indexed with the
// glosses of its words (cedict.go), so that neither language needs the other's words. The
// words a long request quotes (a message to post, a file name) are values for the tool,
// not words about it, and do not count; nor do conversational openers ("help me", "show
// me"). A request that enumerates its needs ("First, … Then, …") is also ranked need by
// need. A word no document has finds the catalog's words nearest to it in embedded GloVe
// word vectors, at a low weight (the soft stage, pluggable: see SoftStage). The descriptions of
// parameters nearly all of a server's tools share are not indexed (SharedParams). The
// English word lists these read (stop words, abbreviations, synonyms, verb classes,
// openers) are one embedded data file, language.txt. A second stage reorders the best few by how much of the tool's own name
// the query asks for, whether the name changes something when the request only asks, and
// whether it lists what the request names in the plural (action.go). "select:a,b" fetches
// names directly and "+term" filters without dominating the score. A non-empty query never
// comes back empty while the index holds a document of the kind asked for. See Query.
//
// The field and second-stage weights are fitted to labelled requests, and CrossValidate
// says how that fit carries over to tools it never saw (see weights.go, crossval.go).
// Every rule and feature can be switched off (Options.Ablate, ablate.go), so that
// `toolsearch eval --ablate` shows what each carries on requests it was not written for.
//
// The index is incremental: Add and Remove cost time in proportion to the documents they
// touch, and Search may run concurrently with them.
package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Param is one input parameter of a tool.
type Param struct {
	Name, Description string
	Enum              []string // the values it takes, if the schema lists them
}

// Document is one searchable tool or skill.
type Document struct {
	ID          string   // unique key in the index (the exposed name, e.g. "github__create_issue")
	Name        string   // exposed name; exact/prefix name matches are judged on it
	AltNames    []string // other names that count as the tool's name (e.g. the upstream's "create_issue")
	Kind        string   // "tool" or "skill"; Query.Kind filters on it
	Source      string   // server/source name, weak evidence (e.g. "github")
	Title       string
	Description string
	Params      []Param  // tools: parameter names and descriptions, nested properties flattened ("filter.status")
	Headings    []string // skills: the Markdown headings of the body
	Body        string   // skills: body text, weakest evidence (may be empty)
}

// Kinds of documents.
const (
	KindTool  = "tool"
	KindSkill = "skill"
)

// Limits on what ToolDocument reads from a schema, so one pathological schema cannot blow
// up the index.
const (
	maxSchemaDepth  = 4
	maxSchemaParams = 200
	maxEnumValues   = 100 // per parameter
)

// ToolDocument builds a Document from a tool's name, description and JSON input schema.
// A nil or invalid schema gives a document without parameters. Nested object properties are
// flattened to dotted names ("filter.status", array items as "tags[]"). Enum values are kept
// apart, because users name the values ("in Celsius") rather than the parameter, and naming
// one is strong evidence for the tool that takes it.
func ToolDocument(id, name, description string, inputSchema []byte) Document {
	d := Document{ID: id, Name: name, Kind: KindTool, Description: description}
	var root schemaNode
	if len(bytes.TrimSpace(inputSchema)) == 0 {
		return d
	}
	r := readers.Get().(*schemaReader)
	defer readers.Put(r)
	if !r.readSchema(inputSchema, &root) {
		// What schemaReader does not take, json.Unmarshal reads. A field of an
		// unexpected type (a numeric "description", a tuple "items") only loses
		// that field: json keeps decoding the rest and reports the first such error.
		root = schemaNode{}
		var typeErr *json.UnmarshalTypeError
		if err := json.Unmarshal(inputSchema, &root); err != nil && !errors.As(err, &typeErr) {
			return d
		}
	}
	// Flattened in scratch, then an exact-size copy: catalogs are big and
	// append's spare capacity adds up.
	params := root.params(r.params[:0], "", 0)
	if len(params) > 0 {
		d.Params = slices.Clip(slices.Clone(params))
	}
	clear(params)
	r.params = params[:0]
	return d
}

// schemaNode is the part of a JSON Schema that carries searchable words.
type schemaNode struct {
	Description string       `json:"description"`
	Title       string       `json:"title"`
	Enum        []any        `json:"enum"`
	Properties  orderedProps `json:"properties"`
	Items       *schemaNode  `json:"items"`
	AnyOf       []schemaNode `json:"anyOf"`
	OneOf       []schemaNode `json:"oneOf"`
	AllOf       []schemaNode `json:"allOf"`
}

// orderedProps keeps the properties of a schema in the order the author wrote them, so
// parameter lists read as the tool's author intended.
type orderedProps []namedNode

type namedNode struct {
	name string
	node schemaNode
}

func (o *orderedProps) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil // not an object: ignore rather than reject the whole schema
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		var n schemaNode
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		_ = json.Unmarshal(raw, &n) // a malformed property still counts by name
		*o = append(*o, namedNode{key, n})
	}
	return nil
}

// params flattens the properties of n under prefix into dst.
func (n *schemaNode) params(dst []Param, prefix string, depth int) []Param {
	if depth >= maxSchemaDepth {
		return dst
	}
	for i := range n.Properties {
		p := &n.Properties[i] // not a copy, which would go to the heap
		if len(dst) >= maxSchemaParams {
			break
		}
		name := prefix + p.name
		dst = append(dst, Param{Name: name, Description: p.node.text(), Enum: p.node.enumValues()})
		dst = p.node.children(dst, name, depth+1)
	}
	return dst
}

// children adds the nested properties of n, looking through arrays and combinators.
func (n *schemaNode) children(dst []Param, name string, depth int) []Param {
	if len(n.Properties) == 0 && n.Items == nil && len(n.AnyOf)+len(n.OneOf)+len(n.AllOf) == 0 {
		return dst // most parameters: no prefix to make
	}
	prefix := name + "."
	dst = n.params(dst, prefix, depth)
	if n.Items != nil {
		dst = n.Items.params(dst, name+"[].", depth)
	}
	for _, alts := range [3][]schemaNode{n.AnyOf, n.OneOf, n.AllOf} {
		for i := range alts {
			dst = alts[i].params(dst, prefix, depth)
		}
	}
	return dst
}

// text is the searchable description of a parameter: its title and description.
func (n *schemaNode) text() string {
	parts := make([]string, 0, 2)
	if n.Title != "" && !strings.EqualFold(n.Title, n.Description) {
		parts = append(parts, n.Title)
	}
	if n.Description != "" {
		parts = append(parts, n.Description)
	}
	return strings.Join(parts, " ")
}

// enumValues lists the enum values of n (also inside array items and combinators).
func (n *schemaNode) enumValues() []string {
	var vals []string
	add := func(enum []any) {
		for _, v := range enum {
			if s := fmt.Sprint(v); s != "" && s != "<nil>" && len(vals) < maxEnumValues && !slices.Contains(vals, s) {
				vals = append(vals, s)
			}
		}
	}
	add(n.Enum)
	if n.Items != nil {
		add(n.Items.Enum)
	}
	for _, alts := range [][]schemaNode{n.AnyOf, n.OneOf} {
		for i := range alts {
			add(alts[i].Enum)
		}
	}
	return slices.Clip(vals)
}

// SkillDocument builds a Document for a skill from its description and Markdown body. The
// body's headings are extracted as their own, stronger field; a YAML front matter block at
// the start of the body is skipped.
func SkillDocument(name, description, body string) Document {
	body = stripFrontMatter(body)
	return Document{
		ID:          name,
		Name:        name,
		Kind:        KindSkill,
		Description: description,
		Headings:    markdownHeadings(body),
		Body:        body,
	}
}

func stripFrontMatter(body string) string {
	rest, ok := strings.CutPrefix(body, "---\n")
	if !ok {
		return body
	}
	if i := strings.Index(rest, "\n---"); i >= 0 {
		rest = rest[i+len("\n---"):]
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			return rest[j+1:]
		}
		return ""
	}
	return body
}

// markdownHeadings returns the ATX headings ("# Title") of a Markdown text, outside code
// fences, without the hashes.
func markdownHeadings(body string) []string {
	var hs []string
	fence := ""
	for line := range strings.Lines(body) {
		line = strings.TrimRight(line, "\r\n")
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) > 3 {
			continue // indented code
		}
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		level := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
		if level == 0 || level > 6 {
			continue
		}
		h := trimmed[level:]
		if h != "" && h[0] != ' ' && h[0] != '\t' {
			continue // "#hashtag" is not a heading
		}
		if h = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#")); h != "" {
			hs = append(hs, h)
		}
	}
	return hs
}
