package search

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/devsplit"
	"github.com/toolsearch/toolsearch/internal/procfs"
)

// Benchmarks run on the dev catalog replicated under new names ("_r7") up to the wanted
// size, with the dev queries cycled; without the dev split they use a synthetic catalog.
// Every replica is built from the raw JSON schema, so its strings are its own, as they would
// be for a real catalog of that size.
//
//	go test -run '^$' -bench . -benchtime 2000x ./search/

var benchSizes = []int{1_000, 10_000, 100_000}

type benchData struct {
	tools   []catalogTool
	queries []string
}

var loadBench = sync.OnceValue(func() benchData {
	var bd benchData
	if b, err := os.ReadFile(filepath.Join(devDir, "catalog.json")); err == nil && json.Unmarshal(b, &bd.tools) == nil {
		if f, err := os.Open(filepath.Join(devDir, "queries.jsonl")); err == nil {
			qs, _ := ReadEvalQueries(f)
			f.Close()
			for _, q := range qs {
				bd.queries = append(bd.queries, q.Query)
			}
		}
	}
	if len(bd.tools) == 0 || len(bd.queries) == 0 {
		fmt.Fprintln(os.Stderr, devsplit.Missing()+": benchmarking a synthetic catalog")
		bd = syntheticBench()
	}
	return bd
})

// benchDocs returns n documents: the catalog's tools, then replicas named "<name>_r<k>".
func benchDocs(tb testing.TB, n int) []Document {
	tb.Helper()
	return replicate(loadBench().tools, n)
}

func replicate(tools []catalogTool, n int) []Document {
	docs := make([]Document, 0, n)
	for r := 0; len(docs) < n; r++ {
		for _, t := range tools {
			if len(docs) == n {
				break
			}
			name := t.Name
			if r > 0 {
				name = fmt.Sprintf("%s_r%d", t.Name, r)
			}
			docs = append(docs, ToolDocument(name, name, strings.Clone(t.Description), t.InputSchema))
		}
	}
	return docs
}

// syntheticBench makes up a catalog of servers and tools from a small vocabulary, for
// machines without the dev split.
func syntheticBench() benchData {
	rng := rand.New(rand.NewPCG(1, 2))
	verbs := strings.Fields("get list create update delete search send fetch find calculate convert book cancel play read write")
	nouns := strings.Fields("issue message channel file directory user order stock ticket weather movie event hotel flight song repository invoice customer report note")
	words := strings.Fields("the a for of with in by from given specified current new all details information data value number name status date time city account price")
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	sentence := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = pick(append(append(words, nouns...), verbs...))
		}
		return strings.Join(ws, " ")
	}
	var bd benchData
	for i := range 2000 {
		verb, noun := pick(verbs), pick(nouns)
		schema := fmt.Sprintf(`{"type":"object","properties":{"%s_id":{"type":"string","description":"%s"},"limit":{"type":"integer","description":"%s"}}}`,
			noun, sentence(8), sentence(6))
		bd.tools = append(bd.tools, catalogTool{
			Name:        fmt.Sprintf("server%d__%s_%s", i%70, verb, noun),
			Description: strings.ToUpper(verb[:1]) + verb[1:] + " the " + noun + ". " + sentence(15),
			InputSchema: json.RawMessage(schema),
		})
	}
	for range 1000 {
		bd.queries = append(bd.queries, "please "+pick(verbs)+" my "+pick(nouns)+" "+sentence(8))
	}
	return bd
}

func BenchmarkIndexBuild(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			docs := benchDocs(b, n)
			b.ResetTimer()
			for range b.N {
				NewIndex().Add(docs...)
			}
		})
	}
}

// BenchmarkTrim is the pass after a bulk load that packs the postings lists.
func BenchmarkTrim(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ix := NewIndex()
			ix.Add(benchDocs(b, n)...)
			b.ResetTimer()
			for range b.N {
				ix.Trim()
			}
		})
	}
}

// BenchmarkBuildFromSchemas includes ToolDocument's schema parsing in the build.
func BenchmarkBuildFromSchemas(b *testing.B) {
	b.Run("10000", func(b *testing.B) {
		for range b.N {
			NewIndex().Add(benchDocs(b, 10_000)...)
		}
	})
}

func BenchmarkSearch(b *testing.B) {
	benchSearch(b, loadBench().queries, true)
}

// BenchmarkSearchShort measures the one-word and identifier queries that also run the
// prefix scan and the fuzzy matcher.
func BenchmarkSearchShort(b *testing.B) {
	benchSearch(b, []string{"weather", "gh_create_isue", "GorillaFileSystem__ls", "github", "slack send", "+stock order", "select:get_weather,calculate_area"}, false)
}

// BenchmarkSearchNoMatch measures queries that match nothing (a script the catalog is not
// written in, punctuation, stop words), which answer with entries to start from.
func BenchmarkSearchNoMatch(b *testing.B) {
	benchSearch(b, []string{"สภาพอากาศ", "!!! ???", "the of and"}, false)
}

// benchSearch times each of b.N searches, cycling through queries, at every bench size.
func benchSearch(b *testing.B, queries []string, allocs bool) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ix := NewIndex()
			ix.Add(benchDocs(b, n)...)
			times := make([]time.Duration, 0, b.N)
			if allocs {
				b.ReportAllocs()
			}
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				ix.Search(Query{Text: queries[i%len(queries)], Limit: 5})
				times = append(times, time.Since(start))
			}
			b.StopTimer()
			reportPercentiles(b, times)
		})
	}
}

func reportPercentiles(b *testing.B, times []time.Duration) {
	slices.Sort(times)
	at := func(p float64) float64 { return float64(times[int(p*float64(len(times)-1))].Microseconds()) }
	b.ReportMetric(at(0.5), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

// BenchmarkAddOne adds (or replaces) one document in an index of 100,000.
func BenchmarkAddOne(b *testing.B) {
	docs := benchDocs(b, 100_000)
	ix := NewIndex()
	ix.Add(docs...)
	b.ResetTimer()
	for i := range b.N {
		d := docs[i%len(docs)]
		if i%2 == 0 {
			d.ID += "_new"
			d.Name = d.ID
		}
		ix.Add(d) // a new document, then a replacement of an existing one
	}
}

// BenchmarkRemoveOne removes one document from an index of 100,000 and adds it back.
func BenchmarkRemoveOne(b *testing.B) {
	docs := benchDocs(b, 100_000)
	ix := NewIndex()
	ix.Add(docs...)
	b.ResetTimer()
	for i := range b.N {
		d := docs[(i*7919)%len(docs)]
		ix.Remove(d.ID)
		b.StopTimer()
		ix.Add(d)
		b.StartTimer()
	}
}

// BenchmarkMemory reports the heap held by an index of 100,000 documents, documents
// included, after garbage collection.
func BenchmarkMemory(b *testing.B) {
	for range b.N {
		before := heapInUse()
		ix := NewIndex()
		ix.Add(benchDocs(b, 100_000)...)
		ix.Trim() // as the server does after a bulk load
		ix.Search(Query{Text: "warm up the scratch buffers"})
		after := heapInUse()
		b.ReportMetric(float64(after-before)/(1<<20), "index-MB")
		b.ReportMetric(float64(after)/(1<<20), "heap-MB")
		debug.FreeOSMemory()
		if rss := residentMB(); rss > 0 {
			b.ReportMetric(rss, "rss-MB")
		}
		runtime.KeepAlive(ix)
	}
}

// TestResidentMemory reports the resident set of a process that holds an index of 100,000
// documents and nothing else: the catalog and the documents are dropped after Add. It runs
// only when asked, in a process of its own:
//
//	SEARCH_RSS=1 go test -run TestResidentMemory -count 1 -v ./search/
func TestResidentMemory(t *testing.T) {
	if os.Getenv("SEARCH_RSS") == "" {
		t.Skip("set SEARCH_RSS=1 to measure")
	}
	settle := func() float64 {
		runtime.GC()
		debug.FreeOSMemory()
		return residentMB()
	}
	base := settle()
	ix := NewIndex()
	func() {
		var tools []catalogTool
		if b, err := os.ReadFile(filepath.Join(devDir, "catalog.json")); err == nil {
			_ = json.Unmarshal(b, &tools)
		}
		if len(tools) == 0 {
			tools = syntheticBench().tools
		}
		ix.Add(replicate(tools, 100_000)...)
		ix.Trim() // as the server does after a bulk load
	}()
	ix.Search(Query{Text: "warm up the scratch buffers"})
	rss := settle()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("index of %d: VmRSS %.1f MB (%.1f MB before building), heap in use %.1f MB",
		ix.Len(), rss, base, float64(ms.HeapInuse)/(1<<20))
	if rss > 150 {
		t.Errorf("VmRSS %.1f MB, want < 150 MB", rss)
	}
}

// residentMB reads the process's resident set size from /proc (Linux only; 0 elsewhere).
func residentMB() float64 {
	kb, _ := procfs.StatusKB(os.Getpid(), "VmRSS")
	return float64(kb) / 1024
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// BenchmarkWordVectors measures reading the embedded word vector table, which the first
// search with a word the catalog lacks does once (see wordvec.go).
func BenchmarkWordVectors(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseWordVectors(wordvecData); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGlossary glosses a Chinese tool description, as indexing one does.
func BenchmarkGlossary(b *testing.B) {
	b.ReportAllocs()
	const description = "查询指定城市未来几天的天气预报，包括温度、湿度和风力，并给出穿衣建议"
	for b.Loop() {
		n := 0
		glosses(description, func(string) { n++ })
		if n == 0 {
			b.Fatal("no words")
		}
	}
}
