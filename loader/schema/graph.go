package schema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// A graph is a decoded schema with every reference resolved, as the
// validator will follow it.
type graph struct {
	root   *jsonschema.Schema
	draft7 bool
	// refs maps a subschema with $ref or $dynamicRef to the subschemas
	// they lead to.
	refs  map[*jsonschema.Schema]refTargets
	paths map[*jsonschema.Schema]string // JSON Pointers, for messages
	// kids holds each subschema's children, listed once: resolution, the
	// in-place edges and the cycle search all walk them.
	kids map[*jsonschema.Schema][]child
	// in maps each subschema to those applied to the same instance.
	in map[*jsonschema.Schema][]*jsonschema.Schema
	// local is what applying a subschema costs besides its subschemas.
	local map[*jsonschema.Schema]localCost
}

type refTargets struct{ ref, dynamic *jsonschema.Schema }

// The draft-07 identifiers; anything else the validator reads as 2020-12,
// and refuses versions it does not know.
const (
	draft7      = "http://json-schema.org/draft-07/schema#"
	draft7TLS   = "https://json-schema.org/draft-07/schema#"
	draft202012 = "https://json-schema.org/draft/2020-12/schema"
)

// analyze decodes raw, resolves its references and refuses in-place cycles.
func analyze(raw []byte) (*graph, error) {
	if err := bounded(raw); err != nil {
		return nil, err
	}
	var root jsonschema.Schema
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("decoding the schema: %w", err)
	}
	g, err := newGraph(&root, 0)
	if err != nil {
		return nil, err
	}
	for s := range g.paths {
		g.local[s] = costOf(s)
	}
	return g, nil
}

// bounded refuses a schema too large or too deeply nested to be decoded.
func bounded(raw []byte) error {
	if len(raw) > MaxSchemaBytes {
		return fmt.Errorf("%w: the schema is %d bytes, over %d", ErrUnchecked, len(raw), MaxSchemaBytes)
	}
	if d := nesting(raw); d > MaxNesting {
		return fmt.Errorf("%w: the schema nests %d levels deep, over %d", ErrUnchecked, d, MaxNesting)
	}
	return nil
}

// newGraph resolves the references of a decoded schema and refuses
// in-place cycles; it reads only what lightDecode decodes. nodes, the
// number of subschemas if known, sizes the graph's maps.
func newGraph(root *jsonschema.Schema, nodes int) (*graph, error) {
	switch root.Schema {
	case "", draft7, draft7TLS, draft202012:
	default:
		return nil, fmt.Errorf("%w: JSON Schema version %q is not supported", ErrUnchecked, root.Schema)
	}
	g := &graph{
		root:   root,
		draft7: root.Schema == draft7 || root.Schema == draft7TLS,
		refs:   map[*jsonschema.Schema]refTargets{},
		paths:  make(map[*jsonschema.Schema]string, nodes),
		kids:   make(map[*jsonschema.Schema][]child, nodes),
		in:     make(map[*jsonschema.Schema][]*jsonschema.Schema, nodes),
		local:  map[*jsonschema.Schema]localCost{},
	}
	if err := g.resolve(); err != nil {
		return nil, err
	}
	for s := range g.paths {
		g.in[s] = g.inPlace(s)
	}
	if err := g.findCycle(); err != nil {
		return nil, err
	}
	g.kids = nil // validation needs only the edges
	return g, nil
}

// nesting returns how deeply raw's arrays and objects nest. It reads raw as
// JSON only as far as needed to skip strings.
func nesting(raw []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// A child is one subschema under a keyword of its parent.
type child struct {
	s       *jsonschema.Schema
	keyword string // the JSON keyword
	key     string // the map key or array index below it, if any
	// inPlace children apply to the same instance as their parent; the
	// others to a part of it, or never (definitions).
	inPlace bool
	applied bool
}

// Keywords of jsonschema.Schema fields that hold subschemas, by how the
// validator uses them. TestEverySubschemaField checks that the list is
// complete.
var (
	inPlaceKeywords = []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"}
	partKeywords    = []string{"prefixItems", "items", "additionalItems", "contains", "unevaluatedItems", "properties", "patternProperties", "additionalProperties", "propertyNames", "unevaluatedProperties"}
	unusedKeywords  = []string{"$defs", "definitions", "contentSchema"}
)

// children returns the subschemas of s in a fixed order.
func children(s *jsonschema.Schema) []child {
	var out []child
	one := func(kw string, c *jsonschema.Schema, inPlace, applied bool) {
		if c != nil {
			out = append(out, child{c, kw, "", inPlace, applied})
		}
	}
	list := func(kw string, cs []*jsonschema.Schema, inPlace, applied bool) {
		for i, c := range cs {
			if c != nil {
				out = append(out, child{c, kw, strconv.Itoa(i), inPlace, applied})
			}
		}
	}
	keyed := func(kw string, m map[string]*jsonschema.Schema, inPlace, applied bool) {
		if len(m) == 0 {
			return
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if c := m[k]; c != nil {
				out = append(out, child{c, kw, k, inPlace, applied})
			}
		}
	}
	list("allOf", s.AllOf, true, true)
	list("anyOf", s.AnyOf, true, true)
	list("oneOf", s.OneOf, true, true)
	one("not", s.Not, true, true)
	one("if", s.If, true, true)
	one("then", s.Then, true, true)
	one("else", s.Else, true, true)
	keyed("dependentSchemas", s.DependentSchemas, true, true)
	keyed("dependencies", s.DependencySchemas, true, true)

	list("prefixItems", s.PrefixItems, false, true)
	one("items", s.Items, false, true)
	list("items", s.ItemsArray, false, true)
	one("additionalItems", s.AdditionalItems, false, true)
	one("contains", s.Contains, false, true)
	one("unevaluatedItems", s.UnevaluatedItems, false, true)
	keyed("properties", s.Properties, false, true)
	keyed("patternProperties", s.PatternProperties, false, true)
	one("additionalProperties", s.AdditionalProperties, false, true)
	one("propertyNames", s.PropertyNames, false, true)
	one("unevaluatedProperties", s.UnevaluatedProperties, false, true)

	keyed("$defs", s.Defs, false, false)
	keyed("definitions", s.Definitions, false, false)
	one("contentSchema", s.ContentSchema, false, false)
	return out
}

// resolve records every subschema's path and anchors, then resolves every
// $ref and $dynamicRef the way jsonschema-go does for a schema that is one
// document: a reference to another document, or a subschema with an $id of
// its own (a document within the document), is not checked.
func (g *graph) resolve() error {
	base, err := g.base()
	if err != nil {
		return err
	}
	anchors := map[string]*jsonschema.Schema{}
	var withRefs []*jsonschema.Schema
	var walk func(s *jsonschema.Schema, path string) error
	walk = func(s *jsonschema.Schema, path string) error {
		if _, seen := g.paths[s]; seen {
			return fmt.Errorf("the schema at %s appears twice", path)
		}
		g.paths[s] = path
		if s.ID != "" && s != g.root && !(g.draft7 && s.Ref != "") {
			if !g.draft7 || !strings.HasPrefix(s.ID, "#") {
				return fmt.Errorf("%w: the subschema at #%s has an $id of its own", ErrUnchecked, path)
			}
		}
		var buf [2]string
		names := buf[:0]
		if g.draft7 && strings.HasPrefix(s.ID, "#") && s.Ref == "" {
			names = append(names, strings.TrimPrefix(s.ID, "#")) // draft-07's anchors
		}
		if !g.draft7 {
			names = append(names, s.Anchor, s.DynamicAnchor)
		}
		for _, a := range names {
			if a == "" {
				continue
			}
			if _, dup := anchors[a]; dup {
				// jsonschema-go refuses this in 2020-12 and keeps one of
				// them in draft-07; which one is its own business.
				return fmt.Errorf("%w: anchor %q is defined twice", ErrUnchecked, a)
			}
			anchors[a] = s
		}
		if s.Ref != "" || s.DynamicRef != "" {
			withRefs = append(withRefs, s)
		}
		g.kids[s] = children(s)
		for _, c := range g.kids[s] {
			p := path + "/" + c.keyword // no keyword needs escaping
			if c.key != "" {
				p = path + "/" + c.keyword + "/" + escape(c.key) // one string, not two
			}
			if err := walk(c.s, p); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(g.root, ""); err != nil {
		return err
	}
	for _, s := range withRefs {
		var t refTargets
		if s.Ref != "" {
			if t.ref, err = g.target(base, anchors, s.Ref); err != nil {
				return fmt.Errorf("$ref at #%s: %w", g.paths[s], err)
			}
		}
		if s.DynamicRef != "" {
			// Within one document, the outermost dynamic scope that
			// holds the anchor is the document itself: the dynamic
			// reference leads where a plain one would.
			if t.dynamic, err = g.target(base, anchors, s.DynamicRef); err != nil {
				return fmt.Errorf("$dynamicRef at #%s: %w", g.paths[s], err)
			}
		}
		g.refs[s] = t
	}
	return nil
}

// base returns the URI references resolve against: the root's $id, if it
// has one that is not a fragment (in draft-07, $ref hides it), else the
// empty URI.
func (g *graph) base() (*url.URL, error) {
	id := g.root.ID
	if id == "" || g.draft7 && g.root.Ref != "" {
		return &url.URL{}, nil
	}
	u, err := url.Parse(id)
	if err != nil {
		return nil, fmt.Errorf("$id: %w", err)
	}
	if u.Fragment != "" {
		return &url.URL{}, nil
	}
	if !u.IsAbs() {
		return nil, fmt.Errorf("%w: $id %q is not an absolute URI", ErrUnchecked, id)
	}
	return u, nil
}

// target finds the subschema a reference leads to.
func (g *graph) target(base *url.URL, anchors map[string]*jsonschema.Schema, ref string) (*jsonschema.Schema, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, err
	}
	full := base.ResolveReference(u)
	frag := full.Fragment
	doc := *full
	doc.Fragment, doc.RawFragment = "", ""
	if doc.String() != base.String() {
		return nil, fmt.Errorf("%w: %q refers to another document", ErrUnchecked, ref)
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		s, ok := anchors[frag]
		if !ok {
			return nil, fmt.Errorf("no anchor %q", frag)
		}
		return s, nil
	}
	return g.pointer(frag)
}

// pointer follows a JSON Pointer from the root through subschemas only, as
// the validator does.
func (g *graph) pointer(ptr string) (*jsonschema.Schema, error) {
	s := g.root
	if ptr == "" {
		return s, nil
	}
	segs := strings.Split(ptr[1:], "/")
	for i := 0; i < len(segs); i++ {
		kw := unescape(segs[i])
		var found *jsonschema.Schema
		switch {
		case kw == "items" && s.Items != nil:
			found = s.Items
		default:
			cs := childrenUnder(s, kw)
			if cs.none {
				return nil, fmt.Errorf("JSON Pointer %q: no subschemas under %q", ptr, kw)
			}
			if cs.single != nil {
				found = cs.single
				break
			}
			if i+1 >= len(segs) {
				return nil, fmt.Errorf("JSON Pointer %q does not lead to a schema", ptr)
			}
			i++
			key := unescape(segs[i])
			if cs.isList {
				if len(key) > 1 && key[0] == '0' {
					return nil, fmt.Errorf("JSON Pointer %q: index %q has leading zeroes", ptr, key)
				}
				n, err := strconv.Atoi(key)
				if err != nil || n < 0 || n >= len(cs.list) {
					return nil, fmt.Errorf("JSON Pointer %q: no item %q", ptr, key)
				}
				found = cs.list[n]
			} else {
				found = cs.keyed[key]
			}
		}
		if found == nil {
			return nil, fmt.Errorf("JSON Pointer %q leads nowhere", ptr)
		}
		s = found
	}
	return s, nil
}

// under is what a keyword of a schema holds.
type under struct {
	single *jsonschema.Schema
	list   []*jsonschema.Schema
	isList bool
	keyed  map[string]*jsonschema.Schema
	none   bool
}

// childrenUnder returns what the keyword kw of s holds, by the field
// lightDecode fills for it.
func childrenUnder(s *jsonschema.Schema, kw string) under {
	i, ok := lightIndex[kw]
	if !ok {
		return under{none: true}
	}
	switch lightKeywords[i].kind {
	case kindSingle:
		return single(*singleField(s, kw))
	case kindList:
		return under{list: *listField(s, kw), isList: true}
	case kindItems: // its array form: pointer takes the single schema first
		return under{list: s.ItemsArray, isList: true}
	case kindMap:
		return under{keyed: *mapField(s, kw)}
	case kindDependencies:
		return under{keyed: s.DependencySchemas}
	}
	return under{none: true} // $ref, $id and the like hold no subschema
}

func single(s *jsonschema.Schema) under {
	if s == nil {
		return under{none: true}
	}
	return under{single: s}
}

var (
	escaper   = strings.NewReplacer("~", "~0", "/", "~1")
	unescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

func escape(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s // most keys: the replacer would copy them all the same
	}
	return escaper.Replace(s)
}
func unescape(s string) string { return unescaper.Replace(s) }

// inPlace returns the subschemas the validator applies to the same instance
// as s: its references and in-place keywords. In draft-07 a $ref hides its
// siblings.
func (g *graph) inPlace(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	t := g.refs[s]
	if t.ref != nil {
		out = append(out, t.ref)
		if g.draft7 {
			return out
		}
	}
	if t.dynamic != nil {
		out = append(out, t.dynamic)
	}
	for _, c := range g.kids[s] {
		if c.inPlace {
			out = append(out, c.s)
		}
	}
	return out
}

// findCycle looks for a cycle of in-place applications among the
// subschemas validation can reach. Such a cycle is endless recursion for
// any instance that reaches it.
func (g *graph) findCycle() error {
	const (
		unseen = iota
		onPath
		done
	)
	color := make(map[*jsonschema.Schema]int, len(g.paths))
	// Reachable subschemas, through references and every applied keyword.
	reach := make([]*jsonschema.Schema, 1, len(g.paths))
	reach[0] = g.root
	reached := make(map[*jsonschema.Schema]bool, len(g.paths))
	reached[g.root] = true
	for i := 0; i < len(reach); i++ {
		s := reach[i]
		for _, n := range g.in[s] {
			if !reached[n] {
				reached[n] = true
				reach = append(reach, n)
			}
		}
		for _, c := range g.kids[s] {
			if c.applied && !c.inPlace && !reached[c.s] {
				reached[c.s] = true
				reach = append(reach, c.s)
			}
		}
	}
	// Depth-first search over in-place edges, with an explicit stack: a
	// chain of references may be as long as the schema is large.
	type frame struct {
		s    *jsonschema.Schema
		next []*jsonschema.Schema
	}
	for _, start := range reach {
		if color[start] != unseen {
			continue
		}
		stack := []frame{{start, g.in[start]}}
		color[start] = onPath
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if len(top.next) == 0 {
				color[top.s] = done
				stack = stack[:len(stack)-1]
				continue
			}
			n := top.next[0]
			top.next = top.next[1:]
			switch color[n] {
			case onPath:
				var path []string
				for i := len(stack) - 1; i >= 0; i-- {
					path = append(path, g.paths[stack[i].s])
					if stack[i].s == n {
						break
					}
				}
				slices.Reverse(path)
				return &CycleError{Path: append(path, g.paths[n])}
			case unseen:
				color[n] = onPath
				stack = append(stack, frame{n, g.in[n]})
			}
		}
	}
	return nil
}
