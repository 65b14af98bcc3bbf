package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/skill"
)

// Sizes above which an entry is flagged in a report.
const (
	// MaxSkillBodyTokens follows the Agent Skills guidance to keep SKILL.md
	// under 5,000 tokens and move the rest into referenced files.
	MaxSkillBodyTokens = 5000
	// MaxToolTokens flags a single tool definition that costs as much as a
	// dozen ordinary ones wherever it is loaded.
	MaxToolTokens = 2000
)

// OverheadSource names the report row for what toolsearch itself puts up
// front: the intro of tool_search's description, its own tools' schemas and
// its instructions.
const OverheadSource = "toolsearch"

// TokenizerNote goes with every figure: the encodings are public stand-ins.
const TokenizerNote = "Claude's own tokenizer differs from this one (and is not public): compare the figures with each other, not with Claude's token counts."

// MeasureClientName is how Measure's own client introduces itself, so that
// its session can be told from real ones.
const MeasureClientName = "toolsearch-measure"

// measureProtocol is the protocol measured sessions negotiate: the one hosts
// speak today. Later versions add a few tokens of _meta to every result.
const measureProtocol = "2025-11-25"

// MeasureOptions configure Measure.
type MeasureOptions struct {
	// Queries are the requests per-search cost is measured over. Without
	// any, each listed entry's one-liner is a query.
	Queries []string
	// QuerySource says where the queries came from, for the report.
	QuerySource string
	// DefaultOnly measures searches at the default detail level only,
	// which is all that break-even needs.
	DefaultOnly bool
}

// Report is what deferring the catalog saves, measured over the exact text
// the server sends.
type Report struct {
	Tokenizer     string `json:"tokenizer"`
	TokenizerNote string `json:"tokenizerNote"`
	ListingBudget int    `json:"listingBudget"`
	ResultBudget  int    `json:"resultBudget"`

	// Sources has one row per catalog source, then the OverheadSource row;
	// the rows' up-front figures add up to Total's.
	Sources []SourceCost `json:"sources"`
	Total   SourceCost   `json:"total"`
	// ToolsList and Instructions split Total.UpFront: every page of the real
	// tools/list result, and the initialize result's instructions.
	ToolsList    int `json:"toolsListTokens"`
	ListedTools  int `json:"listedTools"` // tools in that tools/list
	Instructions int `json:"instructionsTokens"`

	QuerySource string       `json:"querySource"`
	Queries     int          `json:"queries"`
	Search      []SearchCost `json:"search"` // the default detail first
	// BreakEven is how many default searches a session can make before
	// deferring costs more than eager loading; 0 when nothing is saved or
	// nothing was searched.
	BreakEven int `json:"breakEven"`

	// The second baseline, names-only deferral as a host does it itself
	// (see hostdeferral.go): HostFixed is what it costs with no tool at
	// all (the host's search tool and its list's frame), NameTokens the
	// mean cost of one tool's name line.
	HostFixed  int     `json:"hostFixedTokens"`
	NameTokens float64 `json:"meanNameTokens"`
	// PaysOffAt is the number of tools from which toolsearch's up-front
	// cost stays below the host's names-only list, at every larger size:
	// the host's list grows by a name per tool, toolsearch's listing by a
	// shorter name (the group says the server) and never past its budget
	// (see paysOffAt). 0 when there is no tool to measure a name by.
	PaysOffAt int `json:"paysOffAtTools"`

	Flags []Flag `json:"flags,omitempty"`

	// CodeMode compares, per task of ExampleCodeTasks whose tools are
	// callable here, the work done call by call with one script.
	CodeMode []CodeTaskCost `json:"codeMode,omitempty"`
}

// SourceCost is one row of a report.
type SourceCost struct {
	Name    string `json:"name"`
	Kind    string `json:"kind,omitempty"`
	Entries int    `json:"entries"` // listed ones
	// Eager is what loading everything up front would cost: each tool's
	// definition as in a tools/list result, each skill's SKILL.md body.
	Eager int `json:"eagerTokens"`
	// Instructions is the part of Eager and NamesOnly that is the server's
	// own instructions, which a host sends up front when connected to it
	// directly. InstructionsUpFront is the part of UpFront that carries
	// them (toolsearch shows them with the server's search results).
	Instructions        int `json:"instructionsTokens,omitempty"`
	InstructionsUpFront int `json:"instructionsUpFrontTokens,omitempty"`
	// UpFront is what toolsearch puts in the context for this source: its
	// lines of the listing and its always-loaded tools' definitions.
	UpFront  int     `json:"upFrontTokens"`
	Saved    int     `json:"savedTokens"`
	SavedPct float64 `json:"savedPercent"`
	// NamesOnly is what the host's own deferral would put up front for
	// this source: a name line per tool, a name and description per skill,
	// and the instructions; on the OverheadSource row, the host's search
	// tool. SavedVsNamesOnly is what toolsearch saves against it (negative
	// when it costs more).
	NamesOnly        int `json:"namesOnlyTokens"`
	SavedVsNamesOnly int `json:"savedVsNamesOnlyTokens"`
	// SkillFileBytes is the size of the source's SKILL.md files.
	SkillFileBytes int64 `json:"skillFileBytes,omitempty"`
}

// SearchCost sums up the sizes of tool_search results at one detail level,
// in tokens of the text the model reads.
type SearchCost struct {
	Detail  string  `json:"detail"`
	Default bool    `json:"default,omitempty"` // what the model gets when it names no detail
	Mean    float64 `json:"mean"`
	Median  int     `json:"median"`
	P95     int     `json:"p95"`
	Max     int     `json:"max"`
}

// Flag marks an entry too big for comfort.
type Flag struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
	Tokens int    `json:"tokens"`
	Limit  int    `json:"limit"`
}

// Measure reports, per source and in total, what eager loading of the
// catalog would cost, what this server really puts up front, and what its
// searches cost. Everything is counted over text rendered by the server's
// own code: the tools/list and instructions of a real MCP session, and the
// text of real tool_search results.
func (s *Server) Measure(ctx context.Context, opts MeasureOptions) (*Report, error) {
	snap := s.Snapshot()
	up, err := s.measureUpFront(ctx)
	if err != nil {
		return nil, err
	}
	rep := &Report{
		Tokenizer:     s.tok.Name(),
		TokenizerNote: TokenizerNote,
		ListingBudget: s.opts.ListingBudget,
		ResultBudget:  s.opts.ResultBudget,
		ToolsList:     up.toolsList,
		ListedTools:   len(up.tools),
		Instructions:  up.instructions,
	}
	var names nameLines
	rep.Sources, rep.Flags, names = s.sourceCosts(snap, up)
	rep.Total = SourceCost{Name: "total", UpFront: up.toolsList + up.instructions}
	attributed := 0
	for _, row := range rep.Sources {
		rep.Total.Entries += row.Entries
		rep.Total.Eager += row.Eager
		rep.Total.SkillFileBytes += row.SkillFileBytes
		attributed += row.UpFront
	}
	// What no source accounts for is toolsearch's own, so that the rows
	// add up to the real total.
	rep.HostFixed = s.tok.Count(hostFixedText())
	overhead := SourceCost{Name: OverheadSource, UpFront: rep.Total.UpFront - attributed, NamesOnly: rep.HostFixed}
	overhead.settle()
	for _, row := range rep.Sources {
		rep.Total.NamesOnly += row.NamesOnly
		rep.Total.Instructions += row.Instructions
		rep.Total.InstructionsUpFront += row.InstructionsUpFront
	}
	rep.Total.NamesOnly += rep.HostFixed
	rep.Sources = append(rep.Sources, overhead)
	rep.Total.settle()

	queries, source := opts.Queries, opts.QuerySource
	if len(queries) == 0 {
		queries, source = OneLinerQueries(snap), "the entries' one-liners"
	}
	rep.QuerySource, rep.Queries = source, len(queries)
	levels := detailLevels()
	if opts.DefaultOnly {
		levels = levels[:1]
	}
	for i, detail := range levels {
		cost, err := s.searchCost(ctx, queries, detail)
		if err != nil {
			return nil, err
		}
		cost.Default = i == 0
		rep.Search = append(rep.Search, cost)
	}
	if mean := rep.Search[0].Mean; mean > 0 && rep.Total.Saved > 0 {
		rep.BreakEven = int(float64(rep.Total.Saved) / mean)
	}
	rep.NameTokens, rep.PaysOffAt = s.paysOffAt(names, s.listingLines(snap), overhead.UpFront, rep.HostFixed)
	rep.CodeMode = s.MeasureCode(ctx, ExampleCodeTasks)
	return rep, nil
}

// sourceCosts makes one row per source of the snapshot: its eager cost,
// and its share of what a session received up front (its listing lines
// and its always-loaded tools). It flags entries over the limits, and sums
// up the tools' name lines for paysOffAt.
func (s *Server) sourceCosts(snap *catalog.Snapshot, up *upFront) ([]SourceCost, []Flag, nameLines) {
	rows := make([]SourceCost, len(snap.Sources))
	byName := map[string]*SourceCost{}
	for i, src := range snap.Sources {
		rows[i] = SourceCost{Name: src.Name, Kind: string(src.Kind)}
		byName[src.Name] = &rows[i]
	}
	var flags []Flag
	var names nameLines
	for _, src := range snap.Sources {
		if src.Instructions == "" {
			continue
		}
		row := byName[src.Name]
		row.Instructions = s.tok.Count(src.Instructions)
		row.Eager += row.Instructions
		row.NamesOnly += row.Instructions
		if strings.Contains(up.text, jsonEscaped(src.Instructions)) || strings.Contains(up.text, src.Instructions) {
			row.InstructionsUpFront = row.Instructions
		}
	}
	for _, c := range eagerCosts(snap, s.tok.Count) {
		row := byName[c.entry.Source]
		row.Entries++
		row.Eager += c.tokens
		nameTokens := s.tok.Count(namesOnlyText(c.entry))
		row.NamesOnly += nameTokens
		if c.entry.Kind == catalog.KindTool {
			names.tokens += nameTokens
			names.tools++
		}
		if c.entry.Kind == catalog.KindSkill {
			if f, ok := c.entry.Skill.File(skill.FileName); ok {
				row.SkillFileBytes += f.Size
			}
		}
		if f, over := c.flag(); over {
			flags = append(flags, f)
		}
	}
	for name, n := range s.listingTokensBySource(snap, up.description) {
		if row := byName[name]; row != nil {
			row.UpFront += n
		}
	}
	for name, n := range up.tools {
		if e, ok := snap.Lookup(name); ok && e.Kind == catalog.KindTool && byName[e.Source] != nil {
			byName[e.Source].UpFront += n
		}
	}
	for i := range rows {
		rows[i].settle()
	}
	return rows, flags, names
}

// nameLines sums up the listed tools' name lines under the host's own
// deferral: their tokens, and how many tools there are.
type nameLines struct {
	tokens, tools int
}

// settle fills the derived fields of a row.
func (c *SourceCost) settle() {
	c.Saved = c.Eager - c.UpFront
	c.SavedVsNamesOnly = c.NamesOnly - c.UpFront
	if c.Eager > 0 {
		c.SavedPct = math.Round(1000*float64(c.Saved)/float64(c.Eager)) / 10
	}
}

func flagLimit(k catalog.Kind) int {
	if k == catalog.KindSkill {
		return MaxSkillBodyTokens
	}
	return MaxToolTokens
}

// Oversized flags the catalog's definitions over the limits measure's
// report flags (MaxToolTokens a tool, MaxSkillBodyTokens a skill's body),
// for catalog and scan: such a definition costs a dozen ordinary ones
// wherever it is loaded, and a result shows its description a page at a
// time (MaxDescriptionShown).
func (s *Server) Oversized() []Flag {
	var flags []Flag
	for _, c := range eagerCosts(s.Snapshot(), s.tok.Count) {
		if f, over := c.flag(); over {
			flags = append(flags, f)
		}
	}
	return flags
}

// flag is the report's flag of an entry over its limit, and whether it is.
func (c entryCost) flag() (Flag, bool) {
	limit := flagLimit(c.entry.Kind)
	return Flag{Name: c.entry.Name, Kind: string(c.entry.Kind), Source: c.entry.Source, Tokens: c.tokens, Limit: limit}, c.tokens > limit
}

// String says what is over which limit, as catalog and scan print it.
func (f Flag) String() string {
	what := "definition"
	if f.Kind == string(catalog.KindSkill) {
		what = "SKILL.md body"
	}
	return fmt.Sprintf("oversized: its %s is %s tokens, over the %s a %s should cost", what, thousands(f.Tokens), thousands(f.Limit), f.Kind)
}

// entryCost is what one entry costs when loaded eagerly.
type entryCost struct {
	entry  *catalog.Entry
	tokens int
}

// eagerCosts prices every listed entry as eager loading would: a tool as
// its JSON in a tools/list result (json.Marshal is what the SDK sends), a
// skill as its SKILL.md body. Hidden entries are left out: without
// toolsearch they would be loaded too, but counting them would credit
// toolsearch with a policy choice rather than with deferral.
func eagerCosts(snap *catalog.Snapshot, count countFunc) []entryCost {
	var costs []entryCost
	for _, e := range snap.Listed() {
		if !e.ForModel() {
			continue // prompts and resources never enter the model's context unasked
		}
		costs = append(costs, entryCost{e, count(eagerText(e))})
	}
	return costs
}

// upFront is what a fresh session receives before it asks for anything.
type upFront struct {
	toolsList    int            // tokens of every tools/list page
	tools        map[string]int // tokens of each listed tool's definition
	description  string         // tool_search's, as listed
	instructions int
	text         string // all of it, raw: tools/list pages, then instructions
}

// measureUpFront connects a client to a real MCP server of s and counts
// what it receives, over the exact bytes of the responses.
func (s *Server) measureUpFront(ctx context.Context) (*upFront, error) {
	ms := s.NewMCPServer()
	defer s.Release(ms)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := ms.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	rec := &recordingTransport{Transport: ct, method: "tools/list"}
	client := mcp.NewClient(&mcp.Implementation{Name: MeasureClientName, Version: s.opts.Version}, nil)
	cs, err := client.Connect(ctx, rec, &mcp.ClientSessionOptions{ProtocolVersion: measureProtocol})
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	for _, err := range cs.Tools(ctx, nil) { // every page
		if err != nil {
			return nil, fmt.Errorf("listing tools: %w", err)
		}
	}
	up := &upFront{tools: map[string]int{}}
	var text strings.Builder
	for _, page := range rec.recorded() {
		text.Write(page)
		up.toolsList += s.tok.Count(string(page))
		var list struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(page, &list); err != nil {
			return nil, fmt.Errorf("reading tools/list: %w", err)
		}
		for _, raw := range list.Tools {
			var t struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			}
			_ = json.Unmarshal(raw, &t) // a tool in a valid page
			up.tools[t.Name] = s.tok.Count(string(raw))
			if t.Name == ToolSearch {
				up.description = t.Description
			}
		}
	}
	if res := cs.InitializeResult(); res != nil {
		up.instructions = s.tok.Count(res.Instructions)
		text.WriteString(res.Instructions)
	}
	up.text = text.String()
	return up, nil
}

// listingLines are the mean costs of one entry in the listing of this
// catalog: with a one-liner at its shortest width, and as a name alone.
type listingLines struct {
	oneLiner, name float64
}

// listingLines measures what an entry of snap costs in the listing, each
// form rendered whole with no budget, less the headline.
func (s *Server) listingLines(snap *catalog.Snapshot) listingLines {
	groups := groupBySource(snap)
	entries := 0
	for _, g := range groups {
		entries += len(g.entries)
	}
	if entries == 0 {
		return listingLines{}
	}
	head := listingHeadline(groups, serversWaiting{})
	per := func(line func(*catalog.Entry) string, sep string) float64 {
		text, _ := fitAll(head, groups, math.MaxInt/2, s.tok.Count, line, sep)
		return float64(s.tok.Count(text)-s.tok.Count(head)) / float64(entries)
	}
	return listingLines{
		oneLiner: per(func(e *catalog.Entry) string {
			return listedName(e) + " — " + truncateRunes(e.Summary, shortestOneLiner)
		}, "\n"),
		name: per(listedName, ", "),
	}
}

// paysOffAt finds the catalog size from which toolsearch costs less up
// front than the host's names-only deferral, at that size and every larger
// one. The host pays its fixed cost (hostFixed) and a name line per tool,
// priced at the mean over this catalog's tools as sourceCosts counted
// them. toolsearch pays its own (overhead: its tools, instructions and the
// listing's headline) and the listing as renderListing makes it for a
// catalog of n entries like these: the whole budget while one-liners fit
// (the widest that fits may fill it), then a name per entry while names
// fit, then the part of it the counts take (countsBudget). It returns the host's mean name cost,
// and 0 tools when the catalog has none.
func (s *Server) paysOffAt(names nameLines, lines listingLines, overhead, hostFixed int) (meanName float64, tools int) {
	if names.tools == 0 || lines.name <= 0 {
		return 0, 0
	}
	meanName = float64(names.tokens) / float64(names.tools)
	budget := float64(s.opts.ListingBudget)
	listing := func(n int) float64 {
		switch {
		case float64(n)*lines.oneLiner <= budget:
			return budget
		case float64(n)*lines.name <= budget:
			return float64(n) * lines.name
		}
		return float64(countsBudget(s.opts.ListingBudget))
	}
	// Past both the last size at which names fit and the size at which
	// the host's list outgrows the whole budget, nothing changes.
	last := int(math.Ceil(max(budget/lines.name, (float64(overhead)+budget-float64(hostFixed))/meanName))) + 1
	tools = 1
	for n := 1; n <= last; n++ {
		if float64(overhead)+listing(n) > float64(hostFixed)+meanName*float64(n) {
			tools = n + 1
		}
	}
	return math.Round(10*meanName) / 10, tools
}

// listingTokensBySource splits tool_search's description into the groups
// of the listing, which start with a "[source]" line or prefix, and counts
// each as it appears in tools/list: JSON-escaped inside the description.
// The sum of the parts differs from the whole by a token here and there;
// the report's total uses the whole.
func (s *Server) listingTokensBySource(snap *catalog.Snapshot, description string) map[string]int {
	groups := map[string][]string{}
	current := ""
	for line := range strings.SplitSeq(description, "\n") {
		if name, ok := groupSource(line); ok {
			if _, known := snap.Source(name); known {
				current = name
			}
		} else if strings.HasPrefix(line, "…and ") {
			current = "" // the sources that did not fit, summed up
		}
		if current != "" {
			groups[current] = append(groups[current], line)
		}
	}
	counts := map[string]int{}
	for name, lines := range groups {
		counts[name] = s.tok.Count(jsonEscaped("\n" + strings.Join(lines, "\n")))
	}
	return counts
}

// groupSource reads the source name of a listing group's first line, as
// groupHeader writes it.
func groupSource(line string) (string, bool) {
	if !strings.HasPrefix(line, "[") {
		return "", false
	}
	name, _, ok := strings.Cut(line[1:], "]")
	return name, ok && name != ""
}

// jsonEscaped is s as it appears inside a JSON string.
func jsonEscaped(s string) string {
	data, _ := json.Marshal(s)
	return string(data[1 : len(data)-1])
}

// detailLevels are the detail levels to measure: the default first.
func detailLevels() []string {
	def := SearchArgs{}
	_ = checkSearchArgs(&def) // resolves what the model gets when it names no detail
	levels := []string{def.Detail}
	for _, d := range []string{DetailFull, DetailCompact, DetailNames} {
		if d != def.Detail {
			levels = append(levels, d)
		}
	}
	return levels
}

// OneLinerQueries makes one query per listed entry from its one-liner, the
// way a model might describe what it needs. Measure uses them when it is
// given no queries.
func OneLinerQueries(snap *catalog.Snapshot) []string {
	var qs []string
	for _, e := range snap.Listed() {
		if !e.ForModel() {
			continue
		}
		q := e.Summary
		if q == "" {
			q = strings.NewReplacer("_", " ", "-", " ").Replace(e.Name)
		}
		qs = append(qs, q)
	}
	return qs
}

// searchCost runs every query at one detail level and sums up the sizes of
// the text the model would read; a refused query costs its error message.
// It stops when ctx ends: on a large catalog it runs for seconds.
func (s *Server) searchCost(ctx context.Context, queries []string, detail string) (SearchCost, error) {
	sizes := make([]int, 0, len(queries))
	for _, q := range queries {
		if err := ctx.Err(); err != nil {
			return SearchCost{}, err
		}
		text := ""
		if res, err := s.Search(SearchArgs{Query: q, Detail: detail}); err != nil {
			text = err.Error()
		} else {
			text = res.Text()
		}
		sizes = append(sizes, s.tok.Count(text))
	}
	return summarize(detail, sizes), nil
}

// summarize computes a SearchCost; percentiles are nearest-rank.
func summarize(detail string, sizes []int) SearchCost {
	c := SearchCost{Detail: detail}
	if len(sizes) == 0 {
		return c
	}
	slices.Sort(sizes)
	sum := 0
	for _, n := range sizes {
		sum += n
	}
	c.Mean = math.Round(10*float64(sum)/float64(len(sizes))) / 10
	c.Median = percentile(sizes, 50)
	c.P95 = percentile(sizes, 95)
	c.Max = sizes[len(sizes)-1]
	return c
}

// percentile is the nearest-rank p-th percentile of sorted values.
func percentile(sorted []int, p int) int {
	rank := int(math.Ceil(float64(p) / 100 * float64(len(sorted))))
	return sorted[max(rank, 1)-1]
}

// recordingTransport keeps the raw results of the responses to one method,
// so that what is counted is exactly the bytes the server sent, not a
// re-encoding of what the client decoded.
type recordingTransport struct {
	mcp.Transport
	method string

	mu      sync.Mutex
	pending map[jsonrpc.ID]bool
	results []json.RawMessage
}

func (t *recordingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: conn, t: t}, nil
}

func (t *recordingTransport) recorded() []json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.results)
}

type recordingConn struct {
	mcp.Connection
	t *recordingTransport
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method == c.t.method {
		c.t.mu.Lock()
		if c.t.pending == nil {
			c.t.pending = map[jsonrpc.ID]bool{}
		}
		c.t.pending[req.ID] = true
		c.t.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Result != nil {
		c.t.mu.Lock()
		if c.t.pending[resp.ID] {
			delete(c.t.pending, resp.ID)
			c.t.results = append(c.t.results, slices.Clone(resp.Result))
		}
		c.t.mu.Unlock()
	}
	return msg, err
}
