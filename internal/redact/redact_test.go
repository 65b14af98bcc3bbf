package redact

import (
	"bytes"
	"errors"
	"io/fs"
	"log/slog"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct {
		name     string
		secrets  []string
		rewrites []string
		in, want string
	}{
		{"plain", []string{"s3cretValue"}, nil, "sent s3cretValue twice: s3cretValue", "sent REDACTED twice: REDACTED"},
		{"short values are words", []string{"abc", ""}, nil, "abc json", "abc json"},
		{"query-escaped", []string{"a b&c=d"}, nil, "url ?k=a+b%26c%3Dd", "url ?k=REDACTED"},
		{"path-escaped", []string{"a b/c"}, nil, "url /a%20b%2Fc/x", "url /REDACTED/x"},
		// A secret that contains a shorter one goes whole, whatever the
		// order it was given in.
		{"longest first", []string{"abcd", "xxabcdyy"}, nil, "tok xxabcdyy", "tok REDACTED"},
		{"rewrite before secrets", []string{"pa55word"}, []string{"https://u:pa55word@h/", "https://REDACTED@h/"}, "GET https://u:pa55word@h/: refused pa55word", "GET https://REDACTED@h/: refused REDACTED"},
		{"nothing to take out", nil, nil, "as it was", "as it was"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := New(tt.secrets, tt.rewrites...).String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	var none *Redactor
	if got := none.String("x s3cret"); got != "x s3cret" {
		t.Errorf("a nil Redactor changed the text to %q", got)
	}
}

func TestError(t *testing.T) {
	r := New([]string{"s3cretValue"})
	if r.Error(nil) != nil {
		t.Error("Error(nil) is not nil")
	}
	clean := errors.New("nothing secret")
	if r.Error(clean) != clean {
		t.Error("an error without secrets was wrapped")
	}
	err := r.Error(&fs.PathError{Op: "open", Path: "/tmp/s3cretValue", Err: fs.ErrNotExist})
	if strings.Contains(err.Error(), "s3cretValue") {
		t.Errorf("message %q keeps the secret", err)
	}
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) {
		t.Error("the redacted error no longer wraps the original")
	}
}

func TestHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(New([]string{"s3cretValue"}).Handler(slog.NewTextHandler(&buf, nil)))
	log.With("url", "k=s3cretValue").WithGroup("g").Info("sent s3cretValue",
		"err", errors.New("refused s3cretValue"),
		slog.Group("inner", "v", "s3cretValue"),
		"n", 7)
	out := buf.String()
	if strings.Contains(out, "s3cretValue") || strings.Count(out, Marker) != 4 || !strings.Contains(out, "g.n=7") {
		t.Errorf("log line %q: want the four secrets redacted and the rest kept", out)
	}
	h := slog.NewTextHandler(&buf, nil)
	if New(nil).Handler(h) != h {
		t.Error("a Redactor with nothing to take out wrapped the handler")
	}
}
