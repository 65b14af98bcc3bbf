package search

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestSplitWordsUnspacedScripts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"天气预报", []string{"天", "天气", "气", "气预", "预", "预报", "报"}},
		{"北京", []string{"北", "北京", "京"}},
		{"字", []string{"字"}},
		{"get 天气 now", []string{"get", "天", "天气", "气", "now"}},
		{"天气API", []string{"天", "天气", "气", "api"}},
		// Thai: pairs of characters, each with its vowel and tone marks; no single ones.
		{"สภาพอากาศ", []string{"สภ", "ภา", "าพ", "พอ", "อา", "าก", "กา", "าศ"}},
		{"ที่", []string{"ที่"}},
		// ้ is a mark of น; ำ (sara am) is a letter of its own.
		{"น้ำมัน", []string{"น้ำ", "ำมั", "มัน"}},
		// Devanagari vowel signs stay inside their word.
		{"मौसम", []string{"मौसम"}},
		// Hangul: words run into their particles.
		{"날씨를", []string{"날", "날씨", "씨", "씨를", "를"}},
	} {
		var got []string
		splitWords(tc.in, func(w []byte) { got = append(got, string(w)) }, nil)
		if !slices.Equal(got, tc.want) {
			t.Errorf("splitWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestUnspacedQueryMatches: a query in a script written without spaces finds the
// description written in it, though the two cut the words differently.
func TestUnspacedQueryMatches(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		ToolDocument("weibo_trending", "weibo_trending", "获取微博热搜榜，包含时事热点、娱乐新闻的实时热门中文资讯", nil),
		ToolDocument("bing_search", "bing_search", "使用必应搜索指定的关键词，并返回搜索结果列表", nil),
		ToolDocument("weather_jp", "weather_jp", "指定した都市の天気予報を取得します", nil),
		ToolDocument("aircon_ko", "aircon_ko", "에어컨의 운전 모드와 목표 온도를 설정합니다", nil),
		ToolDocument("fuel_th", "fuel_th", "ตรวจสอบระดับน้ำมันเชื้อเพลิงของรถยนต์", nil),
		ToolDocument("get_weather", "get_weather", "Current weather for a city.", nil),
	)
	for q, want := range map[string]string{
		"微博热搜":         "weibo_trending",
		"帮我用必应搜索一下新闻":  "bing_search",
		"東京の天気予報を教えて":  "weather_jp",
		"거실 에어컨 온도 설정": "aircon_ko",
		"น้ำมันรถ":     "fuel_th",
	} {
		r := ix.Search(Query{Text: q})
		if len(r.Hits) == 0 || r.Hits[0].ID != want || r.Hits[0].Match != MatchText {
			t.Errorf("%q: hits %+v, want %s first as a text match", q, r.Hits, want)
		}
	}
}

// neverEmptyQueries are queries in many languages and scripts, and garbage.
var neverEmptyQueries = []string{
	"北京后天的天气如何？", "天気", "날씨 알려줘", "สภาพอากาศวันนี้", "ສະພາບອາກາດ", "អាកាសធាតុ", "မိုးလေဝသ",
	"погода в Москве", "καιρός", "מזג אוויר", "الطقس في القاهرة", "मौसम कैसा है", "আবহাওয়া",
	"hava durumu", "cuaca hari ini", "thời tiết", "Wetter morgen", "météo demain", "el clima",
	"!!!", "???", "...", "+", "++", "+ +", "-", "__", "🙂", "🙂🙂🙂", "\u200b", "\u0301", "\x00",
	"the of and", "a", "x", "zzzzqqqq", "+zebra", "+zebra +unicorn issue", "12345", "3.14",
	"select", "select:", `"'`, "\\", "<script>", "%s%s%s", "\xff\xfe", strings.Repeat("a", 5000),
	strings.Repeat("天", 300), strings.Repeat("word ", 2000),
}

// TestNeverEmpty: no non-empty query comes back without hits while the index holds a
// document of the kind asked for; what matched nothing says so (MatchBrowse, Relaxed).
func TestNeverEmpty(t *testing.T) {
	ix := testIndex()
	for _, q := range neverEmptyQueries {
		r := ix.Search(Query{Text: q})
		if strings.TrimSpace(q) == "" || r.Selected {
			continue
		}
		if len(r.Hits) == 0 {
			t.Errorf("%q: no hits", q)
		}
	}
	r := ix.Search(Query{Text: "+zebra issue"})
	if !r.Relaxed || len(r.Hits) == 0 || !strings.Contains(r.Hits[0].ID, "issue") {
		t.Errorf(`"+zebra issue": relaxed %v, hits %+v; want the issue tools, relaxed`, r.Relaxed, r.Hits)
	}
	r = ix.Search(Query{Text: "the of and", Limit: 4})
	want := []string{"a", "b", "github__create_issue", "gitlab__create_issue"} // one per server first, by ID
	if got := hitIDs(r); !slices.Equal(got, want) || r.Hits[0].Match != MatchBrowse {
		t.Errorf(`"the of and": hits %+v, want %v browsed`, r.Hits, want)
	}
	r = ix.Search(Query{Text: "🙂", Limit: 20})
	if len(r.Hits) != ix.Len() {
		t.Errorf("browsing with a limit above the catalog's size gives %d hits, want %d", len(r.Hits), ix.Len())
	}
	if r := ix.Search(Query{Text: "🙂", Kind: KindSkill}); len(r.Hits) != 1 || r.Hits[0].ID != "release-notes" {
		t.Errorf("browsing skills: %+v, want the one skill", r.Hits)
	}
	if r := NewIndex().Search(Query{Text: "🙂"}); len(r.Hits) != 0 {
		t.Errorf("empty index: %+v", r.Hits)
	}
	if r := ix.Search(Query{Text: " \t "}); len(r.Hits) != 0 {
		t.Errorf("blank query: %+v, want no hits", r.Hits)
	}
}

// TestBrowseMany checks what a query that matches nothing shows in a catalog much larger
// than the hits asked for, added in no order and partly removed: the first of each server
// by ID, and the documents of no server, before a second of any server, each set by ID.
func TestBrowseMany(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ix := NewIndex()
	var docs []Document
	for i := range 600 {
		name := fmt.Sprintf("tool_%03d", rng.IntN(1000)) + fmt.Sprint("_", i)
		if i%4 > 0 {
			name = fmt.Sprintf("server%d__%s", rng.IntN(40), name)
		}
		kind := KindTool
		if i%5 == 0 {
			kind = KindSkill
		}
		docs = append(docs, Document{ID: name, Name: name, Kind: kind, Description: "Does a thing."})
	}
	ix.Add(docs...)
	live := map[string]Document{}
	for _, d := range docs {
		if rng.IntN(6) == 0 {
			ix.Remove(d.ID)
		} else {
			live[d.ID] = d
		}
	}
	for _, kind := range []string{"", KindTool, KindSkill} {
		// The answer by its definition: sort them all.
		firstOf := map[string]string{}
		var lead, rest []string
		for _, id := range slices.Sorted(maps.Keys(live)) {
			if kind != "" && live[id].Kind != kind {
				continue
			}
			server := groupKey(id)
			switch {
			case server == "":
				lead = append(lead, id)
			case firstOf[server] == "":
				firstOf[server] = id
				lead = append(lead, id)
			default:
				rest = append(rest, id)
			}
		}
		all := append(lead, rest...)
		for _, limit := range []int{1, 5, 20, 100} {
			got := hitIDs(ix.Search(Query{Text: "the of and", Kind: kind, Limit: limit}))
			if want := all[:min(limit, len(all))]; !slices.Equal(got, want) {
				t.Errorf("kind %q, limit %d: %v, want %v", kind, limit, got, want)
			}
		}
	}
}

// FuzzSearchNeverEmpty checks the guarantee on any text, and that a search never panics.
//
//	go test -run '^$' -fuzz FuzzSearchNeverEmpty -fuzztime 60s ./search/
func FuzzSearchNeverEmpty(f *testing.F) {
	for _, q := range neverEmptyQueries {
		f.Add(q)
	}
	ix := testIndex()
	f.Fuzz(func(t *testing.T, q string) {
		r := ix.Search(Query{Text: q})
		if r.Selected || strings.TrimSpace(q) == "" {
			return
		}
		if len(r.Hits) == 0 {
			t.Errorf("%q: no hits", q)
		}
	})
}

// TestWordNet: derivations the stemmer does not join, and words the catalog does not use,
// find the tool through WordNet.
func TestWordNet(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		ToolDocument("multiply", "multiply", "Multiply two numbers.", nil),
		ToolDocument("add_numbers", "add_numbers", "Add two numbers.", nil),
		ToolDocument("find_lawyer", "find_lawyer", "Find a lawyer in a city.", nil),
		ToolDocument("find_doctor", "find_doctor", "Find a doctor in a city.", nil),
		ToolDocument("set_access", "set_access", "Set which users are allowed to read a file.", nil),
		ToolDocument("set_owner", "set_owner", "Set which user owns a file.", nil),
	)
	for q, want := range map[string]string{
		"the multiplication of two numbers":          "multiply",
		"find an attorney in Boston":                 "find_lawyer",
		"which users are permitted to read the file": "set_access",
	} {
		if got := hitIDs(ix.Search(Query{Text: q})); len(got) == 0 || got[0] != want {
			t.Errorf("%q: %v, want %s first", q, got, want)
		}
	}
	// A word the catalog uses keeps its own sense: "remove" is not "take".
	if terms := wordnet().sense[normalize("remove")]; !slices.Contains(terms, normalize("take")) {
		t.Fatalf("WordNet's first sense of remove: %v", terms)
	}
	ix.Add(ToolDocument("remove_file", "remove_file", "Remove a file.", nil), ToolDocument("take_photo", "take_photo", "Take a photo.", nil))
	if got := hitIDs(ix.Search(Query{Text: "remove it"})); len(got) != 1 {
		t.Errorf(`"remove it": %v, want remove_file alone`, got)
	}
}
