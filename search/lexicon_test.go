package search

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestLexiconAblation takes each hand-kept entry of the lexicon out in turn (a synonym
// group, a word of a group, an abbreviation, a stop word, a stem exception), scores the
// dev split and the keyword queries without it, and writes one line per entry to
// $SEARCH_ABLATION_OUT (a TSV): the change in R@1 and R@5 overall, in how many of the five
// grouped folds R@5 (then R@1) rose and fell, on the keyword queries, and which dev queries
// changed. Weights stay as shipped: the lexicon is not fitted, so refitting per fold would
// only add noise. It takes a few minutes:
//
//	SEARCH_TUNE=1 SEARCH_ABLATION_OUT=/tmp/ablation.tsv go test -run TestLexiconAblation -timeout 30m ./search/
func TestLexiconAblation(t *testing.T) {
	out := os.Getenv("SEARCH_ABLATION_OUT")
	if os.Getenv("SEARCH_TUNE") == "" || out == "" {
		t.Skip("set SEARCH_TUNE=1 and SEARCH_ABLATION_OUT=FILE to take the lexicon apart")
	}
	tools, qs := loadDev(t)
	kws := readQueries(t, "testdata/dev-keywords.jsonl")
	fold, _ := toolFolds(qs, 5)
	docs := toolDocs(tools, "")
	run := func() (dev, kw []Metrics, devTop [][]string) {
		termCache.Lock()
		clear(termCache.m)
		termCache.Unlock()
		ix := NewIndex()
		ix.Add(docs...)
		devTop = ix.rankAll(qs, "")
		for i, q := range qs {
			m, _ := scoreRanking(devTop[i], q.groups())
			dev = append(dev, m)
		}
		for i, r := range ix.rankAll(kws, "") {
			m, _ := scoreRanking(r, kws[i].groups())
			kw = append(kw, m)
		}
		return dev, kw, devTop
	}
	mean := func(ms []Metrics, keep func(i int) bool) Metrics {
		var s Metrics
		for i, m := range ms {
			if keep == nil || keep(i) {
				s.add(m)
			}
		}
		s.average()
		return s
	}
	baseDev, baseKW, baseTop := run()
	w, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	fmt.Fprintln(w, "kind\tentry\tdR@1\tdR@5\tfolds R@5 +/-\tfolds R@1 +/-\tkw dR@1\tkw dR@5\tchanged (better/worse)")
	measure := func(kind, entry string, undo func()) {
		dev, kw, top := run()
		undo()
		d, b := mean(dev, nil), mean(baseDev, nil)
		var up5, down5, up1, down1 int
		for k := range 5 {
			in := func(i int) bool { return fold[i] == k }
			x, y := mean(dev, in), mean(baseDev, in)
			switch {
			case x.RecallAt5 > y.RecallAt5+1e-9:
				up5++
			case x.RecallAt5 < y.RecallAt5-1e-9:
				down5++
			}
			switch {
			case x.RecallAt1 > y.RecallAt1+1e-9:
				up1++
			case x.RecallAt1 < y.RecallAt1-1e-9:
				down1++
			}
		}
		var changed []string
		for i := range qs {
			if !slices.Equal(top[i][:min(5, len(top[i]))], baseTop[i][:min(5, len(baseTop[i]))]) {
				sign := "="
				if o := objective(dev[i]) - objective(baseDev[i]); o > 1e-9 {
					sign = "+"
				} else if o < -1e-9 {
					sign = "-"
				}
				changed = append(changed, qs[i].ID+sign)
			}
		}
		k, kb := mean(kw, nil), mean(baseKW, nil)
		fmt.Fprintf(w, "%s\t%s\t%+.4f\t%+.4f\t%d/%d\t%d/%d\t%+.4f\t%+.4f\t%d: %s\n", kind, entry,
			d.RecallAt1-b.RecallAt1, d.RecallAt5-b.RecallAt5, up5, down5, up1, down1,
			k.RecallAt1-kb.RecallAt1, k.RecallAt5-kb.RecallAt5, len(changed), strings.Join(changed, " "))
	}
	groups := slices.Clone(synonymGroups)
	for gi, g := range groups {
		synonyms = buildSynonyms(slices.Delete(slices.Clone(groups), gi, gi+1))
		measure("synonym group", strings.Join(g, " "), func() { synonyms = buildSynonyms(groups) })
		if len(g) <= 2 {
			continue
		}
		for wi, word := range g {
			less := slices.Clone(groups)
			less[gi] = slices.Delete(slices.Clone(g), wi, wi+1)
			synonyms = buildSynonyms(less)
			measure("synonym word", word+" ("+g[0]+")", func() { synonyms = buildSynonyms(groups) })
		}
	}
	for _, k := range slices.Sorted(maps.Keys(abbreviations)) {
		v := abbreviations[k]
		delete(abbreviations, k)
		measure("abbreviation", k+"="+v, func() { abbreviations[k] = v })
	}
	for _, k := range slices.Sorted(maps.Keys(stopWords)) {
		delete(stopWords, k)
		synonyms = buildSynonyms(groups)
		measure("stop word", k, func() { stopWords[k] = true; synonyms = buildSynonyms(groups) })
	}
	for _, k := range slices.Sorted(maps.Keys(stemExceptions)) {
		v := stemExceptions[k]
		delete(stemExceptions, k)
		synonyms = buildSynonyms(groups)
		measure("stem exception", k+"="+v, func() { stemExceptions[k] = v; synonyms = buildSynonyms(groups) })
	}
}
