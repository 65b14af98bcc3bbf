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
	re    *regexp.Regexp
}{
	{[]string{"date"}, regexp.MustCompile(`(?i)\b(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|` +
		`(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(st|nd|rd|th)?|` +
		`\d{1,2}(st|nd|rd|th)?\s+(of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*|` +
		`today|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)},
	{[]string{"time"}, regexp.MustCompile(`(?i)\b(\d{1,2}:\d{2}|\d{1,2}\s?(am|pm))\b`)},
	{[]string{"url"}, regexp.MustCompile(`(?i)\b(https?://|www\.)`)},
	{[]string{"email"}, regexp.MustCompile(`\b[\w.+-]+@[\w-]+\.[\w.]+\b`)},
	{[]string{"file"}, regexp.MustCompile(`(?i)\b[\w-]+\.(txt|csv|json|pdf|md|docx?|xlsx?|pptx?|py|js|ts|go|java|html?|xml|ya?ml|log|png|jpe?g|gif|zip)\b`)},
	{[]string{"amount"}, regexp.MustCompile(`(?i)([$€£¥]\s?\d|\b\d+(\.\d+)?\s?(dollars?|euros?|usd|eur|gbp|yen|pounds?)\b)`)},
	{[]string{"city"}, regexp.MustCompile(`\b(in|at|from|to|near)\s+[A-Z][a-z]+`)},
}

// valueHints returns the normalized words of the value types found in the query's words.
func valueHints(words []string) []string {
	if len(words) < 2 {
		return nil // a one-word query names what it wants; there is no value to type
	}
	text := strings.Join(words, " ")
	var hs []string
	for _, vt := range valueTypes {
		if vt.re.MatchString(text) {
			for _, w := range vt.words {
				hs = append(hs, normalize(w))
			}
		}
	}
	if mentionsCurrency(words) {
		hs = append(hs, normalize("currency"))
	}
	return hs
}

// currencyWords name currencies; "pound" is left out, since it is as often a weight.
var currencyWords = toSet(`dollar dollars euro euros yen sterling rupee rupees yuan renminbi
	peso pesos franc francs ruble rubles rouble roubles usd eur gbp jpy inr cny aud cad chf mxn`)

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
