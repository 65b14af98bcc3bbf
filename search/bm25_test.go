package search

import (
	"math"
	"slices"
	"testing"
)

func TestPlainBM25(t *testing.T) {
	b := NewPlainBM25([]Document{
		{ID: "get_weather", Name: "get_weather", Description: "Current weather for a city."},
		{ID: "weather_forecast", Name: "weatherForecast", Description: "Forecast for the coming days.",
			Params: []Param{{Name: "days", Description: "How many days of weather."}}},
		{ID: "send_email", Name: "send_email", Description: "Send an email message."},
		{ID: ""}, // no ID: not indexed
	})
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"weather", []string{"get_weather", "weather_forecast"}}, // the shorter document first
		{"forecast days", []string{"weather_forecast"}},          // a camelCase name split, a parameter counted
		{"the email please", []string{"send_email"}},             // stop words count for nothing
		{"emails", nil},                    // no stems
		{"+email", []string{"send_email"}}, // "+" is no operator here
		{"WEATHER city", []string{"get_weather", "weather_forecast"}}, // case does not matter
	} {
		res := b.Search(Query{Text: c.query, Limit: 10})
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.query, got, c.want)
		}
	}
	// BM25 by hand for "email": one document of three has it twice in 5 words (send, email,
	// send, email, message), against an average length of (5+9+5)/3 (get weather current
	// weather city; weather forecast forecast coming days days many days weather).
	res := b.Search(Query{Text: "email"})
	idf := math.Log(1 + (3-1+0.5)/(1+0.5))
	want := idf * 2 * 2.2 / (2 + 1.2*(0.25+0.75*5/(19/3.0)))
	if len(res.Hits) != 1 || math.Abs(res.Hits[0].Score-want) > 1e-9 {
		t.Errorf("email: got %+v, want one hit scoring %v", res.Hits, want)
	}
}
