package runner

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// headBuffer keeps the first limit bytes written to it and counts them all,
// so that a script printing gigabytes costs limit bytes of memory.
type headBuffer struct {
	buf   []byte
	limit int
	total int64
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.total += int64(len(p))
	if room := h.limit - len(h.buf); room > 0 {
		h.buf = append(h.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// truncated reports whether bytes were discarded.
func (h *headBuffer) truncated() bool { return h.total > int64(len(h.buf)) }

// text returns the kept bytes as valid UTF-8, and whether anything had to
// be replaced. If bytes were discarded, it ends with a line saying how many.
func (h *headBuffer) text() (s string, replaced bool) {
	if !h.truncated() {
		return validUTF8(h.buf)
	}
	kept := trimIncompleteRune(h.buf)
	s, replaced = validUTF8(kept)
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s + fmt.Sprintf("[output truncated: showing the first %d of %d bytes; %d bytes left out]\n",
		len(kept), h.total, h.total-int64(len(kept))), replaced
}

// tailBuffer keeps the last len(buf) bytes written to it, in a ring.
type tailBuffer struct {
	buf   []byte
	next  int // where the next byte goes; the oldest byte once the ring is full
	total int64
}

func newTailBuffer(size int) *tailBuffer { return &tailBuffer{buf: make([]byte, size)} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	t.total += int64(n)
	if len(p) > len(t.buf) {
		p = p[len(p)-len(t.buf):]
	}
	c := copy(t.buf[t.next:], p)
	copy(t.buf, p[c:])
	t.next = (t.next + len(p)) % len(t.buf)
	return n, nil
}

// Bytes returns the kept bytes, oldest first.
func (t *tailBuffer) Bytes() []byte {
	if t.total <= int64(len(t.buf)) {
		return t.buf[:t.total]
	}
	return append(t.buf[t.next:len(t.buf):len(t.buf)], t.buf[:t.next]...)
}

// truncated reports whether bytes were discarded.
func (t *tailBuffer) truncated() bool { return t.total > int64(len(t.buf)) }

// text returns the kept bytes as valid UTF-8, after "…" if bytes were
// discarded.
func (t *tailBuffer) text() string {
	if !t.truncated() {
		s, _ := validUTF8(t.Bytes())
		return s
	}
	s, _ := validUTF8(trimPartialRune(t.Bytes()))
	return "…" + s
}

// validUTF8 returns b as a string with invalid UTF-8 replaced by U+FFFD,
// and whether anything was replaced.
func validUTF8(b []byte) (string, bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), true
}

// trimIncompleteRune drops a rune cut short at the end of b, so that
// cutting output at a byte limit does not make valid UTF-8 invalid.
func trimIncompleteRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// trimPartialRune drops continuation bytes at the start of b, left there
// when the start of a rune was overwritten in a tailBuffer.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < len(b) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}
