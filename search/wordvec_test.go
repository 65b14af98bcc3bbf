package search

import (
	"strings"
	"testing"
)

func TestShippedWordVectors(t *testing.T) {
	wv := shippedVectors()
	if len(wv.words) != 40000 || wv.dim != 100 {
		t.Fatalf("%d words of %d dimensions, want 40000 of 100", len(wv.words), wv.dim)
	}
	if wv.words[0] != "the" {
		t.Errorf("first word %q, want the most frequent, \"the\"", wv.words[0])
	}
	cos := func(a, b string) float64 {
		i, ok := wv.word(a)
		j, ok2 := wv.word(b)
		if !ok || !ok2 {
			t.Fatalf("%s or %s not in the table", a, b)
		}
		return wv.cosine(i, j)
	}
	if c := cos("car", "car"); c < 0.999 {
		t.Errorf("cos(car, car) = %.3f", c)
	}
	// Words requests and tools say for one thing are near; unrelated words are not.
	for _, near := range [][2]string{{"postal", "zip"}, {"song", "music"}, {"painting", "museum"}, {"car", "vehicle"}} {
		for _, far := range []string{"parliament", "protein"} {
			if n, f := cos(near[0], near[1]), cos(near[0], far); n <= f+0.15 {
				t.Errorf("cos(%s, %s) = %.3f, not well above cos(%s, %s) = %.3f", near[0], near[1], n, near[0], far, f)
			}
		}
	}
	// Terms find their words: the index's "weather" term is the stem "weather".
	if _, ok := wv.byStem[normalize("weather")]; !ok {
		t.Error("no word for the term of \"weather\"")
	}
}

func TestParseWordVectorsErrors(t *testing.T) {
	good := "TSWV1\n2 3\nab\ncd\n\x01\x02\x03\xff\xfe\xfd"
	wv, err := parseWordVectors([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if c := wv.cosine(0, 1); c > -0.999 {
		t.Errorf("cos of opposite vectors = %.3f, want -1", c)
	}
	for _, c := range []struct{ in, want string }{
		{"TSWV2\n", "no TSWV1 header"},
		{"TSWV1\n2 3", "header ends early"},
		{"TSWV1\nx 3\n", "want a count and a dimension"},
		{"TSWV1\n2 0\n", "want a count and a dimension"},
		{"TSWV1\n2 3\nab\n", "word 2 of 2: missing"},
		{"TSWV1\n2 3\nab\ncd\n\x01\x02", "2 bytes of vectors, want 2 × 3"},
	} {
		if _, err := parseWordVectors([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}
