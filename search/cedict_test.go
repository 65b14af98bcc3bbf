package search

import (
	"slices"
	"strings"
	"testing"
)

func TestGlossary(t *testing.T) {
	g := chinese()
	// gloss searches the table by halves: it must be sorted, a word a line.
	for i := 1; i < len(g.lines); i++ {
		prev, _ := g.line(i - 1)
		if w, gl := g.line(i); string(prev) >= string(w) || len(gl) == 0 {
			t.Fatalf("line %d (%s) is out of order or has no gloss", i+1, w)
		}
	}
	for word, want := range map[string]string{
		"天气":   "weather",
		"天气预报": "weather forecast",
		"天氣":   "weather", // traditional
		"火车票":  "train ticket",
		"天":    "", // a single character is never a word
		"天天天天": "",
		"":     "",
	} {
		if got := g.gloss(word); got != want {
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

// A request in Chinese finds the tool described in English, with which it shares no word.
func TestCrossLanguage(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		ToolDocument("get_weather", "get_weather", "Get the current weather and the forecast for a city.", []byte(`{"type":"object","properties":{"city":{"type":"string"}}}`)),
		ToolDocument("book_train", "book_train", "Book a train ticket between two stations.", nil),
		ToolDocument("cn__caipu", "cn__caipu", "根据人数推荐菜谱，适合家庭晚餐", nil),
		ToolDocument("cn__nongli", "cn__nongli", "查询农历日期和节气", nil),
	)
	checkRanked(t, ix, []rankCase{
		{"北京后天的天气如何？", "get_weather", ""},
		{"我要买火车票", "book_train", ""},
	})
}
