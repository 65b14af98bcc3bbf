package runner

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseShebang(t *testing.T) {
	tests := []struct{ line, interp, arg string }{
		{"/bin/sh", "/bin/sh", ""},
		{"/bin/bash -e", "/bin/bash", "-e"},
		{" /bin/bash  -e -u ", "/bin/bash", "-e -u"}, // one argument, as Linux passes it
		{"/usr/bin/env python3", "/usr/bin/env", "python3"},
		{"/usr/bin/env\tnode", "/usr/bin/env", "node"},
		{"/bin/sh\r", "/bin/sh", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		interp, arg := parseShebang(tt.line)
		if interp != tt.interp || arg != tt.arg {
			t.Errorf("parseShebang(%q) = %q, %q; want %q, %q", tt.line, interp, arg, tt.interp, tt.arg)
		}
	}
}

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name, text string
		mode       os.FileMode
		want       []string // "P" stands for the script's path
		err        error
	}{
		{"a.sh", "#!/bin/sh\n", 0o644, []string{"/bin/sh", "P"}, nil},
		{"b", "#!/bin/sh -e -u\n", 0o644, []string{"/bin/sh", "-e -u", "P"}, nil},
		{"c.py", "#!/usr/bin/env sh\n", 0o644, []string{"sh", "P"}, nil}, // #! wins over the extension
		{"d", "#!/usr/bin/env -S sh -e\n", 0o644, []string{"sh", "-e", "P"}, nil},
		{"e", "#!/usr/bin/env -i sh\n", 0o644, nil, ErrNoInterpreter},
		{"f", "#!\n", 0o644, nil, ErrNoInterpreter},
		{"g", "#!/no/such/sh\n", 0o644, nil, ErrNoInterpreter},
		{"h.sh", "echo hi\n", 0o644, []string{"bash", "P"}, nil},
		{"i", "\x7fELF", 0o755, []string{"P"}, nil},
		{"j", "echo hi\n", 0o644, nil, ErrNoInterpreter},
		{"k", "", 0o644, nil, ErrNoInterpreter},
		{"l", "#!/bin/sh", 0o644, []string{"/bin/sh", "P"}, nil}, // no newline
	}
	for _, tt := range tests {
		path := write(tt.name, tt.text, tt.mode)
		argv, err := command(path)
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.err)
			continue
		}
		// Programs found in PATH come back as full paths: compare base names.
		for i, a := range argv {
			switch {
			case a == path:
				argv[i] = "P"
			case i == 0 && !slices.Contains(tt.want, a):
				argv[i] = filepath.Base(a)
			}
		}
		if !slices.Equal(argv, tt.want) {
			t.Errorf("%s: argv = %q, want %q", tt.name, argv, tt.want)
		}
	}
}

func TestHeadBuffer(t *testing.T) {
	tests := []struct {
		limit  int
		writes []string
		kept   string
	}{
		{5, []string{"abc"}, "abc"},
		{5, []string{"abc", "def"}, "abcde"},
		{5, []string{"abcdefgh", "ij"}, "abcde"},
		{5, []string{"abcde", ""}, "abcde"},
	}
	for _, tt := range tests {
		h := &headBuffer{limit: tt.limit}
		var total int
		for _, w := range tt.writes {
			if n, err := h.Write([]byte(w)); n != len(w) || err != nil {
				t.Fatalf("Write(%q) = %d, %v", w, n, err)
			}
			total += len(w)
		}
		if string(h.buf) != tt.kept || h.total != int64(total) || h.truncated() != (total > len(tt.kept)) {
			t.Errorf("%q: kept %q of %d, want %q of %d", tt.writes, h.buf, h.total, tt.kept, total)
		}
	}
}

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		writes []string
		kept   string
	}{
		{nil, ""},
		{[]string{"ab"}, "ab"},
		{[]string{"abcde"}, "abcde"},
		{[]string{"abcdef"}, "bcdef"},
		{[]string{"abc", "def"}, "bcdef"},
		{[]string{"abc", "defgh", "i"}, "efghi"},
		{[]string{"a", "b", "c", "d", "e", "f", "g"}, "cdefg"},
		{[]string{"abcd", "0123456789"}, "56789"},
		{[]string{"abcd", "vwxyz"}, "vwxyz"},
	}
	for _, tt := range tests {
		b := newTailBuffer(5)
		for _, w := range tt.writes {
			b.Write([]byte(w))
		}
		total := len(strings.Join(tt.writes, ""))
		if string(b.Bytes()) != tt.kept || b.truncated() != (total > 5) {
			t.Errorf("%q: kept %q, want %q", tt.writes, b.Bytes(), tt.kept)
		}
	}
}

func TestTrimRunes(t *testing.T) {
	tests := []struct{ in, incomplete, partial string }{
		{"abc", "abc", "abc"},
		{"aé", "aé", "aé"},
		{"a\xc3", "a", "a\xc3"},
		{"a\xe2\x82", "a", "a\xe2\x82"},
		{"\xa9bc", "\xa9bc", "bc"},
		{"\x82\xacb", "\x82\xacb", "b"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := string(trimIncompleteRune([]byte(tt.in))); got != tt.incomplete {
			t.Errorf("trimIncompleteRune(%q) = %q, want %q", tt.in, got, tt.incomplete)
		}
		if got := string(trimPartialRune([]byte(tt.in))); got != tt.partial {
			t.Errorf("trimPartialRune(%q) = %q, want %q", tt.in, got, tt.partial)
		}
	}
}

func TestResultText(t *testing.T) {
	tests := []struct {
		name string
		res  Result
		want string
	}{
		{"ok", Result{Stdout: "done\n", StdoutBytes: 5}, "done\n"},
		{"ok, no newline", Result{Stdout: "done", StdoutBytes: 4}, "done"},
		{"ok, silent", Result{}, "[the script succeeded and printed nothing]\n"},
		{"exit", Result{Stdout: "half", StdoutBytes: 4, ExitCode: 2, Stderr: "boom\n"},
			"half\n[script failed: exit code 2]\n[stderr]\nboom\n"},
		{"exit, no stderr", Result{ExitCode: 1}, "[script failed: exit code 1]\n"},
		{"signal", Result{ExitCode: -1, Signal: "SIGSEGV", Stderr: "core"},
			"[script failed: killed by SIGSEGV]\n[stderr]\ncore\n"},
		{"timeout", Result{ExitCode: -1, Signal: "SIGTERM", TimedOut: true, Timeout: time.Minute},
			"[script failed: timed out after 1m0s and was stopped (SIGTERM)]\n"},
		{"timeout, exited", Result{ExitCode: 0, TimedOut: true, Timeout: time.Second},
			"[script failed: timed out after 1s and was stopped (exit code 0)]\n"},
		{"cancelled", Result{ExitCode: -1, Signal: "SIGTERM", Cancelled: true},
			"[script failed: cancelled and stopped (SIGTERM)]\n"},
		{"invalid", Result{Stdout: "a\uFFFD", StdoutBytes: 2, InvalidUTF8: true},
			"a\uFFFD\n[the output was not valid UTF-8: invalid bytes were replaced with U+FFFD]\n"},
	}
	for _, tt := range tests {
		if got := tt.res.Text(); got != tt.want {
			t.Errorf("%s: Text() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
