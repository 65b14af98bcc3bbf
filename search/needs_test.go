package search

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestEnumeratedNeeds(t *testing.T) {
	for _, tc := range []struct {
		request string
		want    []string // the needs, each joined by spaces
	}{
		{"First, book a hotel in Rome. Second, what time is it in Tokyo?",
			[]string{"First, book a hotel in Rome.", "Second, what time is it in Tokyo?"}},
		{"I am off on a trip. First, book a hotel. Then rent a car. Lastly, check the weather.", // the preamble is no need
			[]string{"First, book a hotel.", "Then rent a car.", "Lastly, check the weather."}},
		{"1. list my repos. 2) open an issue. (3) close it",
			[]string{"1. list my repos.", "2) open an issue.", "(3) close it"}},
		{"see (3) and 2. for more", nil}, // numbers inside a sentence number no list
		{"After that, send it. Finally: archive it.", []string{"After that, send it.", "Finally: archive it."}},
		{"In addition, send it. Afterwards archive it.", []string{"In addition, send it.", "Afterwards archive it."}},
		{"First, book a hotel in Rome and then rent a car", nil},       // one enumerator opens a sentence
		{"Book a hotel, then rent a car, then check the weather", nil}, // "then" inside a sentence is no cue
		{"Thenardier's inn. Nextcloud files.", nil},                    // a word that starts like one
		{"", nil},
	} {
		var got []string
		for _, need := range enumeratedNeeds(strings.Fields(tc.request)) {
			got = append(got, strings.Join(need, " "))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("enumeratedNeeds(%q) = %q, want %q", tc.request, got, tc.want)
		}
	}
}

func TestEnumeratedNeedsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 3 * maxNeeds {
		fmt.Fprintf(&b, "Then do thing %d. ", i)
	}
	if got := len(enumeratedNeeds(strings.Fields(b.String()))); got != maxNeeds {
		t.Errorf("%d needs, want at most %d", got, maxNeeds)
	}
}

func TestInterleaveHits(t *testing.T) {
	h := func(id string, score float64) Hit { return Hit{ID: id, Score: score} }
	got := interleaveHits([][]Hit{
		{h("a", 0.9), h("b", 0.8), h("c", 0.7)},
		{h("b", 0.95), h("d", 0.85)},
		{h("e", 0.5)},
	}, 4)
	var ids []string
	for i, x := range got {
		ids = append(ids, x.ID)
		if i > 0 && x.Score > got[i-1].Score {
			t.Errorf("score of %s %.2f above the one before, %.2f", x.ID, x.Score, got[i-1].Score)
		}
	}
	if want := []string{"a", "b", "e", "d"}; !slices.Equal(ids, want) {
		t.Errorf("interleaveHits = %v, want %v", ids, want)
	}
}

// A request that lists its needs finds a tool for each, where the need with the most
// look-alike tools took the whole top five.
func TestEnumeratedNeedsShareTheTop(t *testing.T) {
	ix := NewIndex()
	for _, v := range []string{"final", "initial", "average", "relative", "angular", "terminal"} {
		ix.Add(Document{ID: v + "_velocity", Name: v + "_velocity", Kind: KindTool,
			Description: "Calculate the " + v + " velocity of a car, in meters per second, from the distance it covers, the seconds it takes and its acceleration."})
	}
	for _, w := range []string{"invoice", "playlist", "repository", "printer", "calendar", "recipe", "ticket", "sensor", "backup", "contract", "podcast", "garden"} {
		ix.Add(Document{ID: w + "_manage", Name: w + "_manage", Kind: KindTool, Description: "Manage a " + w + " of the user."})
	}
	ix.Add(Document{ID: "get_forecast", Name: "get_forecast", Kind: KindTool, Description: "The weather forecast for a city."})
	res := ix.Search(Query{Text: "First, calculate the final velocity of a car that covers a distance of 100 meters " +
		"in 5 seconds with an acceleration of 2. Second, what will the weather be in Rome?", Limit: 5})
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	if want := []string{"final_velocity", "get_forecast"}; len(ids) < 2 || !slices.Equal(ids[:2], want) {
		t.Errorf("got %v, want %v first", ids, want)
	}
}
