package search

import (
	"regexp"
	"strings"
)

// A request carries the values it wants a tool to act on, and tools name the parameters
// that take them. When a query holds a value of a recognizable type, the type's word joins
// the query at a lower weight: "weather in Paris on March 5th" then also asks for "date"
// and "city", which favours the weather tool that takes a date over the one that gives
// only today's weather.
var valueTypes = []struct {
	words []string
	// maybe is a cheap test that every match of re passes: the expressions cost tens of
	// microseconds a query, more than the rest of the query's analysis, so they run only
	// on the queries that could match. It sees the text lower-cased.
	maybe func(lower string) bool
	re    *regexp.Regexp
}{
	{[]string{"date"}, func(l string) bool {
		return hasDigit(l) && (strings.ContainsAny(l, "-/") || containsAny(l, monthPrefixes)) || containsAny(l, dayWords)
	}, regexp.MustCompile(`(?i)\b(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|` +
		`(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(st|nd|rd|th)?|` +
		`\d{1,2}(st|nd|rd|th)?\s+(of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*|` +
		`today|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)},
	{[]string{"time"}, func(l string) bool {
		return hasDigit(l) && (strings.IndexByte(l, ':') >= 0 || strings.Contains(l, "am") || strings.Contains(l, "pm"))
	}, regexp.MustCompile(`(?i)\b(\d{1,2}:\d{2}|\d{1,2}\s?(am|pm))\b`)},
	{[]string{"url"}, func(l string) bool {
		return strings.Contains(l, "http") || strings.Contains(l, "www.")
	}, regexp.MustCompile(`(?i)\b(https?://|www\.)`)},
	{[]string{"email"}, func(l string) bool {
		return strings.IndexByte(l, '@') >= 0
	}, regexp.MustCompile(`\b[\w.+-]+@[\w-]+\.[\w.]+\b`)},
	{[]string{"file"}, func(l string) bool {
		return containsAny(l, fileExtensions)
	}, regexp.MustCompile(`(?i)\b[\w-]+\.(txt|csv|json|pdf|md|docx?|xlsx?|pptx?|py|js|ts|go|java|html?|xml|ya?ml|log|png|jpe?g|gif|zip)\b`)},
	{[]string{"amount"}, func(l string) bool {
		return hasDigit(l) && (strings.ContainsAny(l, "$€£¥") || containsAny(l, amountWords))
	}, regexp.MustCompile(`(?i)([$€£¥]\s?\d|\b\d+(\.\d+)?\s?(dollars?|euros?|usd|eur|gbp|yen|pounds?)\b)`)},
}

// Literals that the value types' expressions cannot match without.
var (
	monthPrefixes  = strings.Fields("jan feb mar apr may jun jul aug sep oct nov dec")
	dayWords       = strings.Fields("today tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday")
	fileExtensions = strings.Fields(".txt .csv .json .pdf .md .doc .xls .ppt .py .js .ts .go .java .htm .xml .yml .yaml .log .png .jpg .jpeg .gif .zip")
	amountWords    = strings.Fields("dollar euro usd eur gbp yen pound")
)

// hasDigit reports whether s has an ASCII digit. (strings.ContainsAny builds a set
// for every call; this runs for every piece of every name the index analyzes.)
func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// valueHints returns the normalized words of the value types found in the query's words.
func valueHints(words []string) []string {
	if len(words) < 2 {
		return nil // a one-word query names what it wants; there is no value to type
	}
	text := strings.Join(words, " ")
	lower := strings.ToLower(text)
	var hs []string
	for _, vt := range valueTypes {
		if vt.maybe(lower) && vt.re.MatchString(text) {
			for _, w := range vt.words {
				hs = append(hs, normalize(w))
			}
		}
	}
	if namesPlace(words) {
		hs = append(hs, normalize("city"))
	}
	if mentionsCurrency(words) {
		hs = append(hs, normalize("currency"))
	}
	return hs
}

// placeLeads are the words that put a capitalized name after them in place of a city:
// "in Paris", "from Berlin", "near Lyon".
var placeLeads = language.words("place-leads")

// namesPlace reports whether a lower-case word of placeLeads, ending a word and starting
// it or following punctuation, comes right before a capitalized word ("in Paris", "(near
// Lyon"; not "within Paris" or "In Paris").
func namesPlace(words []string) bool {
	for i, w := range words[:len(words)-1] {
		next := words[i+1]
		if len(next) < 2 || next[0] < 'A' || next[0] > 'Z' || next[1] < 'a' || next[1] > 'z' {
			continue
		}
		for _, lead := range placeLeads {
			if rest, ok := strings.CutSuffix(w, lead); ok && (rest == "" || !isWordByte(rest[len(rest)-1])) {
				return true
			}
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// currencyWords name currencies; "pound" is left out, since it is as often a weight.
var currencyWords = language.set("currencies")

// mentionsCurrency reports whether a query names a currency or writes an amount with a
// currency sign ("$20"): it then also asks for "currency". A word list is much cheaper
// than a case-insensitive regular expression of alternatives over the whole query.
func mentionsCurrency(words []string) bool {
	for _, w := range words {
		if i := strings.IndexAny(w, "$€£¥₹"); i >= 0 && strings.ContainsAny(w[i:], "0123456789") {
			return true
		}
		if currencyWords[strings.ToLower(strings.Trim(w, ".,;:!?()'\"`"))] {
			return true
		}
	}
	return false
}
