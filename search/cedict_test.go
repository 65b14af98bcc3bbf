package search

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGlossary(t *testing.T) {
	// gloss searches the table by halves: it must be sorted, a word a line, each word of
	// two to maxWordRunes characters with a gloss.
	if !strings.HasSuffix(cedict, "\n") {
		t.Fatal("cedict.txt does not end its last line")
	}
	prev := ""
	for n, line := range strings.Split(strings.TrimSuffix(cedict, "\n"), "\n") {
		w, gl, ok := strings.Cut(line, "\t")
		if runes := utf8.RuneCountInString(w); !ok || w <= prev || gl == "" || runes < 2 || runes > maxWordRunes {
			t.Fatalf("line %d (%q) is out of order, of %d characters or has no gloss", n+1, line, runes)
		}
		prev = w
	}
	for word, want := range map[string]string{
		"天气":     "weather",
		"天气预报":   "weather forecast",
		"天氣":     "weather", // traditional
		"火车票":    "train ticket",
		"㐖毒":     "india",        // the first line
		"𱌶𱌹":     "uneven teeth", // the last
		"天":      "",             // a single character is never a word
		"天天天天":   "",
		"":       "",
		"\uffff": "", // past the last line
	} {
		if got := gloss(word); got != want {
			t.Errorf("gloss(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestGlosses(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string // the first word of each gloss, in order
	}{
		{"北京后天的天气如何？", []string{"beijing", "day", "weather", "how"}},
		{"天气预报", []string{"weather"}},                    // the longest word, not its parts
		{"mbox 系统, git 仓库", []string{"system", "depot"}}, // runs between other text
		{"的天", nil}, // no word of two characters
		{"天", nil},
		{"weather forecast", nil},
		{"", nil},
	} {
		var got []string
		glosses(c.in, func(gl string) { got = append(got, strings.Fields(gl)[0]) })
		if !slices.Equal(got, c.want) {
			t.Errorf("glosses(%q): %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHasHan(t *testing.T) {
	for s, want := range map[string]bool{
		"天气": true, "get 天气 now": true, "weather": false, "": false,
		"café ñ": false, "스테이크": false, "ひらがな": false, "カタカナ漢字": true, "—→✓": false,
	} {
		if got := hasHan(s); got != want {
			t.Errorf("hasHan(%q) = %v, want %v", s, got, want)
		}
	}
}

// A request in Chinese finds the tool described in English, and a request in English the
// tool described only in Chinese, with which neither shares a word; a tool described in
// English still comes first for a request in English.
func TestCrossLanguage(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		ToolDocument("get_weather", "get_weather", "Get the current weather and the forecast for a city.", []byte(`{"type":"object","properties":{"city":{"type":"string"}}}`)),
		ToolDocument("book_train", "book_train", "Book a train ticket between two stations.", nil),
		ToolDocument("cn__caipu", "cn__caipu", "根据人数推荐菜谱，适合家庭晚餐", nil),
		ToolDocument("cn__nongli", "cn__nongli", "查询日期", []byte(`{"type":"object","properties":{"date":{"type":"string","description":"公历日期，返回农历和节气"}}}`)),
		ToolDocument("cn__tianqi", "cn__tianqi", "查询城市的天气预报", nil),
	)
	checkRanked(t, ix, []rankCase{
		{"我要买火车票", "book_train", ""},
		{"北京后天的天气如何？", "cn__tianqi", ""}, // the words it shares count most
		{"recommend a recipe for a family dinner", "cn__caipu", ""},
		{"the lunar calendar", "cn__nongli", ""}, // in a parameter's description
		{"weather forecast for a city", "get_weather", ""},
	})
	for query, want := range map[string]string{"北京后天的天气如何？": "get_weather", "weather forecast": "cn__tianqi"} {
		if ids := ranked(ix, query); !slices.Contains(ids[:min(2, len(ids))], want) {
			t.Errorf("%q: got %v, want %s second", query, ids, want)
		}
	}
}

func TestDescribedInChinese(t *testing.T) {
	for _, c := range []struct {
		description string
		want        bool
	}{
		{"查询城市的天气预报", true},
		{"查询 GitHub 仓库的 README", true}, // a name or two
		{"查询天气。Get the weather forecast for a city, by its name.", false},
		{"Get the weather forecast", false},
		{"", false},
	} {
		if got := describedInChinese(c.description); got != c.want {
			t.Errorf("describedInChinese(%q) = %v, want %v", c.description, got, c.want)
		}
	}
}
