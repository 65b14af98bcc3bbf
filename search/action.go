package search

import (
	"slices"
	"strings"
)

// A catalog of one service often holds the same resource's tools side by side, told apart
// only by their verb: keyvault_secret_list, keyvault_secret_get, keyvault_secret_create.
// Words alone rank them nearly alike for "show me the secrets in my vault", and the one
// whose description repeats the resource most (often the one that creates it, which
// lists every property it sets) came first. What tells them apart is whether the request
// asks to change something. So the second stage knows two classes of action verbs, those
// that change state and those that only read it, and a feature: a tool named for a change
// when the request only asks (a question, "show me", a reading verb). Its weight is fitted
// (see weights). A tool whose name has neither kind of verb (play_song, calculate_area)
// and a request with neither (an order that names no verb: "email John the report") are
// left alone. The converse, a tool named for reading when the request orders a change,
// was fitted to nothing on either development set: a request to change something names
// its verb, which the name fit already counts.
//
// The verbs are the CRUD and lifecycle verbs of REST and CLI conventions, the same
// everywhere, without those that are as often a noun or an adjective of a request ("new",
// "post", "store", "tag", "close", "watch"); they are matched by their forms (see
// verbForms), not by stem.
var (
	changeVerbs = verbForms(language.words("change-verbs"))
	readVerbs   = verbForms(language.words("read-verbs"))
	// questionWords open a request that asks rather than orders.
	questionWords = language.set("question-words")
	determiners   = language.set("determiners")
)

// verbForms returns the verbs and their inflections (creates, created, creating; copies,
// copied; stopped, stopping). Forms, not stems: a stem would take in the nouns made from
// the verb ("inspection", "settings", "deployment"), which name things, not actions.
func verbForms(verbs []string) map[string]bool {
	forms := map[string]bool{}
	for _, v := range verbs {
		forms[v] = true
		stem, last := v, v[len(v)-1]
		switch {
		case last == 'e':
			stem = v[:len(v)-1]
			forms[v+"s"], forms[v+"d"] = true, true
		case last == 'y' && !strings.ContainsRune("aeiou", rune(v[len(v)-2])):
			forms[v[:len(v)-1]+"ies"], forms[v[:len(v)-1]+"ied"] = true, true
		case strings.HasSuffix(v, "sh") || strings.HasSuffix(v, "ch") || last == 's' || last == 'x':
			forms[v+"es"], forms[v+"ed"] = true, true
		default:
			forms[v+"s"], forms[v+"ed"] = true, true
			if doublesFinal(v) {
				forms[v+string(last)+"ed"], forms[v+string(last)+"ing"] = true, true
			}
		}
		forms[stem+"ing"] = true
	}
	return forms
}

// doublesFinal reports whether a verb doubles its last consonant before -ed and -ing (set,
// stop, commit): one vowel before one final consonant, in a one-syllable verb or one
// stressed last (as the few such verbs above are).
func doublesFinal(v string) bool {
	n := len(v)
	if n < 3 || strings.ContainsRune("aeiouwxy", rune(v[n-1])) {
		return false
	}
	return strings.ContainsRune("aeiou", rune(v[n-2])) && !strings.ContainsRune("aeiou", rune(v[n-3]))
}

// actionClass is what a request asks to do with its words, or what a tool's name says it
// does.
type actionClass uint8

const (
	actionNone   actionClass = iota
	actionRead               // it only reads
	actionChange             // it changes something
)

// requestAction classifies a request by its first word that says: a conversational opener
// ("show me") or a question word opening it asks, a reading verb reads, a change verb
// changes. Only the first counts, because the verb that leads is the request's, and the
// words after it are its objects, which are often the same words as nouns ("get the test
// runs", "show me the last change"). A verb's form after a determiner is a noun ("my
// watch list", "a copy"), and quoted words are values: neither says anything. A final "?"
// does not make a question, as "could you delete it?" shows.
func requestAction(words []string, quoted, openers []bool) actionClass {
	for i, w := range words {
		if quoted[i] || i > 0 && determiners[strings.ToLower(words[i-1])] {
			continue
		}
		if openers[i] {
			return actionRead
		}
		lw := strings.ToLower(trimQuoting(w))
		if i == 0 && questionWords[lw] {
			return actionRead
		}
		switch {
		case changeVerbs[lw]:
			return actionChange
		case readVerbs[lw]:
			return actionRead
		}
	}
	return actionNone
}

// nameVerbs are the kinds of verbs a tool's own name has, worked out once when it is
// indexed.
type nameVerbs uint8

const (
	namesChange nameVerbs = 1 << iota // a change verb
	namesRead                         // a reading verb
	namesList                         // a list verb (see listVerbs)
)

// verbsOfName finds the verbs of a tool's own name (without its server's part).
func verbsOfName(name string) nameVerbs {
	_, short := splitQualified(name)
	var v nameVerbs
	splitWords(short, func(w []byte) {
		for _, word := range spelledOut(string(w)) {
			if changeVerbs[word] {
				v |= namesChange
			}
			if readVerbs[word] {
				v |= namesRead
			}
			if listVerbs[word] {
				v |= namesList
			}
		}
	}, nil)
	return v
}

// action classifies a tool by the verbs of its name: a change if any word is a change
// verb (get_or_create changes), else a read if any is a reading verb.
func (v nameVerbs) action() actionClass {
	switch {
	case v&namesChange != 0:
		return actionChange
	case v&namesRead != 0:
		return actionRead
	}
	return actionNone
}

// spelledOut returns a name's word as words: an abbreviation's words ("ls": list, "rm":
// remove), as the index reads it, else the word itself.
func spelledOut(w string) []string {
	if long, ok := abbreviations[w]; ok {
		return strings.Fields(long)
	}
	return []string{w}
}

// Of one resource's tools, the one that lists is asked for by a request that names the
// resource in the plural ("show me the secrets in my vault", "what keys are in it"), the
// one that gets a single item by the singular ("show me the secret s1"); nothing else
// in the words tells them apart, since stems merge the two. listVerbs name the tools that
// list.
var listVerbs = verbForms(language.words("list-verbs"))

// pluralTerms returns the index's terms of the request's words written in the plural
// (not quoted values), sorted: "secrets" gives secret's.
func (ix *Index) pluralTerms(words []string, quoted []bool) []int32 {
	var ids []int32
	for i, w := range words {
		if quoted[i] {
			continue
		}
		lw := strings.ToLower(trimQuoting(w))
		if !isPlural(lw) {
			continue
		}
		for _, t := range cachedWordTerms([]byte(lw)) {
			if id, ok := ix.lookup(t); ok && t != lw && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// isPlural reports whether a word of letters looks like an English plural: an "s" ending
// that is not "ss", "us" or "is" (class, status, analysis).
func isPlural(w string) bool {
	if len(w) < 4 || !isLetters(w) || w[len(w)-1] != 's' {
		return false
	}
	switch w[len(w)-2] {
	case 's', 'u', 'i':
		return false
	}
	return true
}

// listsPlural reports whether a tool's name lists (has a list verb) something the request
// names in the plural: a word of the name has one of the plural terms.
func (ix *Index) listsPlural(s int32, plurals []int32) bool {
	if len(plurals) == 0 || ix.stats[s].verbs&namesList == 0 {
		return false
	}
	_, named := ix.nameWordsIn(s, plurals)
	return named > 0
}
