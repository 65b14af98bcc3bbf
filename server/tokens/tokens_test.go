package tokens

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/internal/devsplit"
)

// Counting piece by piece must give exactly what one tokenizer pass over the
// whole text gives.
var exactCases = []string{
	"",
	"one line",
	"two\nlines\n",
	"blank\n\nline\n\n\n",
	"indented:\n  child\n\tTab\n",
	"}\n/path/to/file\n",
	"a,\n/b",
	"crlf\r\nlines\r\n",
	"nbsp\n\u00a0after\n",
	"ideographic\n\u3000space\n",
	"trailing spaces  \nnext\n",
	"x\n's contraction\n'S upper\n",
	"numbers\n12345\n678\n",
	"emoji\n🙂 smile\n",
	"Found 3 of 2,102 entries for \"weather\":\n\n1. get_weather (weather) — Get the weather.\n   signature: get_weather(city: string, unit?: \"c\"|\"f\")\n",
	"\n\nstarts with breaks",
	"ends with a break\n",
	"\n",
	`{"name":"get_weather","description":"Get the weather.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}}}`,
	`{"a":"don't","b":"it's","c":"I'LL","d":"x1234","e":"ABC","f":"café","g":"日本語","h":"tab\t","i":"a  "}`,
	`"starts with a quote" and"ends"`,
	`word"`,
	"12345\"6\"\"",
	"line\"\n\"next\"\n  \"indented\"",
}

func TestCountIsExact(t *testing.T) {
	for _, enc := range []string{O200kBase, Cl100kBase} {
		c := MustGet(enc)
		texts := append([]string(nil), exactCases...)
		texts = append(texts, devTexts(t)...)
		for range 2 { // the second round reads the cache
			for _, s := range texts {
				if got, want := c.Count(s), c.count(s); got != want {
					t.Errorf("%s: Count(%.60q) = %d, one pass gives %d", enc, s, got, want)
				}
			}
		}
	}
}

// devTexts are some of the dev split's tool definitions rendered as indented JSON, one
// by one and together, when the split is there: real descriptions and schemas, with
// every kind of line start.
func devTexts(t *testing.T) []string {
	tools, err := devsplit.Tools()
	if errors.Is(err, os.ErrNotExist) {
		t.Log(devsplit.Missing() + ": checking synthetic texts only")
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	var all strings.Builder
	for i, raw := range tools {
		var v any
		json.Unmarshal(raw, &v)
		b, _ := json.MarshalIndent(v, "", "  ")
		if i%50 == 0 {
			compact, _ := json.Marshal(v) // as eager loading lists it
			texts = append(texts, string(b), string(compact))
		}
		if i < 300 {
			all.Write(b)
			all.WriteString("\n")
		}
	}
	return append(texts, all.String())
}

func FuzzCountIsExact(f *testing.F) {
	for _, s := range exactCases {
		f.Add(s)
	}
	c := MustGet(O200kBase)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := c.Count(s), c.count(s); got != want {
			t.Errorf("Count(%q) = %d, one pass gives %d", s, got, want)
		}
	})
}

func TestCountCacheStaysBounded(t *testing.T) {
	c := MustGet(O200kBase)
	line := strings.Repeat("word ", 200) + "\n" // 1,001 bytes
	for i := range 2 * maxCacheBytes / len(line) {
		c.Count(strings.Replace(line, "word", string(rune('a'+i%26))+strings.Repeat("x", i%97), 1))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes > maxCacheBytes {
		t.Errorf("cache holds %d bytes, over %d", c.bytes, maxCacheBytes)
	}
}

// BenchmarkCountTools prices the dev split's tools as eager loading lists them, one
// compact JSON definition each, with a cache that starts empty: what pricing a catalog
// costs.
func BenchmarkCountTools(b *testing.B) {
	tools := devsplit.ToolsOrSkip(b)
	texts := make([]string, len(tools))
	for i, raw := range tools {
		var v any
		json.Unmarshal(raw, &v)
		out, _ := json.Marshal(v)
		texts[i] = string(out)
	}
	b.ReportAllocs()
	for b.Loop() {
		c := uncached(O200kBase)
		for _, s := range texts {
			c.Count(s)
		}
	}
}

// BenchmarkCountLongText counts the two shapes that a cut searched for too far makes
// quadratic: many lines without a quote (an upstream's stack trace), and one long line
// with many quotes (a definition's JSON, a result as JSON).
func BenchmarkCountLongText(b *testing.B) {
	for _, tt := range []struct{ name, text string }{
		{"lines", strings.Repeat("stack frame at main.go:42\n", 40_000)},
		{"quotes", "[" + strings.Repeat(`{"type":"string","description":"a value"},`, 25_000) + "]"},
	} {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				uncached(O200kBase).Count(tt.text)
			}
		})
	}
}

// uncached returns a counter of the encoding whose cache starts empty, sharing the
// vocabulary that Get built.
func uncached(encoding string) *Counter {
	shared := MustGet(encoding)
	return &Counter{name: shared.name, codec: shared.codec, pieces: map[string]int{}}
}
