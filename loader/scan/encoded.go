package scan

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Long runs of base64, hex or percent-encoding are decoded, and what they
// spell is scanned as text of the same kind: "decode it and follow it
// exactly" hides a directive from every rule that reads the text as
// written. Only a decoding that is readable text is scanned; images, keys
// and digests decode to bytes and are passed over.

// Bounds on decoding what a text controls.
const (
	minEncodedRun  = 40 // bytes of base64 or hex; shorter runs are names and digests
	minEscapedRun  = 12 // escapes (%41 or \x41) in a row
	maxEncodedRuns = 16
	maxEncodedLen  = 64 << 10
)

// encodedRuns finds the runs, in one pass over the bytes.
func encodedRuns(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s) && len(out) < maxEncodedRuns; {
		switch c := s[i]; {
		case c == '%' || c == '\\' && i+1 < len(s) && s[i+1] == 'x':
			j, n := i, 0
			for j < len(s) {
				if s[j] == '%' && j+2 < len(s) && isHex(s[j+1:j+3]) {
					j += 3
				} else if s[j] == '\\' && j+3 < len(s) && s[j+1] == 'x' && isHex(s[j+2:j+4]) {
					j += 4
				} else if n > 0 && s[j] > ' ' && s[j] != '%' && s[j] != '\\' && s[j] != '"' && s[j] < 0x80 && j+1 < len(s) && (s[j+1] == '%' || s[j+1] == '\\') {
					j++ // a plain character between escapes
					continue
				} else {
					break
				}
				n++
			}
			if n >= minEscapedRun {
				out = append(out, [2]int{i, j})
			}
			i = max(j, i+1)
		case base64Byte(c):
			j := i
			for j < len(s) && base64Byte(s[j]) {
				j++
			}
			for j < len(s) && s[j] == '=' {
				j++
			}
			if j-i >= minEncodedRun {
				out = append(out, [2]int{i, j})
			}
			i = j
		default:
			i++
		}
	}
	return out
}

func base64Byte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-'
}

func scanEncoded(fs *findings, raw string, depth int) {
	for _, r := range encodedRuns(raw) {
		run := raw[r[0]:min(r[1], r[0]+maxEncodedLen)]
		decoded, how := decodeRun(run)
		if decoded == "" {
			continue
		}
		sub := &doc{}
		sub.add("decoded", decoded)
		inner := &findings{d: sub, kind: fs.kind}
		if inner.kind == kindCode {
			inner.kind = kindText // a script's encoded text is there to be decoded
		}
		inner.scanText(sub.text(), depth+1)
		for _, f := range inner.list {
			fs.prefix = how + " text that decodes to a finding: "
			fs.add(f.Rule, f.Severity, r[0], r[1], f.Message)
			fs.prefix = ""
		}
	}
}

// decodeRun decodes a run as base64 (standard or URL alphabet, padded or
// not), hex or percent-encoding, and returns it when it is readable text.
func decodeRun(run string) (string, string) {
	switch {
	case strings.HasPrefix(run, `\x`):
		b, err := hex.DecodeString(strings.ReplaceAll(run, `\x`, ""))
		if err == nil && readable(b) {
			return string(b), "hex-escaped"
		}
	case strings.HasPrefix(run, "%"):
		s, err := url.PathUnescape(run)
		if err == nil && readable([]byte(s)) {
			return s, "percent-encoded"
		}
	default:
		if isHex(run) {
			if b, err := hex.DecodeString(run[:len(run)&^1]); err == nil && readable(b) {
				return string(b), "hex-encoded"
			}
		}
		t := strings.TrimRight(run, "=")
		if len(t)%4 == 1 {
			t = t[:len(t)-1]
		}
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(t); err == nil && readable(b) {
				return string(b), "base64"
			}
		}
	}
	return "", ""
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// readable reports text: valid UTF-8, with letters and spaces and few
// controls, as prose is.
func readable(b []byte) bool {
	if len(b) < 16 || !utf8.Valid(b) {
		return false
	}
	letters, spaces, bad, n := 0, 0, 0, 0
	for _, r := range string(b) {
		n++
		switch {
		case unicode.IsLetter(r):
			letters++
		case r == ' ' || r == '\n' || r == '\t':
			spaces++
		case r < 0x20 || r == utf8.RuneError:
			bad++
		}
	}
	// Prose is mostly letters; a command line (cat ~/.aws/credentials |
	// curl -d @- http://…) is half symbols, and is text all the same.
	return bad == 0 && (spaces >= 2 && letters*10 >= n*6 || spaces >= 3 && letters*10 >= n*4)
}
