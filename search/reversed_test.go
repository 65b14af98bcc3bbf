package search

import (
	"strings"
	"testing"
)

func TestConversionSides(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		ok   bool
	}{
		{"gallon_to_liter", "gallon", "liter", true},
		{"units__htmlToMarkdown", "html", "markdown", true},
		{"add_to_cart", "", "", false},    // a verb before "to" names an action, not a side
		{"liter_to_liter", "", "", false}, // no two sides
		{"get_weather", "", "", false},
		{"speech_tts_synthesize", "text", "speech", true}, // abbreviations spelled out
		{"STT_recognize", "speech", "text", true},
		{"firsttime_setup", "", "", false}, // "stt" only as a word of its own
	} {
		a, b, ok := conversionSides(tc.name, true)
		if ok != tc.ok || ok && (a != stem(tc.a) || b != stem(tc.b)) {
			t.Errorf("conversionSides(%q) = %q, %q, %v; want %q, %q, %v", tc.name, a, b, ok, tc.a, tc.b, tc.ok)
		}
	}
}

func TestReversed(t *testing.T) {
	for _, tc := range []struct {
		request, name string
		want          bool
	}{
		{"convert 5 liters to gallons", "gallon_to_liter", true},
		{"convert 5 liters to gallons", "liter_to_gallon", false},
		{"how many liters are 3 gallons", "gallon_to_liter", false}, // a number before the side it has
		{"how many liters are 3 gallons", "liter_to_gallon", true},
		{"turn this markdown into html", "html_to_markdown", true},
		{"gallons and liters", "gallon_to_liter", false}, // no direction said
		{"convert speech to text from audio.wav", "speech_tts_synthesize", true},
		{"convert text to an OGG audio file", "speech_stt_recognize", true},
	} {
		words := strings.Fields(tc.request)
		toks := requestTokens(words, quotedWords(words))
		a, b, _ := conversionSides(tc.name, true)
		if got := reversed(a, b, toks, stemAll(toks)); got != tc.want {
			t.Errorf("reversed(%q, %q) = %v, want %v", tc.name, tc.request, got, tc.want)
		}
	}
}

// Two converters with the same words tie on them; the direction the request asks for
// decides.
func TestConversionDirection(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "gallon_to_liter", Name: "gallon_to_liter", Kind: KindTool, Description: "Convert between gallons and liters."},
		Document{ID: "liter_to_gallon", Name: "liter_to_gallon", Kind: KindTool, Description: "Convert between gallons and liters."},
	)
	checkRanked(t, ix, []rankCase{
		{"convert 5 liters to gallons", "liter_to_gallon", ""},
		{"convert 5 gallons to liters", "gallon_to_liter", ""},
		{"how many gallons are 20 liters", "liter_to_gallon", ""},
	})
}

// Speech services name their two directions by abbreviation (tts, stt); the request's
// direction decides between them as between spelled-out converters.
func TestAbbreviatedConversionDirection(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "speech_tts_synthesize", Name: "speech_tts_synthesize", Kind: KindTool, Description: "Speech synthesis and recognition of audio files."},
		Document{ID: "speech_stt_recognize", Name: "speech_stt_recognize", Kind: KindTool, Description: "Speech synthesis and recognition of audio files."},
	)
	checkRanked(t, ix, []rankCase{
		{"convert speech to text from the audio file", "speech_stt_recognize", ""},
		{"convert text to speech in an audio file", "speech_tts_synthesize", ""},
	})
}
