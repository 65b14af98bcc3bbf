package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/search"
)

// Limits of tool_search's input.
const (
	MaxQueryLen  = 4096
	DefaultLimit = 5
	MaxLimit     = 20
	listPageSize = 50 // entries per page of an empty query
)

// Detail levels of a search result.
const (
	DetailFull    = "full"    // tools: input schema and annotations; skills: SKILL.md body and file list
	DetailCompact = "compact" // a one-line signature and the one-liner
	DetailNames   = "names"   // name and one-liner
)

// SearchArgs is tool_search's input.
type SearchArgs struct {
	Query  string `json:"query"`
	Limit  int    `json:"limit,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Detail string `json:"detail,omitempty"`
	Cursor string `json:"cursor,omitempty"`
}

const searchArgsAccepted = `query (string, required), limit (1-20), kind ("tool", "skill" or "any"), detail ("full", "compact" or "names"), cursor (from a previous listing)`

var searchInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "query": {"type": "string", "maxLength": 4096, "description": "Keywords describing the task, \"select:name1,name2\" for exact names, or \"+term\" to require a term. Empty lists the catalog page by page."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5, "description": "Most results to return."},
    "kind": {"type": "string", "enum": ["tool", "skill", "any"], "default": "any", "description": "Search only tools or only skills."},
    "detail": {"type": "string", "enum": ["full", "compact", "names"], "default": "full", "description": "full: input schemas and skill instructions for the best matches, one-line signatures for the rest (select: gives every name in full); compact: one-line signatures; names: names and one-liners."},
    "cursor": {"type": "string", "description": "Continue an empty-query listing from where the last page ended."}
  },
  "required": ["query"],
  "additionalProperties": false
}`)

// searchOutputSchema describes the structured result; every session pays
// for it up front, so it says what clients need to validate and no more.
var searchOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "query": {"type": "string"},
    "total": {"type": "integer"},
    "results": {"type": "array", "items": {"type": "object", "properties": {
      "kind": {"type": "string"}, "name": {"type": "string"}, "source": {"type": "string"},
      "score": {"type": "number"}, "description": {"type": "string"}, "detail": {"type": "string"},
      "signature": {"type": "string"}, "inputSchema": {"type": "object"}, "annotations": {"type": "object"},
      "body": {"type": "string"}, "files": {"type": "array"}, "state": {"type": "string"},
      "callable": {"type": "boolean"}, "changed": {"type": "boolean"}},
      "required": ["kind", "name", "source", "score", "description", "detail"]}},
    "unknown": {"type": "array", "items": {"type": "string"}},
    "ambiguous": {"type": "object"},
    "nextCursor": {"type": "string"},
    "notes": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["query", "total", "results"]
}`)

func (s *Server) searchTool() *mcp.Tool {
	return &mcp.Tool{
		Name:         ToolSearch,
		Title:        "Search tools and skills",
		Description:  s.Description(),
		InputSchema:  searchInputSchema,
		OutputSchema: searchOutputSchema,
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
		Meta:         alwaysLoad(),
	}
}

// SearchResult is tool_search's structured result.
type SearchResult struct {
	Query      string              `json:"query"`
	Total      int                 `json:"total"`
	Results    []ResultItem        `json:"results"`
	Unknown    []string            `json:"unknown,omitempty"`
	Ambiguous  map[string][]string `json:"ambiguous,omitempty"`
	NextCursor string              `json:"nextCursor,omitempty"`
	Notes      []string            `json:"notes,omitempty"`

	catalogSize int
	listing     bool   // an empty-query page
	offset      int    // of the page's first entry
	text        string // Text as fitBudget left it, so the handler need not render it again
}

// ResultItem is one entry in a search result.
type ResultItem struct {
	Kind        string        `json:"kind"`
	Name        string        `json:"name"`
	Source      string        `json:"source"`
	Score       float64       `json:"score"`
	Description string        `json:"description"`
	Detail      string        `json:"detail"`
	Signature   string        `json:"signature,omitempty"`
	InputSchema any           `json:"inputSchema,omitempty"`
	Annotations any           `json:"annotations,omitempty"`
	Body        string        `json:"body,omitempty"`
	Files       []FileInfo    `json:"files,omitempty"`
	State       string        `json:"state,omitempty"`
	Callable    *bool         `json:"callable,omitempty"`
	Changed     bool          `json:"changed,omitempty"`
	entry       *loader.Entry // what the item was made from
	stateReason string        // why a server is not active
	bodyCut     int           // bytes of body left out, when cut to fit
}

// FileInfo names a skill file without its content.
type FileInfo struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// searchHandler runs tool_search for the connection ms.
func (s *Server) searchHandler(ms *mcp.Server) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args SearchArgs
		if err := decodeArgs(req.Params.Arguments, &args, searchArgsAccepted); err != nil {
			return errorResult(err.Error()), nil
		}
		res, err := s.Search(args)
		if err != nil {
			return errorResult(err.Error()), nil
		}
		if s.opts.Promote && legacySession(req) {
			s.promote(ms, res)
		}
		return s.searchCallResult(res), nil
	}
}

// searchCallResult wraps a search result as the tool result clients get.
func (s *Server) searchCallResult(res *SearchResult) *mcp.CallToolResult {
	text := res.text
	if text == "" {
		text = res.Text()
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: res,
	}
}

// Search runs a tool_search request. It is what the tool does, exposed for
// the CLI and for measurement.
func (s *Server) Search(args SearchArgs) (*SearchResult, error) {
	if err := checkSearchArgs(&args); err != nil {
		return nil, err
	}
	if strings.TrimSpace(args.Query) == "" {
		return s.listPage(s.Snapshot(), args)
	}
	snap, done := s.indexedSnapshot()
	defer done()
	ix := s.index
	sr := ix.Search(search.Query{Text: args.Query, Limit: args.Limit, Kind: args.Kind})
	res := &SearchResult{Query: args.Query, Total: sr.Total, Unknown: sr.Unknown, Ambiguous: sr.Ambiguous, catalogSize: ix.Len()}
	var pick detailPicker
	for _, h := range sr.Hits {
		e, ok := snap.Lookup(h.ID)
		if !ok || !e.Listed() {
			continue
		}
		detail := args.Detail
		if detail == DetailFull && !sr.Selected {
			detail = pick.next(e, h.Score)
		}
		res.Results = append(res.Results, s.item(snap, e, h.Score, detail))
	}
	if res.Results == nil {
		res.Results = []ResultItem{}
	}
	if sr.Selected {
		res.Total = len(res.Results)
	}
	s.addStateNotes(snap, res)
	s.fitBudget(res)
	return res, nil
}

// Full detail goes to the few results that matter: the best match, and
// tools that score close to it, up to maxFull, with at most one skill body
// (a body costs a thousand tokens or more). The rest come compact: their
// signatures are enough to call them, and select:<name> gives them in full.
const (
	maxFull        = 3
	closeToBest    = 0.5 // share of the best score that still counts as close
	maxSkillBodies = 1
)

// detailPicker decides, result by result in rank order, which get full
// detail in a default (full) search.
type detailPicker struct {
	best         float64
	full, bodies int
}

func (p *detailPicker) next(e *loader.Entry, score float64) string {
	if p.full == 0 && p.bodies == 0 {
		p.best = score
	}
	switch {
	case p.full >= maxFull, p.full > 0 && score < p.best*closeToBest:
		return DetailCompact
	case e.Kind == loader.KindSkill && p.bodies >= maxSkillBodies:
		return DetailCompact
	}
	p.full++
	if e.Kind == loader.KindSkill {
		p.bodies++
	}
	return DetailFull
}

func checkSearchArgs(a *SearchArgs) error {
	if utf8.RuneCountInString(a.Query) > MaxQueryLen {
		return fmt.Errorf("query is %d characters; the limit is %d: use a few keywords", utf8.RuneCountInString(a.Query), MaxQueryLen)
	}
	switch {
	case a.Limit == 0:
		a.Limit = DefaultLimit
	case a.Limit < 1 || a.Limit > MaxLimit:
		return fmt.Errorf("limit must be between 1 and %d, got %d", MaxLimit, a.Limit)
	}
	switch a.Kind {
	case "", "any":
		a.Kind = ""
	case "tool", "skill":
	default:
		return fmt.Errorf(`kind must be "tool", "skill" or "any", got %q`, a.Kind)
	}
	switch a.Detail {
	case "":
		a.Detail = DetailFull
	case DetailFull, DetailCompact, DetailNames:
	default:
		return fmt.Errorf(`detail must be "full", "compact" or "names", got %q`, a.Detail)
	}
	return nil
}

// item renders one entry at the given detail.
func (s *Server) item(snap *loader.Snapshot, e *loader.Entry, score float64, detail string) ResultItem {
	it := ResultItem{Kind: string(e.Kind), Name: e.Name, Source: e.Source, Score: round(score), entry: e, Changed: e.Changed}
	if src, ok := snap.Source(e.Source); ok {
		if src.Kind == loader.SourceServer && src.State != loader.StateActive {
			it.State = string(src.State)
			it.stateReason = src.LastError
		}
		if e.Kind == loader.KindTool && (src.Kind == loader.SourceTools || e.Policy == loader.PolicyVisibleOnly) {
			it.Callable = ptr(false)
		}
	}
	s.setDetail(&it, detail)
	return it
}

// setDetail (re)fills an item's detail-dependent fields.
func (s *Server) setDetail(it *ResultItem, detail string) {
	e := it.entry
	it.Detail = detail
	it.Signature, it.InputSchema, it.Annotations, it.Body, it.Files = "", nil, nil, "", nil
	it.Description = e.Summary
	switch detail {
	case DetailFull:
		it.Description = e.Description
		if e.Kind == loader.KindTool {
			it.InputSchema = e.Tool.InputSchema
			if e.Tool.Annotations != nil {
				it.Annotations = e.Tool.Annotations
			}
		} else {
			it.Body = e.Skill.Body
			for _, f := range e.Skill.Files {
				if f.Path != loader.SkillFileName {
					it.Files = append(it.Files, FileInfo{f.Path, f.Size})
				}
			}
		}
	case DetailCompact:
		if e.Kind == loader.KindTool {
			it.Signature = s.signature(e)
		}
	}
}

// signature is Signature for a catalog entry, computed once per snapshot.
func (s *Server) signature(e *loader.Entry) string {
	if sig, ok := s.signatures.Load(e); ok {
		return sig.(string)
	}
	sig := Signature(e.Name, e.Tool.InputSchema)
	s.signatures.Store(e, sig)
	return sig
}

// addStateNotes explains results (or their absence) that depend on a
// server that is not serving normally.
func (s *Server) addStateNotes(snap *loader.Snapshot, res *SearchResult) {
	if len(res.Results) > 0 {
		return
	}
	for _, src := range snap.Sources {
		if src.Kind == loader.SourceServer && src.State != loader.StateActive && len(src.Entries) == 0 {
			note := fmt.Sprintf("server %s is %s and its tools are not known yet", src.Name, src.State)
			if src.LastError != "" {
				note += ": " + firstLine(src.LastError)
			}
			res.Notes = append(res.Notes, note)
		}
	}
}

// fitBudget degrades the result until its text fits the result budget:
// lowest-ranked full items become compact first, then skill bodies are cut,
// then items fall back to names, then the last items go.
func (s *Server) fitBudget(res *SearchResult) {
	budget := s.opts.ResultBudget
	fits := func() bool {
		// A token is at least one byte: short texts need no tokenizer pass.
		res.text = res.Text()
		return len(res.text) <= budget || s.tok.Count(res.text) <= budget
	}
	if fits() {
		return
	}
	defer func() { res.text = res.Text() }() // the loops below may stop without rendering
	note := fmt.Sprintf("Some results were shortened to fit the result budget of %d tokens; ask for one with select:<name> to see it in full.", budget)
	res.Notes = append(res.Notes, note)
	for i := len(res.Results) - 1; i >= 0 && !fits(); i-- {
		if it := &res.Results[i]; it.Detail == DetailFull && it.Kind == string(loader.KindTool) {
			s.setDetail(it, DetailCompact)
		}
	}
	for i := len(res.Results) - 1; i >= 0 && !fits(); i-- {
		if it := &res.Results[i]; it.Body != "" {
			s.cutBody(res, it)
		}
	}
	for i := len(res.Results) - 1; i >= 0 && !fits(); i-- {
		if it := &res.Results[i]; it.Detail != DetailNames {
			s.setDetail(it, DetailNames)
		}
	}
	for len(res.Results) > 0 && !fits() {
		res.Results = res.Results[:len(res.Results)-1]
	}
}

// cutBody shortens a skill body until the result fits its budget, keeping
// whole lines; the text says where to read the rest.
func (s *Server) cutBody(res *SearchResult, it *ResultItem) {
	budget := s.opts.ResultBudget
	full := it.entry.Skill.Body
	lo, hi := 0, len(full)
	for lo < hi { // longest prefix that fits, by bisection
		mid := (lo + hi + 1) / 2
		it.Body, it.bodyCut = full[:mid], len(full)-mid
		if s.tok.Count(res.Text()) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	cut := lo
	if i := strings.LastIndexByte(full[:cut], '\n'); i > 0 {
		cut = i + 1
	}
	it.Body, it.bodyCut = full[:cut], len(full)-cut
	if it.Body == "" {
		it.bodyCut = 0
	}
}

// listPage answers an empty query: the catalog, page by page.
func (s *Server) listPage(snap *loader.Snapshot, args SearchArgs) (*SearchResult, error) {
	offset := 0
	if args.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(args.Cursor)
		n, err2 := strconv.Atoi(strings.TrimPrefix(string(raw), "offset:"))
		if err != nil || err2 != nil || n < 0 {
			return nil, fmt.Errorf("invalid cursor %q: pass nextCursor from the previous page unchanged", args.Cursor)
		}
		offset = n
	}
	size := listPageSize
	if args.Limit != DefaultLimit {
		size = args.Limit
	}
	var entries []*loader.Entry
	for _, e := range snap.Listed() {
		if args.Kind == "" || string(e.Kind) == args.Kind {
			entries = append(entries, e)
		}
	}
	res := &SearchResult{Query: args.Query, Total: len(entries), Results: []ResultItem{}, catalogSize: len(entries), listing: true, offset: offset}
	end := min(offset+size, len(entries))
	for _, e := range entries[min(offset, end):end] {
		res.Results = append(res.Results, s.item(snap, e, 0, DetailNames))
	}
	if end < len(entries) {
		res.NextCursor = base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(end)))
	}
	s.fitBudget(res)
	return res, nil
}

// Text renders the result as the text the model reads.
func (r *SearchResult) Text() string {
	var b strings.Builder
	switch {
	case r.listing:
		fmt.Fprintf(&b, "Catalog: %d entries", r.Total)
		if len(r.Results) > 0 {
			fmt.Fprintf(&b, "; this page lists %d-%d", r.offset+1, r.offset+len(r.Results))
		}
		b.WriteString(". Use select:<name> to load one.")
	case len(r.Results) == 0:
		fmt.Fprintf(&b, "No tool or skill matches %q among %d entries. Try other or fewer keywords, or an empty query to list everything.", r.Query, r.catalogSize)
	default:
		fmt.Fprintf(&b, "%s for %q (%d matched among %d entries).", plural(len(r.Results), "result"), r.Query, r.Total, r.catalogSize)
		for _, it := range r.Results {
			if it.Kind == string(loader.KindTool) {
				b.WriteString(` Call tools with call_tool {"name": "<name>", "arguments": {...}}.`)
				break
			}
		}
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintf(&b, "\nUnknown names: %s (search by keywords instead).", strings.Join(r.Unknown, ", "))
	}
	for _, name := range sortedKeys(r.Ambiguous) {
		fmt.Fprintf(&b, "\n%s matches several entries: %s; select one of them.", name, strings.Join(r.Ambiguous[name], ", "))
	}
	for _, n := range r.Notes {
		b.WriteString("\nNote: " + n)
	}
	if r.NextCursor != "" {
		fmt.Fprintf(&b, "\nNext page: tool_search {\"query\": \"\", \"cursor\": %q}", r.NextCursor)
	}
	for i, it := range r.Results {
		b.WriteString("\n")
		if r.listing {
			fmt.Fprintf(&b, "\n%s (%s, %s) — %s", it.Name, it.Kind, it.Source, it.Description)
			continue
		}
		b.WriteString("\n")
		writeItem(&b, i+1, &it)
	}
	return b.String()
}

func writeItem(b *strings.Builder, rank int, it *ResultItem) {
	title := it.Name
	if it.Signature != "" {
		title = it.Signature
	}
	fmt.Fprintf(b, "## %d. %s (%s from %s)", rank, title, it.Kind, it.Source)
	if it.State != "" {
		fmt.Fprintf(b, " [server %s: calls fail until it is active", it.State)
		if it.stateReason != "" {
			b.WriteString("; " + firstLine(it.stateReason))
		}
		b.WriteString("]")
	}
	if it.Callable != nil && !*it.Callable {
		if it.entry.Policy == loader.PolicyVisibleOnly {
			b.WriteString(" [listed only: calls are refused by policy]")
		} else {
			b.WriteString(" [no upstream server: not callable]")
		}
	}
	if it.Changed {
		b.WriteString(" [changed since first seen: review before trusting]")
	}
	if it.Description != "" {
		b.WriteString("\n" + it.Description)
	}
	if it.InputSchema != nil {
		b.WriteString("\ninputSchema: " + compactJSON(it.InputSchema))
	}
	if it.Annotations != nil {
		if a := compactJSON(it.Annotations); a != "{}" {
			b.WriteString("\nannotations: " + a)
		}
	}
	if len(it.Files) > 0 {
		b.WriteString("\nFiles (read with read_skill_file; run scripts with run_skill_script):")
		for _, f := range it.Files {
			fmt.Fprintf(b, "\n- %s (%s)", f.Path, HumanSize(f.Size))
		}
	}
	if it.Body != "" {
		b.WriteString("\nSKILL.md instructions:\n" + strings.TrimSpace(it.Body))
		if it.bodyCut > 0 {
			fmt.Fprintf(b, "\n[… %d more bytes: read_skill_file {\"skill\": %q, \"path\": \"SKILL.md\"}]", it.bodyCut, it.Name)
		}
	}
}

// compactJSON renders v without whitespace, leaving out the $schema
// keyword: it tells the model nothing and costs tokens on every result.
func compactJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) == nil {
		if _, ok := m["$schema"]; ok {
			delete(m, "$schema")
			data, _ = json.Marshal(m)
		}
	}
	return string(data)
}

// HumanSize writes a byte count the way people read it: 512 B, 2.1 KB.
func HumanSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func round(f float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 3, 64), 64)
	return v
}

func ptr[T any](v T) *T { return &v }
