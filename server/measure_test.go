package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/internal/devsplit"
	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/skill"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server/tokens"
)

// devDir is the development split of the retrieval evaluation, outside the
// repository; tests that need it skip when it is absent.
var devDir = devsplit.Dir()

// Reference counts come from published test vectors, not from this code:
//   - cl100k_base: openai/tiktoken tests/test_encoding.py (test_simple,
//     test_simple_regex, test_basic_encode, test_encode_surrogate_pairs);
//   - o200k_base: tiktoken-go/tokenizer v0.10.0 tokenizer_test.go
//     (TestO200kBase), whose cl100k vectors agree with tiktoken's above.
//
// The token count is the length of the published id list. Two of
// tiktoken's vectors are left out because tiktoken-go differs on them: it
// splits "today\n \n" and "today\n  \n" into 3 tokens where tiktoken makes
// 2 ([31213, 27907], [31213, 14211]), so a whitespace run with a newline
// after spaces may count one token more than tiktoken would.
func TestTokenCountsMatchReference(t *testing.T) {
	tests := []struct {
		encoding, text string
		want           int
	}{
		{tokens.Cl100kBase, "hello world", 2},          // [15339, 1917]
		{tokens.Cl100kBase, "rer", 1},                  // [38149]
		{tokens.Cl100kBase, "'rer", 2},                 // [2351, 81]
		{tokens.Cl100kBase, "today\n ", 3},             // [31213, 198, 220]
		{tokens.Cl100kBase, " \u00850", 4},             // [220, 126, 227, 15]
		{tokens.Cl100kBase, "👍", 3},                    // [9468, 239, 235]
		{tokens.Cl100kBase, "supercalifragilistic", 7}, // tiktoken-go
		{tokens.O200kBase, "hello world", 2},           // [24912, 2375]
		{tokens.O200kBase, "hello  world", 3},          // [24912, 220, 2375]
		{tokens.O200kBase, "hello   world", 3},         // [24912, 256, 2375]
		{tokens.O200kBase, "'RE", 2},                   // [6, 1099]
		{tokens.O200kBase, "supercalifragilistic", 6},  // [17789, 5842, 366, 17764, 311, 6207]
		{tokens.O200kBase, "We know what we are, but know not what we may be.", 14},
		{tokens.O200kBase, "", 0},
	}
	for _, tt := range tests {
		if got := tokens.MustGet(tt.encoding).Count(tt.text); got != tt.want {
			t.Errorf("%s %q: %d tokens, want %d", tt.encoding, tt.text, got, tt.want)
		}
	}
}

// measureCatalog is testCatalog plus a skill and two entries over the
// flagging limits.
func measureCatalog(t *testing.T) *catalog.Catalog {
	c := testCatalog(t)
	body := "# Release notes\n\nCollect the merged changes since the last tag and write them up by theme.\n"
	c.Put(&catalog.Source{Name: loader.SkillsSourceName, Kind: catalog.SourceSkills, Entries: []*catalog.Entry{
		catalog.NewSkillEntry(loader.SkillsSourceName, &skill.Skill{Name: "release-notes", Description: "Write release notes from merged changes.", Body: body,
			Files: []skill.File{{Path: skill.FileName, Size: 1234}}}),
		catalog.NewSkillEntry(loader.SkillsSourceName, &skill.Skill{Name: "huge-skill", Description: "A skill with a very long body.", Body: strings.Repeat("Check every field twice. ", 2000),
			Files: []skill.File{{Path: skill.FileName, Size: 48000}}}),
	}})
	props := map[string]any{}
	for i := range 300 {
		props[fmt.Sprintf("field_%d", i)] = map[string]any{"type": "string", "description": "One of many fields."}
	}
	big := &mcp.Tool{Name: "big", Description: "A tool with a huge schema.", InputSchema: map[string]any{"type": "object", "properties": props}}
	c.Put(&catalog.Source{Name: "bigsrv", Kind: catalog.SourceTools, Instructions: bigsrvInstructions,
		Entries: []*catalog.Entry{catalog.NewToolEntry("bigsrv", "bigsrv__big", big)}})
	return c
}

// bigsrvInstructions are the instructions of measureCatalog's bigsrv.
const bigsrvInstructions = "Fill in every field of big: it refuses a call that leaves one out."

func TestMeasureReport(t *testing.T) {
	s, err := New(measureCatalog(t), Options{ListingBudget: DefaultListingBudget})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	queries := []string{"echo a message", "release notes", "select:srv__echo", "nothing matches zzzz"}
	rep, err := s.Measure(context.Background(), MeasureOptions{Queries: queries, QuerySource: "test"})
	if err != nil {
		t.Fatal(err)
	}
	count := s.Tokens().Count
	snap := s.Snapshot()

	// Eager: every listed entry, priced by hand.
	wantEager := map[string]int{}
	wantEntries := map[string]int{}
	for _, e := range snap.Listed() {
		var text string
		if e.Kind == catalog.KindSkill {
			text = e.Skill.Body
		} else {
			data, _ := json.Marshal(e.Exposed())
			text = string(data)
		}
		wantEager[e.Source] += count(text)
		wantEntries[e.Source]++
	}
	// A server's instructions, which a host connected to it directly
	// sends up front.
	wantEager["bigsrv"] += count(bigsrvInstructions)
	rows := map[string]SourceCost{}
	upSum := 0
	for _, r := range rep.Sources {
		rows[r.Name] = r
		upSum += r.UpFront
		if r.Eager != wantEager[r.Name] || r.Entries != wantEntries[r.Name] {
			t.Errorf("%s: eager %d over %d entries, want %d over %d", r.Name, r.Eager, r.Entries, wantEager[r.Name], wantEntries[r.Name])
		}
		if r.Saved != r.Eager-r.UpFront {
			t.Errorf("%s: saved %d != %d - %d", r.Name, r.Saved, r.Eager, r.UpFront)
		}
	}
	if rows["srv"].Entries != 3 {
		t.Errorf("srv lists %d entries, want 3 (the hidden one left out)", rows["srv"].Entries)
	}
	if rows[loader.SkillsSourceName].SkillFileBytes != 1234+48000 {
		t.Errorf("SKILL.md bytes = %d", rows[loader.SkillsSourceName].SkillFileBytes)
	}

	// Up-front: the rows add up to the real total, which is tools/list
	// plus instructions; the always-loaded tool is charged to its source.
	if upSum != rep.Total.UpFront || rep.Total.UpFront != rep.ToolsList+rep.Instructions {
		t.Errorf("up-front rows sum to %d; total %d = tools/list %d + instructions %d", upSum, rep.Total.UpFront, rep.ToolsList, rep.Instructions)
	}
	if rep.Instructions != count(Instructions) {
		t.Errorf("instructions %d tokens, want %d", rep.Instructions, count(Instructions))
	}
	if rep.ListedTools != 5 { // four of ours and srv__echo
		t.Errorf("tools/list has %d tools, want 5", rep.ListedTools)
	}
	echo, _ := snap.Lookup("srv__echo")
	echoDef, _ := json.Marshal(echo.Tool)
	if rows["srv"].UpFront <= count(string(echoDef)) || rows["dump"].UpFront == 0 || rows["dump"].UpFront > 20 {
		t.Errorf("up-front srv %d (with srv__echo's definition), dump %d (one listing line)", rows["srv"].UpFront, rows["dump"].UpFront)
	}
	if o := rows[OverheadSource]; o.UpFront < count(Instructions) || o.Eager != 0 {
		t.Errorf("overhead row %+v", o)
	}
	total := rep.Total
	if total.Saved != total.Eager-total.UpFront || total.SavedPct != roundPct(total.Saved, total.Eager) {
		t.Errorf("total %+v", total)
	}

	// Names-only: the host's own deferral, one name line per tool as the
	// host spells it, a skill's name and description, the instructions;
	// the host's search tool on the overhead row.
	wantNames := map[string]int{
		"bigsrv": count("mcp__bigsrv__big\n") + count(bigsrvInstructions),
		loader.SkillsSourceName: count("- release-notes: Write release notes from merged changes.\n") +
			count("- huge-skill: A skill with a very long body.\n"),
		OverheadSource: rep.HostFixed,
	}
	for name, want := range wantNames {
		if r := rows[name]; r.NamesOnly != want || r.SavedVsNamesOnly != r.NamesOnly-r.UpFront {
			t.Errorf("%s: names-only %d (saved %d), want %d", name, r.NamesOnly, r.SavedVsNamesOnly, want)
		}
	}
	if r := rows["bigsrv"]; r.Instructions != count(bigsrvInstructions) || r.InstructionsUpFront != 0 {
		t.Errorf("bigsrv instructions %d, up front %d; want %d, 0", r.Instructions, r.InstructionsUpFront, count(bigsrvInstructions))
	}
	namesSum := 0
	for _, r := range rep.Sources {
		namesSum += r.NamesOnly
	}
	if total.NamesOnly != namesSum || total.Instructions != count(bigsrvInstructions) || rep.HostFixed < 200 {
		t.Errorf("names-only total %d, rows %d; instructions %d; host fixed %d", total.NamesOnly, namesSum, total.Instructions, rep.HostFixed)
	}
	// From PaysOffAt tools on, the host's list costs at least toolsearch's
	// own part and its listing at that size (a name per tool, or the whole
	// budget, whichever the listing holds to); one tool fewer, it does not.
	lines := s.listingLines(s.Snapshot())
	host := func(tools int) float64 { return float64(rep.HostFixed) + float64(tools)*rep.NameTokens }
	ours := func(tools int) float64 {
		listing := float64(rep.ListingBudget)
		if n := float64(tools); n*lines.oneLiner > listing {
			listing = float64(countsBudget(rep.ListingBudget))
			if n*lines.name <= float64(rep.ListingBudget) {
				listing = n * lines.name
			}
		}
		return float64(rows[OverheadSource].UpFront) + listing
	}
	if p := rep.PaysOffAt; p < 2 || host(p) < ours(p)-0.5 || host(p-1) >= ours(p-1) || host(10*p) < ours(10*p) {
		t.Errorf("pays off at %d tools: host %.0f there, toolsearch %.0f; one fewer: %.0f and %.0f", p, host(p), ours(p), host(p-1), ours(p-1))
	}

	// Per-search cost: the default detail first, each level over every query.
	if len(rep.Search) != 3 || !rep.Search[0].Default || rep.Search[0].Detail != DetailFull {
		t.Fatalf("search rows %+v", rep.Search)
	}
	for _, c := range rep.Search {
		var sizes []int
		for _, q := range queries {
			res, err := s.Search(SearchArgs{Query: q, Detail: c.Detail})
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, count(res.Text()))
		}
		if want := summarize(c.Detail, sizes); c.Mean != want.Mean || c.Median != want.Median || c.P95 != want.P95 || c.Max != want.Max {
			t.Errorf("%s: %+v, want %+v", c.Detail, c, want)
		}
	}
	if rep.Queries != len(queries) || rep.QuerySource != "test" {
		t.Errorf("queries %d from %q", rep.Queries, rep.QuerySource)
	}
	if want := int(float64(total.Saved) / rep.Search[0].Mean); rep.BreakEven != want {
		t.Errorf("break-even %d, want %d", rep.BreakEven, want)
	}

	// Flags: the long skill body and the huge tool, nothing else.
	flagged := map[string]int{}
	for _, f := range rep.Flags {
		flagged[f.Name] = f.Limit
	}
	if len(flagged) != 2 || flagged["huge-skill"] != MaxSkillBodyTokens || flagged["bigsrv__big"] != MaxToolTokens {
		t.Errorf("flags %+v", rep.Flags)
	}
	if rep.Tokenizer != tokens.Default || !strings.Contains(rep.TokenizerNote, "Claude") {
		t.Errorf("tokenizer %q, note %q", rep.Tokenizer, rep.TokenizerNote)
	}
}

func roundPct(part, whole int) float64 {
	return float64(int(1000*float64(part)/float64(whole)+0.5)) / 10
}

func TestMeasureDefaultQueriesAreOneLiners(t *testing.T) {
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget})
	defer s.Close()
	rep, err := s.Measure(context.Background(), MeasureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Queries != len(s.Snapshot().Listed()) || !strings.Contains(rep.QuerySource, "one-liners") {
		t.Errorf("%d queries from %q", rep.Queries, rep.QuerySource)
	}
}

func TestSummarize(t *testing.T) {
	var sizes []int
	for i := 20; i >= 1; i-- {
		sizes = append(sizes, i*10)
	}
	got := summarize("full", sizes)
	want := SearchCost{Detail: "full", Mean: 105, Median: 100, P95: 190, Max: 200}
	if got != want {
		t.Errorf("summarize = %+v, want %+v", got, want)
	}
	if got := summarize("names", nil); got != (SearchCost{Detail: "names"}) {
		t.Errorf("no sizes: %+v", got)
	}
}

// scaledCatalog makes a catalog of n tools: the dev split's tools, copied
// under new names as often as needed, or synthetic ones without it.
func scaledCatalog(t testing.TB, n int) *catalog.Catalog {
	src, err := loader.LoadToolsFile(filepath.Join(devDir, "catalog.json"))
	if os.IsNotExist(err) {
		t.Log(devsplit.Missing() + ": using synthetic tools")
		return syntheticCatalog(n)
	}
	if err != nil {
		t.Fatal(err)
	}
	scaled := &catalog.Source{Name: "dev", Kind: catalog.SourceTools}
	for i := range n {
		e := src.Entries[i%len(src.Entries)]
		name := e.Name
		if copyN := i / len(src.Entries); copyN > 0 {
			name = fmt.Sprintf("%s_%d", name, copyN+1)
		}
		scaled.Entries = append(scaled.Entries, catalog.NewToolEntry("dev", name, e.Tool))
	}
	c := catalog.New(ReservedNames...)
	c.Put(scaled)
	return c
}

func TestUpFrontHoldsTheListingBudgetAtAnySize(t *testing.T) {
	var upFronts []int
	slack := 0 // the listing fills its budget to within one more name
	for _, n := range []int{300, 1000, 10000} {
		s, err := New(scaledCatalog(t, n), Options{ListingBudget: DefaultListingBudget})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Snapshot().Entries {
			slack = max(slack, s.Tokens().Count(", "+e.Name+", …"))
		}
		listing := renderListing(s.Snapshot(), DefaultListingBudget, s.Tokens().Count)
		got, budget := s.Tokens().Count(listing), countsBudget(DefaultListingBudget)
		if got > budget || got < budget-slack {
			t.Errorf("%d tools: listing takes %d tokens, want %d-%d", n, got, budget-slack, budget)
		}
		up, err := s.measureUpFront(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		total := up.toolsList + up.instructions
		t.Logf("%d tools: listing %d tokens, up-front %d", n, got, total)
		upFronts = append(upFronts, total)
		s.Close()
	}
	// Every size is over the budget, so up-front no longer grows: it moves
	// only with the digits of the counts and the names that happen to fit.
	lo, hi := slices.Min(upFronts), slices.Max(upFronts)
	if hi-lo > slack {
		t.Errorf("up-front tokens at 300, 1,000, 10,000 tools: %v; want them within %d tokens (one name)", upFronts, slack)
	}
}

// loadDevServer serves the dev split's catalog with the default budgets,
// skipping when the split is absent.
func loadDevServer(tb testing.TB) (*Server, []string) {
	tb.Helper()
	src, err := loader.LoadToolsFile(filepath.Join(devDir, "catalog.json"))
	if os.IsNotExist(err) {
		tb.Skip(devsplit.Missing())
	}
	if err != nil {
		tb.Fatal(err)
	}
	f, err := os.Open(filepath.Join(devDir, "queries.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	qs, err := search.ReadEvalQueries(f)
	if err != nil {
		tb.Fatal(err)
	}
	queries := make([]string, len(qs))
	for i, q := range qs {
		queries[i] = q.Query
	}
	c := catalog.New(ReservedNames...)
	c.Put(src)
	s, err := New(c, Options{ListingBudget: DefaultListingBudget})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s, queries
}

// The target: at least 99 % saved against eager loading of the dev
// catalog, and a median default tool_search result of at most 1,500 tokens.
func TestMeasureDevTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the 973 dev queries")
	}
	s, queries := loadDevServer(t)
	rep, err := s.Measure(context.Background(), MeasureOptions{Queries: queries, DefaultOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	def := rep.Search[0]
	t.Logf("eager %d, up-front %d, saved %.1f %%; default (%s) search median %d, mean %.1f, p95 %d; break-even %d",
		rep.Total.Eager, rep.Total.UpFront, rep.Total.SavedPct, def.Detail, def.Median, def.Mean, def.P95, rep.BreakEven)
	if rep.Total.SavedPct < 99 {
		t.Errorf("saved %.1f %%, want at least 99 %%", rep.Total.SavedPct)
	}
	if def.Median > 1500 {
		t.Errorf("median default search result %d tokens, want at most 1,500", def.Median)
	}
}

func BenchmarkMeasureDev(b *testing.B) {
	s, queries := loadDevServer(b)
	var rep *Report
	for b.Loop() {
		var err error
		if rep, err = s.Measure(context.Background(), MeasureOptions{Queries: queries}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(rep.Total.SavedPct, "saved_%")
	b.ReportMetric(float64(rep.Total.UpFront), "upfront_tokens")
	b.ReportMetric(float64(rep.Search[0].Median), "median_search_tokens")
	b.ReportMetric(float64(rep.BreakEven), "breakeven_searches")
}
