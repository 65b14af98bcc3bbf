package search

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestTuneMisses(t *testing.T) {
	if os.Getenv("TUNE") == "" {
		t.Skip()
	}
	tools, qs := loadDev(t)
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	rep := Evaluate(ix, qs, EvalOptions{Misses: 400})
	f, _ := os.Create("/tmp/misses.txt")
	rep.WriteText(f, true)
	f.Close()
}

func devEval(t *testing.T, ix *Index, qs []EvalQuery) EvalReport {
	return Evaluate(ix, qs, EvalOptions{})
}

func TestTuneExplain(t *testing.T) {
	q := os.Getenv("EXPLAIN")
	if q == "" {
		t.Skip()
	}
	tools, _ := loadDev(t)
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	p := parseQuery(q)
	opt, _, _ := ix.queryConcepts(p)
	names := map[int32]string{}
	for k, v := range ix.termIDs {
		names[v] = k
	}
	for _, c := range opt {
		for _, qt := range c.terms {
			t.Logf("term %-12s idf %.2f w %.2f df %d", names[qt.id], c.idf, qt.weight, ix.terms[qt.id].df)
		}
	}
	r := ix.Search(Query{Text: q, Limit: 10})
	for _, h := range r.Hits {
		t.Logf("%-50s %.4f %v", h.ID, h.Score, h.Match)
	}
	for _, id := range strings.Split(os.Getenv("DOCS"), ",") {
		if id == "" {
			continue
		}
		s := ix.byID[id]
		a := newAnalyzer().analyze(&ix.slots[s].doc)
		t.Logf("%s lens %v terms %v", id, a.lens, a.terms)
		for _, c := range opt {
			qt := c.terms[0]
			for _, p := range ix.terms[qt.id].postings {
				if p.doc == s {
					t.Logf("   has %s tf %x", names[qt.id], p.tf)
				}
			}
		}
	}
}

func TestTuneZero(t *testing.T) {
	if os.Getenv("ZERO") == "" {
		t.Skip()
	}
	tools, qs := loadDev(t)
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	zero, missed, ranks := 0, 0, map[string]int{}
	for _, q := range qs {
		r := ix.Search(Query{Text: q.Query, Limit: 3000})
		pos := map[string]int{}
		for i, h := range r.Hits {
			pos[h.ID] = i + 1
		}
		for _, g := range q.groups() {
			best := 0
			for _, id := range g {
				if p := pos[id]; p > 0 && (best == 0 || p < best) {
					best = p
				}
			}
			switch {
			case best == 0:
				zero++
				ranks["none"]++
			case best <= 5:
				ranks["1-5"]++
			case best <= 10:
				ranks["6-10"]++
				missed++
			case best <= 20:
				ranks["11-20"]++
				missed++
			case best <= 50:
				ranks["21-50"]++
				missed++
			default:
				ranks[">50"]++
				missed++
			}
		}
	}
	t.Logf("groups with no text match: %d, ranked beyond 5: %d, %v", zero, missed, ranks)
}

func TestTuneR1(t *testing.T) {
	if os.Getenv("R1") == "" {
		t.Skip()
	}
	tools, qs := loadDev(t)
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	f, _ := os.Create("/tmp/r1.txt")
	defer f.Close()
	for _, q := range qs {
		r := ix.Search(Query{Text: q.Query, Limit: 5})
		if len(q.groups()) != 1 || len(r.Hits) == 0 {
			continue
		}
		g := q.groups()[0]
		rank := 0
		for i, h := range r.Hits {
			if slices.Contains(g, h.ID) {
				rank = i + 1
			}
		}
		if rank >= 2 {
			fmt.Fprintf(f, "%s [%d]\n  Q: %.150s\n  want %v\n  got  %s\n", q.Category, rank, q.Query, g, r.Hits[0].ID)
			d, _ := ix.Doc(g[0])
			fmt.Fprintf(f, "  want-desc: %.150s\n", d.Description)
			d, _ = ix.Doc(r.Hits[0].ID)
			fmt.Fprintf(f, "  got-desc:  %.150s\n", d.Description)
		}
	}
}

func TestTuneByGroups(t *testing.T) {
	if os.Getenv("BYG") == "" {
		t.Skip()
	}
	tools, qs := loadDev(t)
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	by := map[int][]EvalQuery{}
	for _, q := range qs {
		n := min(len(q.groups()), 3)
		by[n] = append(by[n], q)
	}
	for n := 1; n <= 3; n++ {
		r := devEval(t, ix, by[n])
		t.Logf("groups %d: %d queries R@1 %.3f R@5 %.3f R@10 %.3f MRR %.3f", n, r.Queries, r.RecallAt1, r.RecallAt5, r.RecallAt10, r.MRR)
	}
}
