package search

import (
	"slices"
	"strings"
)

// A request often says what has already been done before what it wants: "review the
// messages I've sent", "once the list is sorted, count its lines", "the credit card I
// registered". The past form of a verb names a state or a result, not the action asked
// for; a tool named for that action ranked first on the words it shares with the request.
// A tool whose name has a word that the request writes only so, never in a present form,
// is contradicted by the request (see reranker.contradicted).

// irregularPast maps an irregular verb to its past forms: the past tense, then the past
// participle where it differs ("run ran run").
var irregularPast = func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(`begin began begun
break broke broken
bring brought
build built
buy bought
choose chose chosen
do did done
draw drew drawn
drive drove driven
eat ate eaten
fall fell fallen
find found
fly flew flown
forget forgot forgotten
freeze froze frozen
give gave given
go went gone
hide hid hidden
hold held
keep kept
know knew known
leave left
lend lent
lose lost
make made
meet met
pay paid
ride rode ridden
run ran run
see saw seen
seek sought
sell sold
send sent
shake shook shaken
show showed shown
sing sang sung
sleep slept
speak spoke spoken
spend spent
stand stood
steal stole stolen
take took taken
teach taught
tell told
think thought
throw threw thrown
understand understood
wake woke woken
wear wore worn
win won
withdraw withdrew withdrawn
write wrote written`, "\n") {
		f := strings.Fields(line)
		m[f[0]] = f[1:]
	}
	return m
}()

// pastForms returns a word's past forms, read as a verb's: its irregular forms, else its
// regular -ed form; both the doubled and the plain one where the final consonant may
// double, since stress decides (stopped, registered) and no table of stress is at hand.
func pastForms(w string) []string {
	if p, ok := irregularPast[w]; ok {
		return p
	}
	n := len(w)
	if n < 3 || !isLetters(w) {
		return nil
	}
	switch last := w[n-1]; {
	case last == 'e':
		return []string{w + "d"}
	case last == 'y' && !strings.ContainsRune("aeiou", rune(w[n-2])):
		return []string{w[:n-1] + "ied"}
	case doublesFinal(w):
		return []string{w + string(last) + "ed", w + "ed"}
	}
	return []string{w + "ed"}
}

// presentForms returns a word's present forms: itself, with -s and with -ing.
func presentForms(w string) []string {
	n := len(w)
	out := []string{w, w + "s", w + "es", w + "ing"}
	if n > 2 && w[n-1] == 'e' {
		out = append(out, w[:n-1]+"ing")
	}
	if n > 2 && w[n-1] == 'y' {
		out = append(out, w[:n-1]+"ies")
	}
	if doublesFinal(w) {
		out = append(out, w+w[n-1:]+"ing")
	}
	return out
}

// irregularVerb maps an irregular past form to its verb ("sent" to "send").
var irregularVerb = func() map[string]string {
	m := map[string]string{}
	for verb, forms := range irregularPast {
		for _, f := range forms {
			if f != verb {
				m[f] = verb
			}
		}
	}
	return m
}()

// verbCandidates returns the words of which t may be a form (pastForms, presentForms):
// itself, the irregular verb it is a past of, and t without each regular ending. A caller
// checks a candidate with those functions.
func verbCandidates(t string) []string {
	out := []string{t}
	if v, ok := irregularVerb[t]; ok {
		out = append(out, v)
	}
	n := len(t)
	for _, end := range [...]string{"s", "es", "d", "ed", "ing"} {
		if n > len(end) && strings.HasSuffix(t, end) {
			out = append(out, t[:n-len(end)])
		}
	}
	switch {
	case n > 3 && (strings.HasSuffix(t, "ies") || strings.HasSuffix(t, "ied")):
		out = append(out, t[:n-3]+"y") // copies, copied
	case n > 4 && strings.HasSuffix(t, "ing"):
		out = append(out, t[:n-3]+"e", t[:n-4]) // creating; stopping
	case n > 3 && strings.HasSuffix(t, "ed"):
		out = append(out, t[:n-3]) // stopped
	}
	return out
}

// perfectAuxiliaries are the forms of "have" that make a perfect tense, and perfectAdverbs
// the words that may stand between one and its verb ("I have already sent").
var (
	perfectAuxiliaries = toSet("have has had having ive havent hasnt hadnt")
	perfectAdverbs     = toSet("already just never not ever recently previously also since")
)

// participles returns a request's words (parseQuery's) with the base form of an irregular
// verb after a perfect auxiliary written as its past participle: "the messages I have send
// so far" asks for the messages sent, and read as written asks to send one. Only a base
// form that ends its clause or comes before a function word is taken for a verb ("I have
// send the file"); before a content word it is a noun ("I have build errors", "we have show
// tickets"). Regular verbs are left alone: after "have" their base forms are as often nouns
// ("have access to", "have list of"). words itself is returned when nothing changes.
func participles(words []string) []string {
	var out []string
	aux := false // the last word was a perfect auxiliary, or an adverb after one
	for i, w := range words {
		wasAux := aux
		aux = false
		if !wasAux && !mayBeAuxiliary(w) {
			continue // most words, without lower-casing them
		}
		core, rest := splitTrailingPunct(strings.ToLower(strings.ReplaceAll(w, "’", "'")))
		aux = rest == "" && (perfectAuxiliaries[strings.ReplaceAll(core, "'", "")] ||
			strings.HasSuffix(core, "'ve") || wasAux && perfectAdverbs[core])
		forms := irregularPast[core]
		if !wasAux || aux || len(forms) == 0 || forms[len(forms)-1] == core {
			continue // no verb after an auxiliary, or one whose participle is written so
		}
		if rest == "" && i+1 < len(words) {
			next, _ := splitTrailingPunct(strings.ToLower(words[i+1]))
			if !stopWords[next] {
				continue
			}
		}
		if out == nil {
			out = slices.Clone(words)
		}
		out[i] = forms[len(forms)-1] + rest
	}
	if out == nil {
		return words
	}
	return out
}

// mayBeAuxiliary is a cheap test that a word may be one of perfectAuxiliaries.
func mayBeAuxiliary(w string) bool {
	return len(w) >= 3 && (w[0]|0x20 == 'h' || strings.Contains(w, "ve"))
}

// splitTrailingPunct splits a word from the punctuation that closes it ("send," into "send"
// and ",").
func splitTrailingPunct(w string) (core, punct string) {
	core = strings.TrimRight(w, ".,;:!?)]\"'")
	return core, w[len(core):]
}

// doneOpeners are the prepositions after which a gerund tells of an action already done
// ("after sending the message", "upon verifying").
var doneOpeners = toSet("after post following upon")

// doneWords returns the words that a request's tokens (requestTokens) write only as done
// already: in a past form, or as a gerund after one of doneOpeners, and never in a present
// form elsewhere. Nil when there are none, as for most requests.
func doneWords(toks []string) map[string]bool {
	var done map[string]bool
	mark := func(verb string) {
		if done == nil {
			done = map[string]bool{}
		}
		done[verb] = true
	}
	gerundDone := func(i int) bool {
		return i > 0 && doneOpeners[toks[i-1]] && strings.HasSuffix(toks[i], "ing")
	}
	for i, t := range toks {
		forms := pastForms
		switch {
		case gerundDone(i):
			forms = presentForms
		case !strings.HasSuffix(t, "d") && irregularVerb[t] == "":
			continue // no past form
		}
		for _, v := range verbCandidates(t) {
			if slices.Contains(forms(v), t) {
				mark(v)
			}
		}
	}
	if done == nil {
		return nil
	}
	written := make(map[string]bool, len(toks))
	for i, t := range toks {
		if !gerundDone(i) {
			written[t] = true
		}
	}
	for v := range done {
		if slices.ContainsFunc(presentForms(v), func(f string) bool { return written[f] }) {
			delete(done, v)
		}
	}
	return done
}

// doneInName reports whether a word of the tool's own name is one of done (doneWords).
func doneInName(name string, done map[string]bool) bool {
	if len(done) == 0 {
		return false
	}
	_, short := splitQualified(name)
	found := false
	splitWords(short, func(b []byte) {
		for _, w := range spelledOut(string(b)) { // splitWords lower-cases
			found = found || done[w]
		}
	}, nil)
	return found
}
