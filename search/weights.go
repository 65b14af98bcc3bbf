package search

import (
	"fmt"
	"strings"
)

// weights are the numbers of ranking that are fitted to labelled queries rather than set
// by reasoning: how much a word counts in each field (a word of the tool's name says most
// about what it does, a word of a parameter description least), and how the second stage
// combines its features (the first, the first stage's score, fixes the scale). Every
// other number of ranking is a constant with a reason in its comment.
//
// defaultWeights are what FitWeightsPooled finds on the two development sets as a whole,
// the BFCL-heavy split and one real server's (dev-azure), starting from neutralWeights
// (`toolsearch eval --fit --fit-with DIR`, see BENCHMARKS.md); CrossValidate fits them
// afresh for each fold, from the same start, so that its figures say how the fit carries
// over to requests it never saw. The split has no titles and no skills: the title, heading and body weights
// are set by reasoning (a title says what a tool is for, as its name does; a skill's body
// is the weakest evidence) and never fitted.
type weights struct {
	field  [numFields]float64
	rerank [numFeatures]float64
}

var defaultWeights = weights{
	field: [numFields]float64{
		fieldName: 2, fieldSource: 1, fieldTitle: 2, fieldDesc: 1,
		fieldParamName: 1 / 0.7, fieldParamDesc: 0.5, fieldEnum: 1,
		fieldHeading: 1.5, fieldBody: 0.3, // fieldNamePart follows fieldName: see fieldWeights
	},
	rerank: [numFeatures]float64{featBase: 1, featNameFit: 0.2, featChangeAsked: -0.2, featListsPlural: 0.1},
}

// fieldNames name the fields in reports.
var fieldNames = [numFields]string{
	fieldName: "name", fieldSource: "source", fieldTitle: "title", fieldDesc: "description",
	fieldParamName: "param_name", fieldParamDesc: "param_description", fieldEnum: "enum",
	fieldHeading: "heading", fieldBody: "body", fieldNamePart: "name_part",
}

// featureNames name the second stage's features in reports.
var featureNames = [numFeatures]string{
	featBase: "base", featNameFit: "name_fit", featChangeAsked: "change_asked", featListsPlural: "lists_plural",
}

// fieldWeights are the weights ranking gives the fields: the fitted ones, and a compound's
// parts at namePartWeight of the name's, whatever the name's weight is fitted to.
func (w weights) fieldWeights() [numFields]float64 {
	f := w.field
	f[fieldNamePart] = namePartWeight * f[fieldName]
	return f
}

// Map returns the weights by name, for reports: "field.name", "rerank.name_fit", ….
func (w weights) Map() map[string]float64 {
	m := map[string]float64{}
	for f, v := range w.fieldWeights() {
		m["field."+fieldNames[f]] = v
	}
	for i, v := range w.rerank {
		m["rerank."+featureNames[i]] = v
	}
	return m
}

func (w weights) String() string {
	var b strings.Builder
	for f, v := range w.fieldWeights() {
		fmt.Fprintf(&b, "%s %.3g, ", fieldNames[f], v)
	}
	for i, v := range w.rerank[1:] {
		fmt.Fprintf(&b, "%s %.3g, ", featureNames[i+1], v)
	}
	return strings.TrimSuffix(b.String(), ", ")
}
