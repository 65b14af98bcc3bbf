package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/scan"
	"github.com/toolsearch/toolsearch/loader/skill"
	"github.com/toolsearch/toolsearch/search"
)

// Limits of tool_search's input.
const (
	MaxQueryLen  = 4096
	DefaultLimit = 5
	MaxLimit     = 20
	MaxQueries   = 5  // searches of one call (queries)
	listPageSize = 50 // entries per page of an empty query
)

// Detail levels of a search result.
const (
	DetailFull    = "full"    // tools: input schema and annotations; skills: SKILL.md body and file list
	DetailCompact = "compact" // a one-line signature and the one-liner
	DetailNames   = "names"   // name and one-liner
)

// SearchArgs is tool_search's input; its fields make the tool's input
// schema (see inputSchema).
type SearchArgs struct {
	Query   string   `json:"query,omitempty" jsonschema:"Keywords for one need; \"select:a,b\" for exact names; empty lists all."`
	Queries []string `json:"queries,omitempty" jsonschema:"Several needs."`
	Limit   int      `json:"limit,omitempty"`
	Kind    string   `json:"kind,omitempty"`
	Detail  string   `json:"detail,omitempty" jsonschema:"full: schemas of the best matches; compact: signatures; names."`
	Cursor  string   `json:"cursor,omitempty" jsonschema:"nextCursor of the last page."`
}

// needs returns the searches of a request: query, then each of queries, blanks left out.
func (a *SearchArgs) needs() []string {
	var out []string
	for _, q := range append([]string{a.Query}, a.Queries...) {
		if strings.TrimSpace(q) != "" {
			out = append(out, q)
		}
	}
	return out
}

// anyKind is the kind that searches every kind alike, the default.
const anyKind = "any"

// searchKinds and searchDetails are the values kind and detail take; the
// default detail comes first.
var (
	searchKinds   = []string{string(catalog.KindTool), string(catalog.KindSkill), string(catalog.KindPrompt), string(catalog.KindResource), anyKind}
	searchDetails = []string{DetailFull, DetailCompact, DetailNames}
)

// SearchKinds and SearchDetails return the values tool_search's kind and
// detail take, for the CLI's flags and their completion.
func SearchKinds() []string   { return slices.Clone(searchKinds) }
func SearchDetails() []string { return slices.Clone(searchDetails) }

var searchInputSchema = inputSchema[SearchArgs](func(p map[string]*jsonschema.Schema) {
	p["query"].MaxLength = ptr(MaxQueryLen)
	p["queries"].MaxItems = ptr(MaxQueries)
	p["limit"].Minimum, p["limit"].Maximum = ptr(1.0), ptr(float64(MaxLimit))
	p["limit"].Default = json.RawMessage(strconv.Itoa(DefaultLimit))
	p["kind"].Enum, p["kind"].Default = enum(searchKinds), jsonString(anyKind)
	p["detail"].Enum, p["detail"].Default = enum(searchDetails), jsonString(searchDetails[0])
})

var (
	searchInputWire    = wireSchema(searchInputSchema)
	searchArgsAccepted = acceptedArgs(searchInputSchema)
)

func (s *Server) searchTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        ToolSearch,
		Description: s.Description(),
		InputSchema: searchInputWire,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
		Meta:        alwaysLoad(),
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
	// Weak says that the best result is a poor match for the query: see
	// weakMatch. Of a search of several queries: that each query's is.
	Weak bool `json:"weak,omitempty"`
	// Needs has one summary per query of a search of several (SearchArgs.Queries);
	// their results are in Results, in order, each naming its query.
	Needs []NeedResult `json:"needs,omitempty"`
	// Guidance is what the text says beyond the results and the notes: how
	// to call what was found, what to try when nothing matched. Claude Code
	// and Codex give the model the structured result, not the text.
	Guidance string   `json:"guidance,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	// Connecting names the servers still starting whose tools are not
	// known yet: they may hold what was asked for.
	Connecting []string `json:"connecting,omitempty"`
	// Instructions are the servers' own instructions (see
	// ShownInstructions), for the servers whose tools the result shows.
	Instructions map[string]string `json:"instructions,omitempty"`

	catalogSize int
	groups      []group // one per query searched
	listing     bool    // an empty-query page
	offset      int     // of the page's first entry
	text        string  // Text as fitBudget left it, so the handler need not render it again
}

// group is what the text says of one query's results.
type group struct {
	NeedResult
	browse  bool // nothing matched: the results are entries to start from
	relaxed bool // no entry had every +term
	// selected: the query was select:, so the note of a result shortened to
	// fit must not advise select: again
	selected bool
}

// NeedResult sums up the results of one query of a search of several.
type NeedResult struct {
	Query string `json:"query"`
	Total int    `json:"total"`          // entries that matched at all
	Weak  bool   `json:"weak,omitempty"` // its best result is a poor match (see weakMatch)
	// Guidance is what the text's heading of the query adds: what to try
	// when it matched nothing or weakly.
	Guidance string `json:"guidance,omitempty"`
}

// ResultItem is one entry in a search result.
type ResultItem struct {
	Kind        string     `json:"kind"`
	Name        string     `json:"name"`
	Source      string     `json:"source"`
	Score       float64    `json:"score"`
	Description string     `json:"description"`
	Detail      string     `json:"detail"`
	Signature   string     `json:"signature,omitempty"`
	InputSchema any        `json:"inputSchema,omitempty"`
	Annotations any        `json:"annotations,omitempty"`
	Body        string     `json:"body,omitempty"`
	Files       []FileInfo `json:"files,omitempty"`
	State       string     `json:"state,omitempty"`
	Callable    *bool      `json:"callable,omitempty"`
	Changed     bool       `json:"changed,omitempty"`
	Quarantined *HeldInfo  `json:"quarantined,omitempty"`
	// Proxy names the tool that calls it (see proxies); empty when it
	// cannot be called.
	Proxy string `json:"proxy,omitempty"`
	// Notes are the marks its text carries: a server's state, a hold, why it
	// cannot be called.
	Notes []string `json:"notes,omitempty"`
	// More says where the rest of a body cut to fit the budget is, or of a
	// tool's description longer than MaxDescriptionShown.
	More  string `json:"more,omitempty"`
	Query string `json:"query,omitempty"` // the query it answers, in a search of several
	// Arguments are a prompt's; MIMEType is a resource's.
	Arguments   []*mcp.PromptArgument `json:"arguments,omitempty"`
	MIMEType    string                `json:"mimeType,omitempty"`
	entry       *catalog.Entry        // what the item was made from
	need, rank  int                   // its query's index in Needs, and its rank among that query's results (from 1)
	stateReason string                // why a server is not active
	bodyCut     int                   // bytes of body left out, when cut to fit
	descFrom    int                   // byte of a tool's description its page starts at (see descriptionPage)
	text        string                // as Text renders it, kept while fitBudget works; "" when not rendered
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
	needs := args.needs()
	if len(needs) == 0 {
		return s.listPage(s.Snapshot(), args)
	}
	descFrom := -1 // with a query, a cursor continues a tool's description
	if args.Cursor != "" {
		n, err := parseDescriptionCursor(args.Cursor)
		if err != nil {
			return nil, err
		}
		descFrom = n
	}
	snap, done := s.indexedSnapshot()
	defer done()
	ix := s.index
	res := &SearchResult{Query: strings.Join(needs, "; "), Results: []ResultItem{}, catalogSize: ix.Len()}
	if len(needs) == 1 {
		res.Query = needs[0]
	}
	seen := map[*catalog.Entry]bool{}
	weak := true
	for n, q := range needs {
		sr := ix.Search(search.Query{Text: q, Limit: args.Limit, Kind: args.Kind})
		pick := detailPicker{maxFull: maxFull}
		if len(needs) > 1 {
			pick.maxFull = 1 // the best of each need: the others' full schemas would crowd the budget
		}
		var items []ResultItem
		for _, h := range sr.Hits {
			e, ok := entryByIndexID(snap, h.ID)
			if !ok || !e.Listed() {
				continue
			}
			detail := args.Detail
			if detail == DetailFull && !sr.Selected {
				detail = pick.next(e, h.Score)
				if seen[e] || h.Match == search.MatchBrowse {
					// An earlier query's result shows it already, or it did not match at all.
					detail = DetailCompact
				}
			}
			it := s.item(snap, e, h.Score, detail)
			it.need, it.rank = n, len(items)+1
			if len(needs) > 1 {
				it.Query = q
			}
			seen[e] = true
			items = append(items, it)
		}
		if descFrom >= 0 {
			if err := s.pageDescription(sr.Selected, items, descFrom); err != nil {
				return nil, err
			}
		}
		total := sr.Total
		if sr.Selected {
			total = len(items)
		}
		browse := len(sr.Hits) > 0 && sr.Hits[0].Match == search.MatchBrowse
		w := !sr.Selected && len(items) > 0 && (browse || weakMatch(q, sr.Hits[0].Match, items[0].entry))
		weak = weak && w
		if browse {
			total = 0
		}
		g := group{NeedResult: NeedResult{Query: q, Total: total, Weak: w}, browse: browse, relaxed: sr.Relaxed, selected: sr.Selected}
		g.Guidance = g.guidance()
		res.groups = append(res.groups, g)
		res.Total += total
		res.Unknown = append(res.Unknown, sr.Unknown...)
		for k, v := range sr.Ambiguous {
			if res.Ambiguous == nil {
				res.Ambiguous = map[string][]string{}
			}
			res.Ambiguous[k] = v
		}
		res.Results = append(res.Results, items...)
		if len(needs) > 1 {
			res.Needs = append(res.Needs, g.NeedResult)
		}
	}
	res.Weak = len(res.Results) > 0 && weak
	s.addStateNotes(snap, res)
	addInstructions(snap, res)
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
	maxFull      int
	best         float64
	full, bodies int
}

func (p *detailPicker) next(e *catalog.Entry, score float64) string {
	if p.full == 0 && p.bodies == 0 {
		p.best = score
	}
	switch {
	case p.full >= p.maxFull, p.full > 0 && score < p.best*closeToBest:
		return DetailCompact
	case e.Kind == catalog.KindSkill && p.bodies >= maxSkillBodies:
		return DetailCompact
	}
	p.full++
	if e.Kind == catalog.KindSkill {
		p.bodies++
	}
	return DetailFull
}

func checkSearchArgs(a *SearchArgs) error {
	if utf8.RuneCountInString(a.Query) > MaxQueryLen {
		return fmt.Errorf("query is %d characters; the limit is %d: use a few keywords", utf8.RuneCountInString(a.Query), MaxQueryLen)
	}
	var probs []string
	if len(a.Queries) > MaxQueries {
		probs = append(probs, fmt.Sprintf("queries holds %d searches; the limit is %d: one query per need, a few keywords each", len(a.Queries), MaxQueries))
	}
	for i, q := range a.Queries {
		switch n := utf8.RuneCountInString(q); {
		case strings.TrimSpace(q) == "":
			probs = append(probs, fmt.Sprintf("queries[%d] is empty: give each need a few keywords", i))
		case n > MaxQueryLen:
			probs = append(probs, fmt.Sprintf("queries[%d] is %d characters; the limit is %d: use a few keywords", i, n, MaxQueryLen))
		}
	}
	if len(a.Queries) > 0 && a.Cursor != "" {
		probs = append(probs, "cursor continues an empty-query listing; it does not go with queries")
	}
	if len(probs) > 0 {
		return errors.New(strings.Join(probs, "; "))
	}
	switch {
	case a.Limit == 0:
		a.Limit = DefaultLimit
	case a.Limit < 1 || a.Limit > MaxLimit:
		return fmt.Errorf("limit must be between 1 and %d, got %d", MaxLimit, a.Limit)
	}
	switch {
	case a.Kind == "" || a.Kind == anyKind:
		a.Kind = ""
	case !slices.Contains(searchKinds, a.Kind):
		return fmt.Errorf(`kind must be %s, got %s`, valuesOf(searchInputSchema.Properties["kind"]), quoteName(a.Kind))
	}
	switch {
	case a.Detail == "":
		a.Detail = searchDetails[0]
	case !slices.Contains(searchDetails, a.Detail):
		return fmt.Errorf(`detail must be %s, got %s`, valuesOf(searchInputSchema.Properties["detail"]), quoteName(a.Detail))
	}
	return nil
}

// item renders one entry at the given detail.
func (s *Server) item(snap *catalog.Snapshot, e *catalog.Entry, score float64, detail string) ResultItem {
	it := ResultItem{Kind: string(e.Kind), Name: e.Name, Source: e.Source, Score: round(score), entry: e, Changed: e.Changed, Quarantined: heldInfo(e)}
	if src, ok := snap.Source(e.Source); ok {
		if src.Kind == catalog.SourceServer && src.State != catalog.StateActive {
			it.State = string(src.EntryState())
			it.stateReason = src.LastError
		}
		if e.Kind == catalog.KindTool && (src.Kind == catalog.SourceTools || e.Policy == catalog.PolicyVisibleOnly || e.Held()) {
			it.Callable = ptr(false)
		}
	}
	if !e.ForModel() {
		it.Callable = ptr(false) // a person picks it; call_tool cannot
	}
	if e.Kind == catalog.KindTool && it.Callable == nil {
		it.Proxy = proxyFor(e)
	}
	it.Notes = itemNotes(&it)
	if note := s.largeResultNote(&it); note != "" {
		it.Notes = append(it.Notes, note)
	}
	s.setDetail(&it, detail)
	return it
}

// setDetail (re)fills an item's detail-dependent fields. A tool's
// description, which the scanner judged as written, is shown without the
// characters that hide text (scan.DropHidden) that it let pass in context
// (a zero-width joiner in an emoji, a stray zero-width space).
func (s *Server) setDetail(it *ResultItem, detail string) {
	s.fillDetail(it, detail)
	if it.entry.Kind == catalog.KindTool {
		it.Description = scan.DropHidden(it.Description)
	}
}

// fillDetail is setDetail's filling.
func (s *Server) fillDetail(it *ResultItem, detail string) {
	e := it.entry
	it.Detail, it.text = detail, ""
	it.Signature, it.InputSchema, it.Annotations, it.Body, it.Files = "", nil, nil, "", nil
	it.Arguments, it.MIMEType, it.More, it.bodyCut = nil, "", "", 0
	it.Description = e.Summary
	if !e.ForModel() {
		setFeatureDetail(it, detail)
		return
	}
	if e.Held() { // only what was approved before; the held definition stays out
		if detail == DetailFull {
			it.Description, it.More = descriptionPage(e.Name, e.Description, it.descFrom)
		}
		return
	}
	switch detail {
	case DetailFull:
		it.Description = e.Description
		if e.Kind == catalog.KindTool {
			it.Description, it.More = descriptionPage(e.Name, e.Description, it.descFrom)
			it.InputSchema = e.Tool.InputSchema
			if e.Tool.Annotations != nil {
				it.Annotations = e.Tool.Annotations
			}
		} else {
			it.Body = e.Skill.Body
			for _, f := range ownFiles(e.Skill) {
				if f.Path != skill.FileName {
					it.Files = append(it.Files, FileInfo{f.Path, f.Size})
				}
			}
		}
	case DetailCompact:
		if e.Kind == catalog.KindTool {
			it.Signature = s.signature(e)
		}
	}
}

// signature is Signature for a catalog entry, computed once per snapshot.
func (s *Server) signature(e *catalog.Entry) string {
	if sig, ok := s.signatures.Load(e); ok {
		return sig.(string)
	}
	sig := Signature(e.Name, e.Tool.InputSchema)
	s.signatures.Store(e, sig)
	return sig
}

// addStateNotes explains results (or their absence) that depend on a
// server that is not serving normally. Servers still starting whose tools
// are not known yet are named whatever matched: they may hold what was
// asked for, and a first search right after start would otherwise read as
// if nothing could. Other servers without tools (failed, needing a login,
// disabled) are named, with their error, when nothing or only a weak match
// was found, or when the query names them.
func (s *Server) addStateNotes(snap *catalog.Snapshot, res *SearchResult) {
	for _, src := range snap.Sources {
		if src.Kind != catalog.SourceServer || src.State == catalog.StateActive || len(src.Entries) > 0 {
			continue
		}
		if src.State == catalog.StateConnecting || src.State == catalog.StateValidating {
			res.Connecting = append(res.Connecting, src.Name)
			continue
		}
		// A server the query names is noted whatever matched: what did
		// match is not what was asked for (a weak match at best).
		if len(res.Results) > 0 && !res.Weak && !namesServer(res.Query, src.Name) {
			continue
		}
		if unavailable(src) {
			res.Notes = append(res.Notes, unavailableNote(src))
		}
	}
	if n := len(res.Connecting); n > 0 {
		names := res.Connecting[:min(n, maxListed)]
		list := strings.Join(names, ", ")
		if n > len(names) {
			list += fmt.Sprintf(" and %d more", n-len(names))
		}
		note := "server " + list + " is still starting: its tools are"
		if n > 1 {
			note = "servers " + list + " are still starting: their tools are"
		}
		res.Notes = append(res.Notes, note+" not known yet and may hold what you need; search again in a few seconds")
	}
}

// fitBudget degrades the result until its text fits the result budget:
// lowest-ranked full items become compact first, then skill bodies are cut,
// then items fall back to names, then the last items go.
func (s *Server) fitBudget(res *SearchResult) {
	budget := s.opts.ResultBudget
	fits := func() bool {
		// A token is at least one byte: short texts need no tokenizer pass.
		return res.textLen() <= budget || s.countResult(res) <= budget
	}
	defer func() { res.text, res.Guidance = res.Text(), res.guidance() }()
	if fits() {
		return
	}
	if len(res.Instructions) > 0 { // the schemas matter more to a call
		res.Instructions = nil
		res.Notes = append(res.Notes, "server instructions left out to fit the result budget")
		if fits() {
			return
		}
	}
	res.Notes = append(res.Notes, res.shortenedNote(budget))
	order := res.shedOrder()
	for _, i := range order {
		if fits() {
			break
		}
		if it := &res.Results[i]; it.Detail == DetailFull && it.Kind == string(catalog.KindTool) {
			s.setDetail(it, DetailCompact)
		}
	}
	for _, i := range order {
		if fits() {
			break
		}
		if it := &res.Results[i]; it.Body != "" {
			s.cutBody(res, it)
		}
	}
	for _, i := range order {
		if fits() {
			break
		}
		if it := &res.Results[i]; it.Detail != DetailNames {
			s.setDetail(it, DetailNames)
		}
	}
	for len(res.Results) > 0 && !fits() {
		drop := res.shedOrder()[0]
		res.Results = slices.Delete(res.Results, drop, drop+1)
		if drop < len(res.Results) {
			res.Results[drop].text = "" // its heading depends on the item before it
		}
	}
}

// textLen is the length of res.Text(), rendering each item once.
func (r *SearchResult) textLen() int {
	n := len(r.header())
	for i := range r.Results {
		n += len(itemSep) + len(r.renderItem(i))
	}
	return n
}

// countResult counts the tokens of res.Text() item by item, so that an
// item's count can be remembered (see textCounts): the text is the header
// and the items joined by a blank line, and every item starts with a name
// or "## ", so each item (with the blank line after it) is a run of whole
// pieces that tokens.Counter counts alone, and the sum is exact.
func (s *Server) countResult(res *SearchResult) int {
	head := res.header()
	if len(res.Results) == 0 {
		return s.tok.Count(head)
	}
	n := s.tok.Count(head + itemSep)
	counts := textCounts(s.tok)
	for i := range res.Results {
		n += counts.count(res.renderItem(i), i < len(res.Results)-1)
	}
	return n
}

// shedOrder lists the results' indexes in the order they give way to the budget: the
// lowest ranked first, taking turns between the queries of a search of several (the last
// query first), so that every need keeps its best results longest.
func (r *SearchResult) shedOrder() []int {
	order := make([]int, len(r.Results))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := &r.Results[a], &r.Results[b]
		if x.rank != y.rank {
			return y.rank - x.rank
		}
		if x.need != y.need {
			return y.need - x.need
		}
		return b - a
	})
	return order
}

// cutBody shortens a skill body until the result fits its budget, keeping
// whole lines; the text says where to read the rest.
func (s *Server) cutBody(res *SearchResult, it *ResultItem) {
	budget := s.opts.ResultBudget
	full := it.entry.Skill.Body
	lo, hi := 0, len(full)
	for lo < hi { // longest prefix that fits, by bisection
		mid := (lo + hi + 1) / 2
		it.Body, it.bodyCut, it.text = full[:mid], len(full)-mid, ""
		it.More = bodyRest(it)
		if s.countResult(res) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	cut := lo
	if i := strings.LastIndexByte(full[:cut], '\n'); i > 0 {
		cut = i + 1
	}
	it.Body, it.bodyCut, it.text = full[:cut], len(full)-cut, ""
	if it.Body == "" {
		it.bodyCut = 0
	}
	it.More = bodyRest(it)
}

// bodyRest says where the rest of a body cut short is, or "".
func bodyRest(it *ResultItem) string {
	if it.Body == "" || it.bodyCut == 0 {
		return ""
	}
	return fmt.Sprintf("%d more bytes: read_skill_file {\"skill\": %q, \"path\": \"SKILL.md\"}", it.bodyCut, it.Name)
}

// listPage answers an empty query: the catalog, page by page.
func (s *Server) listPage(snap *catalog.Snapshot, args SearchArgs) (*SearchResult, error) {
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
	var entries []*catalog.Entry
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
	s.addStateNotes(snap, res)
	s.fitBudget(res)
	return res, nil
}

// itemSep separates the header and the items of a result's text.
const itemSep = "\n\n"

// Text renders the result as the text the model reads: a header, then the
// items, a blank line before each.
func (r *SearchResult) Text() string {
	var b strings.Builder
	b.WriteString(r.header())
	for i := range r.Results {
		b.WriteString(itemSep)
		b.WriteString(r.renderItem(i))
	}
	return b.String()
}

// header is what comes before the items: what the result holds and its
// guidance (see headerWriter), names not found, notes, the servers' own
// instructions, and the way to the next page.
func (r *SearchResult) header() string {
	w := r.compose()
	return w.text.String()
}

// guidance is what the header says beyond the facts and the notes, in
// sentences that stand without the text: SearchResult.Guidance.
func (r *SearchResult) guidance() string {
	w := r.compose()
	return strings.TrimSpace(w.guide.String())
}

// headerWriter builds a header's text and, beside it, its guidance: the
// structured result holds the facts and notes in fields of their own, and
// the guidance in words that do not lean on the text around them.
type headerWriter struct{ text, guide strings.Builder }

// fact writes text that only the text needs: the structured result has it.
func (w *headerWriter) fact(format string, args ...any) { fmt.Fprintf(&w.text, format, args...) }

// advise writes text, and guide as the same advice in the guidance.
func (w *headerWriter) advise(text, guide string) {
	w.text.WriteString(text)
	if guide != "" {
		if w.guide.Len() > 0 {
			w.guide.WriteByte(' ')
		}
		w.guide.WriteString(guide)
	}
}

func (r *SearchResult) compose() *headerWriter {
	w := &headerWriter{}
	switch {
	case r.listing:
		w.fact("Catalog: %d entries", r.Total)
		if len(r.Results) > 0 {
			w.fact("; this page lists %d-%d", r.offset+1, r.offset+len(r.Results))
		}
		w.advise(". Use select:<name> to load one.", "Use select:<name> to load an entry in full.")
	case len(r.Results) == 0:
		w.fact("Nothing in the catalog matches %q among %d entries.", r.Query, r.catalogSize)
		const try = "Try other or fewer keywords, or an empty query to list everything."
		w.advise(" "+try, "Nothing matches the query. "+try)
	case len(r.groups) > 1:
		w.fact("%s for %d queries (%d matched among %d entries), grouped by query.", plural(len(r.Results), "result"), len(r.groups), r.Total, r.catalogSize)
		r.adviseCalls(w)
	case len(r.groups) == 1 && r.groups[0].browse:
		const try = "try other keywords (in the catalog's language), or an empty query to list everything."
		w.advise(fmt.Sprintf("Nothing matches %q among %d entries. Here are %s to start from, one per server first: %s",
			r.Query, r.catalogSize, plural(len(r.Results), "entry"), try),
			"Nothing matches the query: the results are entries to start from, one per server first. Or "+try)
		r.adviseCalls(w)
	default:
		if len(r.groups) == 1 && r.groups[0].relaxed {
			w.advise(fmt.Sprintf("No entry has every +term of %q: these are the best matches of all its words.\n", r.Query),
				"No entry has every +term of the query: the results are the best matches of all its words.")
		}
		if r.Weak {
			const try = "Try other words, or select:<name> if you know the name."
			w.advise(fmt.Sprintf("No strong match for %q: the best result shares few of its words where it counts (name, title, description). %s\n", r.Query, try),
				"No strong match: the best result shares few of the query's words where it counts (name, title, description). "+try)
		}
		w.fact("%s for %q (%d matched among %d entries).", plural(len(r.Results), "result"), r.Query, r.Total, r.catalogSize)
		r.adviseCalls(w)
	}
	if len(r.Unknown) > 0 {
		w.advise(fmt.Sprintf("\nUnknown names: %s (search by keywords instead).", strings.Join(r.Unknown, ", ")),
			"The names in unknown are not in the catalog: search by keywords instead.")
	}
	for i, name := range sortedKeys(r.Ambiguous) {
		guide := ""
		if i == 0 {
			guide = "Each name in ambiguous matches several entries: select one of them."
		}
		w.advise(fmt.Sprintf("\n%s matches several entries: %s; select one of them.", name, strings.Join(r.Ambiguous[name], ", ")), guide)
	}
	for _, n := range r.Notes {
		w.fact("\nNote: %s", n)
	}
	for _, name := range sortedKeys(r.Instructions) {
		w.fact("\n%s", instructionsLine(name, r.Instructions[name]))
	}
	if r.NextCursor != "" {
		next := fmt.Sprintf("Next page: tool_search {\"query\": \"\", \"cursor\": %q}", r.NextCursor)
		w.advise("\n"+next, next+".")
	}
	return w
}

// adviseCalls says how to use what was found: tools through the proxy each
// names, a skill's files with read_skill_file, and that prompts and
// resources are not called.
func (r *SearchResult) adviseCalls(w *headerWriter) {
	for _, it := range r.Results {
		if it.Proxy != "" {
			how := fmt.Sprintf(`%s {"name": %q, "arguments": {...}}.`, it.Proxy, it.Name)
			w.advise(" Call each tool through the proxy named with it, e.g. "+how, "Call each tool through the proxy its result names, e.g. "+how)
			break
		}
	}
	for _, it := range r.Results {
		if len(it.Files) > 0 || it.More != "" {
			w.advise("", "Read a skill's files with read_skill_file and run its scripts with run_skill_script.")
			break
		}
	}
	for _, it := range r.Results {
		if !it.entry.ForModel() {
			const why = "Prompts and resources are not called: the user picks them from the host's prompt and resource menus, so mention them when they fit."
			w.advise(" "+why, why)
			break
		}
	}
}

// renderItem returns the text of result i, rendered once: an item's text
// is kept until its detail changes, or until the item before it goes. It
// starts with the entry's name, "## " and its rank, or, first of its query
// in a search of several, "# " and the query's heading; countResult relies
// on that.
func (r *SearchResult) renderItem(i int) string {
	it := &r.Results[i]
	if it.text != "" {
		return it.text
	}
	if r.listing {
		via := ""
		if it.Proxy != "" {
			via = ", via " + it.Proxy
		}
		it.text = fmt.Sprintf("%s (%s, %s%s) — %s", it.Name, it.Kind, it.Source, via, it.Description)
		return it.text
	}
	var b strings.Builder
	rank := i + 1
	if len(r.groups) > 1 {
		if i == 0 || r.Results[i-1].need != it.need {
			writeGroupHeading(&b, r.groups[it.need])
		}
		rank = it.rank
	}
	writeItem(&b, rank, it)
	it.text = b.String()
	return it.text
}

// writeGroupHeading heads the results of one query of a search of several.
func writeGroupHeading(b *strings.Builder, g group) {
	fmt.Fprintf(b, "# %q: %d matched", g.Query, g.Total)
	if g.Guidance != "" {
		b.WriteString("; " + g.Guidance)
	}
	b.WriteString(itemSep)
}

// guidance is what a query's heading says when it matched nothing or
// weakly: NeedResult.Guidance.
func (g group) guidance() string {
	switch {
	case g.browse:
		return "nothing matches it, so these are entries to start from: try other keywords"
	case g.relaxed:
		return "no entry has every +term, so these match its other words"
	case g.Weak:
		return "no strong match: try other words, or select:<name>"
	}
	return ""
}

// itemNotes are the marks an item's text carries after its heading:
// ResultItem.Notes.
func itemNotes(it *ResultItem) []string {
	var notes []string
	switch catalog.State(it.State) {
	case "":
	// A call waits for a server that is starting or re-listing its tools.
	case catalog.StateCached:
		notes = append(notes, "cached: its last known definition; the server is starting, and a call waits for it")
	case catalog.StateConnecting:
		notes = append(notes, "connecting: a call waits for the server to start")
	case catalog.StateValidating:
		notes = append(notes, "validating: the server is re-listing its tools; a call waits for it")
	default:
		note := fmt.Sprintf("server %s: calls fail until it is active", it.State)
		if it.stateReason != "" {
			note += "; " + upstreamError(it.stateReason)
		}
		notes = append(notes, note)
	}
	switch {
	case it.Quarantined != nil:
		notes = append(notes, heldNote(it.Quarantined))
	case it.Callable != nil && !*it.Callable && it.entry.ForModel():
		if it.entry.Policy == catalog.PolicyVisibleOnly {
			notes = append(notes, "listed only: calls are refused by policy")
		} else {
			notes = append(notes, "no upstream server: not callable")
		}
	}
	if it.Changed {
		notes = append(notes, "changed since first seen: review before trusting")
	}
	return notes
}

func writeItem(b *strings.Builder, rank int, it *ResultItem) {
	title := it.Name
	if it.Signature != "" {
		title = it.Signature
	}
	fmt.Fprintf(b, "## %d. %s (%s from %s", rank, title, it.Kind, it.Source)
	if it.Proxy != "" {
		b.WriteString(", via " + it.Proxy)
	}
	b.WriteString(")")
	for _, n := range it.Notes {
		b.WriteString(" [" + n + "]")
	}
	if it.Description != "" {
		b.WriteString("\n" + it.Description)
	}
	if it.More != "" && it.Body == "" { // a description shown a page at a time
		b.WriteString("\n[… " + it.More + "]")
	}
	if it.InputSchema != nil {
		b.WriteString("\ninputSchema: " + compactJSON(it.InputSchema))
	}
	if len(it.Arguments) > 0 {
		b.WriteString("\narguments: " + promptArguments(it.Arguments))
	}
	if it.MIMEType != "" {
		b.WriteString("\nmimeType: " + it.MIMEType)
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
		if it.More != "" {
			b.WriteString("\n[… " + it.More + "]")
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

// weakMatch reports whether a search's best hit is a poor match: matched
// neither by its name (exactly or as a prefix) nor by any word of the query
// in its name, title or description (only in weaker fields: parameters, a
// skill's body, its server), or, for a short keyword query, by fewer than
// half of its words there. A long request names many things a tool does not
// (the values, the circumstances), so its share says little.
func weakMatch(query string, m search.Match, e *catalog.Entry) bool {
	if m == search.MatchExact || m == search.MatchPrefix {
		return false
	}
	text := e.Name + " " + e.Description
	if e.Tool != nil {
		text += " " + e.Tool.Title
	}
	matched, total := search.Overlap(query, text)
	return total > 0 && (matched == 0 || total <= shortQuery && 2*matched < total)
}

// shortQuery is the most words (stop words aside) a keyword query has.
const shortQuery = 4
