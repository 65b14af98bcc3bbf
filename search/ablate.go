package search

import (
	"fmt"
	"strings"
)

// Every hand-written rule of ranking and every fitted feature can be switched off on its
// own (Options.Ablate), so that `toolsearch eval --ablate` can show what each carries on
// requests it was not developed on. A rule's switch is read where the rule runs; an index
// keeps its switches for life, so that tests and evaluations that build several indexes
// at once never share one.

// Rule is one switchable rule or fitted feature of ranking.
type Rule uint8

// The rules and features that can be switched off; see rules for what each does.
const (
	RuleNeeds Rule = iota
	RuleHints
	RuleOpeners
	RuleQuoted
	RuleCompound
	RulePhrases
	RuleSynonyms
	RuleWordNet
	RuleSoft
	RuleGloss
	RuleServer
	RuleNameFit
	RuleChangeAsked
	RuleListsPlural
	numRules
)

// RuleInfo names a rule for reports and for --ablate.
type RuleInfo struct {
	Rule Rule
	Name string
	What string // what switching it off leaves out
}

var rules = [numRules]RuleInfo{
	RuleNeeds:       {Name: "needs", What: "a request that enumerates its needs is also ranked need by need (needs.go)"},
	RuleHints:       {Name: "hints", What: "a value's type joins the query (\"date\" for \"on March 5th\", hints.go)"},
	RuleOpeners:     {Name: "openers", What: "\"show me\", \"help me\" carry no need, and ask rather than order"},
	RuleQuoted:      {Name: "quoted", What: "quoted values of a long request are not searched for"},
	RuleCompound:    {Name: "compound", What: "a name's compound word is cut into its parts (compound.go)"},
	RulePhrases:     {Name: "phrases", What: "two query words a name writes as one (\"current weather\")"},
	RuleSynonyms:    {Name: "synonyms", What: "the hand-written synonyms of a query word (lexicon.go)"},
	RuleWordNet:     {Name: "wordnet", What: "WordNet's derived forms and senses (wordnet.go)"},
	RuleSoft:        {Name: "soft", What: "word vectors for a word no document has (soft.go)"},
	RuleGloss:       {Name: "gloss", What: "English glosses of Chinese words, in requests and tools (cedict.go)"},
	RuleServer:      {Name: "server", What: "a server's evidence lends weight to each of its tools"},
	RuleNameFit:     {Name: "name_fit", What: "fitted feature: the share of the name's words the query asks for"},
	RuleChangeAsked: {Name: "change_asked", What: "fitted feature: a tool named for a change when the request only asks (action.go)"},
	RuleListsPlural: {Name: "lists_plural", What: "fitted feature: a list tool for what the request names in the plural (action.go)"},
}

// ruleFeature maps the fitted features' rules to their features.
var ruleFeature = map[Rule]int{RuleNameFit: featNameFit, RuleChangeAsked: featChangeAsked, RuleListsPlural: featListsPlural}

// Rules lists every switchable rule and feature, in a fixed order.
func Rules() []RuleInfo {
	out := make([]RuleInfo, numRules)
	for r := range numRules {
		out[r] = rules[r]
		out[r].Rule = r
	}
	return out
}

// Ablation is a set of rules switched off; the zero Ablation switches nothing off.
type Ablation struct{ off uint64 }

// Off returns the ablation with r switched off as well.
func (a Ablation) Off(r Rule) Ablation {
	a.off |= 1 << r
	return a
}

// on reports whether the rule is in force.
func (a Ablation) on(r Rule) bool { return a.off&(1<<r) == 0 }

// Empty reports whether nothing is switched off.
func (a Ablation) Empty() bool { return a.off == 0 }

// String lists the rules switched off, comma-separated, as ParseAblation reads them.
func (a Ablation) String() string {
	var names []string
	for r := range numRules {
		if !a.on(r) {
			names = append(names, rules[r].Name)
		}
	}
	return strings.Join(names, ",")
}

// ParseAblation reads a comma-separated list of rule names (see Rules).
func ParseAblation(list string) (Ablation, error) {
	var a Ablation
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		r, ok := ruleNamed(name)
		if !ok {
			return Ablation{}, fmt.Errorf("no rule is named %q: `toolsearch eval --ablate list` names them", name)
		}
		a = a.Off(r)
	}
	return a, nil
}

func ruleNamed(name string) (Rule, bool) {
	for r := range numRules {
		if rules[r].Name == name {
			return r, true
		}
	}
	return 0, false
}

// Options configure an index for life.
type Options struct {
	// Ablate switches rules and features of ranking off, to measure what they carry.
	Ablate Ablation
}

// NewIndexWith returns an empty index configured by o.
func NewIndexWith(o Options) *Index {
	ix := NewIndex()
	ix.ablate = o.Ablate
	ix.weights = ix.ablated(ix.weights)
	return ix
}

// ablated returns w with the weights of the features switched off set to 0, so that a
// fit cannot take them up again.
func (ix *Index) ablated(w weights) weights {
	for r, f := range ruleFeature {
		if !ix.ablate.on(r) {
			w.rerank[f] = 0
		}
	}
	return w
}
