package scan

import (
	"crypto/sha256"
	"fmt"
	"os"
	"testing"
)

// BenchmarkScanCorpora scans the skills of every corpus present, as a
// user's start does for each skill: with TOOLSEARCH_SCAN_SPLIT=dev (the
// figure BENCHMARKS.md gives) the development corpora alone. Tools are
// left out: BenchmarkDevCatalog times them. Reading the corpora is not
// timed; MB/s is over the skills' bytes.
func BenchmarkScanCorpora(b *testing.B) {
	var skills []sample
	var size int64
	for _, s := range loadCorpora(b) {
		if s.skill == nil {
			continue
		}
		skills = append(skills, s)
		for _, f := range s.skill {
			size += int64(len(f.Data))
		}
	}
	if len(skills) == 0 {
		b.Skip("no skill in the corpora present")
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i := range skills {
			skills[i].scan()
		}
	}
	b.ReportMetric(float64(len(skills)), "skills")
}

// TestCorpusDigest guards the verdicts across a change meant to keep them
// (a speed-up): it scans every corpus sample, held-out ones too, and
// prints one sha256 over each sample's source, id and findings, in order,
// and the count of samples. Nothing else is printed, so a held-out verdict
// is never seen: compare the digest before and after the change.
// TOOLSEARCH_SCAN_DIGEST=1 runs it (the corpora take a minute or two).
func TestCorpusDigest(t *testing.T) {
	if os.Getenv("TOOLSEARCH_SCAN_DIGEST") != "1" {
		t.Skip("TOOLSEARCH_SCAN_DIGEST=1 runs it")
	}
	if os.Getenv("TOOLSEARCH_SCAN_SPLIT") != "" {
		t.Skip("the digest is over every corpus: unset TOOLSEARCH_SCAN_SPLIT")
	}
	h := sha256.New()
	samples := loadCorpora(t)
	for i := range samples {
		s := &samples[i]
		fmt.Fprintf(h, "%s\x00%s\x00", s.source, s.id)
		for _, f := range s.scan() {
			fmt.Fprintf(h, "%s\x00", f.String())
		}
		h.Write([]byte{'\n'})
	}
	t.Logf("digest %x over %d samples", h.Sum(nil), len(samples))
}
