package search

import "testing"

func TestOverlap(t *testing.T) {
	tests := []struct {
		query, text    string
		matched, total int
	}{
		{"send an email", "send_email: Send an email to a recipient.", 2, 2},
		{"bake sourdough bread", "read_pdf Read the text of a PDF file.", 0, 3},
		{"find the docs", "search_documents", 2, 2}, // synonym, abbreviation
		{"hello", "say_hello", 1, 1},                // not a stop word
		{"please, could you", "anything", 0, 0},
	}
	for _, tt := range tests {
		if m, n := Overlap(tt.query, tt.text); m != tt.matched || n != tt.total {
			t.Errorf("Overlap(%q, %q) = %d, %d; want %d, %d", tt.query, tt.text, m, n, tt.matched, tt.total)
		}
	}
}
