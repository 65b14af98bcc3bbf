package search

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The coded postings read back as they were written, whatever the slots' order (reused
// slots are lower than the last) and whatever the frequencies.
func TestPostingsRoundTrip(t *testing.T) {
	type posting struct {
		slot int32
		tf   uint32
	}
	tf := func(fs map[int]uint32) uint32 {
		var p uint32
		for f, v := range fs {
			p |= v << (f * tfBits)
		}
		return p
	}
	random := func(seed uint64) []posting {
		r := rand.New(rand.NewPCG(seed, 1))
		var ps []posting
		for range 2000 {
			var p uint32
			for f := range numFields {
				if r.IntN(3) == 0 {
					p |= uint32(r.IntN(tfMax+1)) << (f * tfBits)
				}
			}
			ps = append(ps, posting{r.Int32N(200_000), p})
		}
		return ps
	}
	tests := []struct {
		name     string
		postings []posting
	}{
		{"one field once", []posting{{0, tf(map[int]uint32{fieldDesc: 1})}}},
		{"in slot order", []posting{{3, tf(map[int]uint32{fieldName: 1, fieldDesc: 1})}, {4, tf(map[int]uint32{fieldParamDesc: 1})}, {90, tf(map[int]uint32{fieldNamePart: 1})}}},
		{"counts above one", []posting{{7, tf(map[int]uint32{fieldDesc: 2, fieldParamName: 1})}, {8, tf(map[int]uint32{fieldBody: tfMax, fieldHeading: 3, fieldName: 1})}}},
		{"every field at most", []posting{{1, tf(map[int]uint32{0: 7, 1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 7, 8: 7, 9: 7})}}},
		{"reused slots come lower", []posting{{5000, tf(map[int]uint32{fieldDesc: 1})}, {2, tf(map[int]uint32{fieldDesc: 3})}, {4999, tf(map[int]uint32{fieldEnum: 1})}}},
		{"slots far apart", []posting{{math.MaxInt32, tf(map[int]uint32{fieldName: 1})}, {0, tf(map[int]uint32{fieldName: 1})}, {math.MaxInt32, tf(map[int]uint32{fieldSource: 2})}}},
		{"no frequencies", []posting{{12, 0}}},
		{"random", random(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ts termStats
			for _, p := range tt.postings {
				ts.add(p.slot, p.tf)
			}
			r := ts.reader()
			for i, want := range tt.postings {
				slot, tf, ok := r.next()
				if !ok || slot != want.slot || tf != want.tf {
					t.Fatalf("posting %d: got slot %d tf %#o (ok %v), want slot %d tf %#o", i, slot, tf, ok, want.slot, want.tf)
				}
			}
			if slot, tf, ok := r.next(); ok {
				t.Fatalf("a posting past the end: slot %d tf %#o", slot, tf)
			}
		})
	}
}

// A posting that counts a term once in one field, the common case, takes two bytes when it
// follows the previous one closely.
func TestPostingsAreSmall(t *testing.T) {
	var ts termStats
	for s := range int32(1000) {
		ts.add(s*3, 1<<(fieldDesc*tfBits))
	}
	if n := len(ts.postings); n != 2000 {
		t.Errorf("1,000 postings take %d bytes, want 2,000", n)
	}
}

// Compacting writes the kept postings over the list it reads; what it keeps must read back
// whole, whichever postings it drops.
func TestCompactKeepsLivePostings(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for round := range 50 {
		ix := NewIndex()
		n := 300
		ix.stats = make([]docStats, n)
		ix.slots = make([]slot, n)
		type posting struct {
			slot int32
			tf   uint32
		}
		var all, live []posting
		var ts termStats
		for range 400 {
			p := posting{r.Int32N(int32(n)), uint32(r.IntN(1 << 30))}
			all = append(all, p)
			ts.add(p.slot, p.tf)
		}
		for i := range ix.stats {
			ix.stats[i].live = r.IntN(4) == 0 || round%10 == 0
		}
		for _, p := range all {
			if ix.stats[p.slot].live {
				live = append(live, p)
			}
		}
		ix.compact(&ts)
		rd := ts.reader()
		for i, want := range live {
			slot, tf, ok := rd.next()
			if !ok || slot != want.slot || tf != want.tf {
				t.Fatalf("round %d, posting %d: got slot %d tf %#o (ok %v), want slot %d tf %#o", round, i, slot, tf, ok, want.slot, want.tf)
			}
		}
		if _, _, ok := rd.next(); ok {
			t.Fatalf("round %d: compacted list has more than its %d live postings", round, len(live))
		}
	}
}
