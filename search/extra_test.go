package search

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestValueHints(t *testing.T) {
	tests := []struct {
		words string
		want  []string
	}{
		{"weather in Paris on March 5th", []string{"date", "citi"}},
		{"book a table for 2023-10-01 at 7:30 pm", []string{"date", "time"}},
		{"fetch https://example.com and mail bob@example.com", []string{"url", "email"}},
		{"show the last lines of report.txt", []string{"file"}},
		{"convert $20 to yen", []string{"amount", "currenc"}},
		{"how many euros is 20 Japanese yen", []string{"currenc"}},
		{"weather", nil},
		{"list my repositories", nil},
		// The cheap tests in front of the expressions must not lose a match: case, and
		// words that only contain a lead word or a date word.
		{"within Paris", nil},
		{"In Paris", nil},
		{"(in Paris", []string{"citi"}},
		{"flights to Rome", []string{"citi"}},
		{"meet at 7PM", []string{"time"}},
		{"file REPORT.TXT", []string{"file"}},
		{"see HTTP://x.org", []string{"url"}},
		{"Sept 5 please", []string{"date"}},
		{"on the 5th of SEPTEMBER", []string{"date"}},
		{"due 1/2/2023", []string{"date"}},
		{"pay $ 5", []string{"amount"}},
		{"5 USD please", []string{"amount", "currenc"}},
		{"what is the weather today", []string{"date"}},
	}
	for _, tt := range tests {
		p := parseQuery(tt.words)
		if got := valueHints(p.words); !slices.Equal(got, tt.want) {
			t.Errorf("valueHints(%q) = %q, want %q", tt.words, got, tt.want)
		}
	}
}

// TestGroupNeutral checks that belonging to a server is neither rewarded nor punished as
// such: a tool alone on its server scores like the same tool without a server.
func TestGroupNeutral(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "alone", Name: "alone", Kind: KindTool, Description: "Convert a currency amount."},
		Document{ID: "srv__grouped", Name: "srv__grouped", Kind: KindTool, Description: "Convert a currency amount."},
		Document{ID: "other", Name: "other", Kind: KindTool, Description: "Something unrelated."},
	)
	r := ix.Search(Query{Text: "convert currency amount", Limit: 5})
	if len(r.Hits) != 2 || r.Hits[0].Score != r.Hits[1].Score {
		t.Fatalf("hits = %+v, want two with equal scores", r.Hits)
	}
	// A server whose other tools match as well lends its tools weight.
	ix.Add(Document{ID: "srv__sibling", Name: "srv__sibling", Kind: KindTool, Description: "Convert currency."})
	r = ix.Search(Query{Text: "convert currency amount", Limit: 5})
	if r.Hits[0].ID != "srv__grouped" {
		t.Errorf("hits = %+v, want srv__grouped first", r.Hits)
	}
}

func TestSharedNames(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "one", Name: "search", Kind: KindTool, Description: "Search the web."},
		Document{ID: "two", Name: "search", Kind: KindTool, Description: "Search files."},
	)
	r := ix.Search(Query{Text: "select:search"})
	if want := map[string][]string{"search": {"one", "two"}}; !reflect.DeepEqual(r.Ambiguous, want) {
		t.Errorf("Ambiguous = %v, want %v", r.Ambiguous, want)
	}
	if r := ix.Search(Query{Text: "search", Limit: 5}); len(r.Hits) != 2 || r.Hits[0].Match != MatchExact || r.Hits[1].Match != MatchExact {
		t.Errorf("hits = %+v, want both as exact matches", r.Hits)
	}
	ix.Remove("one")
	if r := ix.Search(Query{Text: "select:search"}); !slices.Equal(hitIDs(r), []string{"two"}) {
		t.Errorf("after removal hits = %q, want [two]", hitIDs(r))
	}
}

func TestUnknownKind(t *testing.T) {
	ix := testIndex()
	if r := ix.Search(Query{Text: "issue", Kind: "prompt"}); len(r.Hits) != 0 || r.Total != 0 {
		t.Errorf("hits = %+v, want none", r)
	}
	if r := ix.Search(Query{Text: "select:a", Kind: "prompt"}); !slices.Equal(r.Unknown, []string{"a"}) {
		t.Errorf("Unknown = %q, want [a]", r.Unknown)
	}
	if r := ix.Search(Query{Text: "issue", Kind: "ANY"}); len(r.Hits) == 0 {
		t.Error(`Kind "ANY" found nothing`)
	}
}

// manyDocs makes n small documents with overlapping vocabulary.
func manyDocs(n int) []Document {
	verbs := []string{"get", "list", "create", "delete", "update", "search"}
	nouns := []string{"issue", "file", "message", "user", "order", "ticket", "event"}
	docs := make([]Document, n)
	for i := range docs {
		v, o := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
		id := fmt.Sprintf("srv%d__%s_%s_%d", i%9, v, o, i)
		docs[i] = ToolDocument(id, id, fmt.Sprintf("%s the %s number %d of the account.", v, o, i%13),
			[]byte(fmt.Sprintf(`{"properties":{"%s_id":{"description":"The %s."}}}`, o, o)))
	}
	return docs
}

// TestParallelAdd checks that a big Add, analyzed in parallel, equals one-by-one adds.
func TestParallelAdd(t *testing.T) {
	docs := manyDocs(3 * minDocsPerWorker)
	bulk, single := NewIndex(), NewIndex()
	bulk.Add(docs...)
	for _, d := range docs {
		single.Add(d)
	}
	for _, q := range []string{"create issue", "list user orders", "ticket", "srv3__", "+file delete"} {
		a := bulk.Search(Query{Text: q, Limit: 10})
		b := single.Search(Query{Text: q, Limit: 10})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("query %q:\nbulk   %+v\nsingle %+v", q, a, b)
		}
	}
}

// TestConcurrentUse runs searches while documents are added and removed (meant for -race).
func TestConcurrentUse(t *testing.T) {
	docs := manyDocs(400)
	ix := NewIndex()
	ix.Add(docs[:200]...)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				ix.Search(Query{Text: []string{"create issue", "list files", "gh_create_isue", "select:a", "+user get"}[(i+w)%5]})
			}
		})
	}
	wg.Go(func() {
		for i := 200; i < 400; i++ {
			ix.Add(docs[i])
			ix.Remove(docs[i-200].ID)
		}
	})
	wg.Wait()
	if ix.Len() != 200 {
		t.Errorf("Len = %d, want 200", ix.Len())
	}
}

// TestNameFit checks the second stage: among tools that match the query's words equally,
// the one whose name asks for nothing the query does not mention comes first.
func TestNameFit(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "add_postgres_server", Name: "add_postgres_server", Kind: KindTool,
			Description: "Register a new PostgreSQL server so that its databases can be listed and queried."},
		Document{ID: "list_servers", Name: "list_servers", Kind: KindTool, Description: "List the registered servers of a given type."},
		Document{ID: "other", Name: "other", Kind: KindTool, Description: "Something unrelated."},
	)
	r := ix.Search(Query{Text: "list the servers"})
	if len(r.Hits) == 0 || r.Hits[0].ID != "list_servers" {
		t.Errorf("hits = %+v, want list_servers first", r.Hits)
	}
}

// TestEnumValues checks that a value a parameter takes is evidence of its own: a user names
// the value ("in Fahrenheit"), not the parameter.
func TestEnumValues(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		ToolDocument("weather_a", "weather_a", "Get the current weather of a city.",
			[]byte(`{"properties":{"city":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}}}`)),
		ToolDocument("weather_b", "weather_b", "Get the current weather of a city.",
			[]byte(`{"properties":{"city":{"type":"string"},"unit":{"type":"string","description":"Temperature unit"}}}`)),
	)
	r := ix.Search(Query{Text: "weather in Oslo in fahrenheit"})
	if len(r.Hits) != 2 || r.Hits[0].ID != "weather_a" {
		t.Errorf("hits = %+v, want weather_a first", r.Hits)
	}
}

func TestLooksLikeIdentifier(t *testing.T) {
	for w, want := range map[string]bool{
		"slack__send_message": true, "getUser": true, "'list_files'": true, "`runThis`": true,
		"report.txt": true, "Wi-Fi": true,
		// Quotes and sentence punctuation around an English word do not make it a name.
		"to:'?": false, "move.\"": false, "filter.\"": false, "us.\"": false, "(hello)": false, "send": false,
	} {
		if got := looksLikeIdentifier(w); got != want {
			t.Errorf("looksLikeIdentifier(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestQuotedWords(t *testing.T) {
	long := "could you please post this for me on my account with the message "
	tests := []struct {
		text string
		want []string // the quoted words
	}{
		{long + "'Just booked a flight to LA!' thanks", []string{"'Just", "booked", "a", "flight", "to", "LA!'"}},
		{long + "\"hello\", and save it to `notes.txt`.", []string{"\"hello\",", "`notes.txt`."}},
		{long + "'hello there", nil},                          // never closed
		{"find 'github' issues", nil},                         // a short query: the quotation is the search
		{"\"" + long + "and a second request as well\"", nil}, // quoted whole
		{long + "about the users' files", nil},                // an apostrophe is no quotation
	}
	for _, tt := range tests {
		words := parseQuery(tt.text).words
		var got []string
		for i, q := range quotedWords(words) {
			if q {
				got = append(got, words[i])
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("quotedWords(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestQuotedValues checks that the words of a value a request hands over do not pick the
// tool, while an exact name in quotes still does.
func TestQuotedValues(t *testing.T) {
	ix := testIndex()
	r := ix.Search(Query{Text: "please could you post this to the team channel for me with the text 'create a new issue in the github repository, then list the closed issues'"})
	if got := hitIDs(r); len(got) == 0 || got[0] != "slack__send_message" {
		t.Errorf("hits = %q, want slack__send_message first", got)
	}
	r = ix.Search(Query{Text: "I would like you to run the tool called 'slack__list_channels' for me right now please"})
	if got := hitIDs(r); len(got) == 0 || got[0] != "slack__list_channels" || r.Hits[0].Match != MatchExact {
		t.Errorf("hits = %+v, want slack__list_channels first as an exact match", r.Hits)
	}
}

// TestConcurrentSearchesBounded checks that a flood of concurrent searches runs
// no more at once than there are CPUs: each holds buffers the size of the
// index.
func TestConcurrentSearchesBounded(t *testing.T) {
	ix := NewIndex()
	ix.Add(manyDocs(500)...)
	var running, most atomic.Int32
	ix.rerankHook = func(*reranker, []candidate) {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(time.Millisecond) // long enough for the others to pile up
		running.Add(-1)
	}
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() { ix.Search(Query{Text: "list the open tickets"}) })
	}
	wg.Wait()
	if m, cpus := most.Load(), runtime.GOMAXPROCS(0); m == 0 || int(m) > cpus {
		t.Errorf("%d searches ran at once, want 1 to %d (GOMAXPROCS)", m, cpus)
	}
}

// TestPhrase checks that two query words that a name writes next to each other count for
// that name: "current weather" is a phrase of read_current_weather, not of
// get_weather_current, which would otherwise win the tie by its ID.
func TestPhrase(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		ToolDocument("get_weather_current", "get_weather_current", "Reports conditions.", nil),
		ToolDocument("read_current_weather", "read_current_weather", "Reports conditions.", nil),
	)
	got := hitIDs(ix.Search(Query{Text: "the current weather in Paris"}))
	if len(got) != 2 || got[0] != "read_current_weather" {
		t.Errorf("got %v, want read_current_weather first", got)
	}
	if got := phraseTerm("to", "watch"); got != "" {
		t.Errorf(`phraseTerm("to", "watch") = %q, want "" (a stop word starts no compound)`, got)
	}
}

// TestNameFitHints checks that a value hint ("date" for "on March 5th") joins the first
// stage's evidence but not the name fit: a request's value says what a parameter takes, not
// what the tool is for, so "weather_by_date" (name words "weather" and "date") fits "weather
// in Paris on March 5th" by half.
func TestNameFitHints(t *testing.T) {
	ix := NewIndex()
	ix.Add(ToolDocument("weather_by_date", "weather_by_date", "Weather of a city on a date.", nil))
	var fit float64
	ix.rerankHook = func(rr *reranker, cs []candidate) {
		for i := range cs {
			fit = rr.features(&cs[i])[featNameFit]
		}
	}
	for _, tc := range []struct {
		query string
		want  float64
	}{
		{"weather in Paris on March 5th", 0.5}, // "date" is a hint only
		{"weather in Paris for a date", 1},     // "date" is a word of the query
	} {
		fit = -1
		ix.Search(Query{Text: tc.query})
		if math.Abs(fit-tc.want) > 1e-9 {
			t.Errorf("%q: name fit %.3f, want %.3f", tc.query, fit, tc.want)
		}
	}
}

// TestHintWeight checks that a value's type counts as much as the word would: a tool that
// takes a date scores the same for "weather on monday" as for "weather on monday date".
func TestHintWeight(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		ToolDocument("forecast", "forecast", "Weather forecast.", json.RawMessage(`{"type":"object","properties":{"date":{"type":"string"}}}`)),
		ToolDocument("hourly", "hourly", "Weather by the hour.", json.RawMessage(`{"type":"object","properties":{"time":{"type":"string"}}}`)),
		ToolDocument("other", "other", "Weather reports.", nil),
		ToolDocument("unrelated", "unrelated", "Something else.", nil),
	)
	for _, tc := range []struct{ hinted, written string }{
		{"weather on monday", "weather on monday date"},
		{"weather at 5pm", "weather at 5pm time"},
	} {
		// Scores are relative to the best, so the others' scores tell the weights apart.
		a, b := ix.Search(Query{Text: tc.hinted}), ix.Search(Query{Text: tc.written})
		same := len(a.Hits) == 3 && len(b.Hits) == 3
		for i := 0; same && i < 3; i++ {
			same = a.Hits[i].ID == b.Hits[i].ID && math.Abs(a.Hits[i].Score-b.Hits[i].Score) < 1e-12
		}
		if !same {
			t.Errorf("%q: %+v; %q: %+v; want the same hits and scores", tc.hinted, a.Hits, tc.written, b.Hits)
		}
	}
}
