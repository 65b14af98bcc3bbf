// Package jsonstream reads a JSON text a value at a time, as the bytes of
// each value, without decoding them. A large array's elements can then be
// decoded elsewhere (on other cores), and finding where a value ends does not
// cost what encoding/json's scanner costs, which runs a state machine on
// every byte: reading the 100,000 tools of a large catalog off a file took
// that scanner, twice over (once to find a tool's end, once to skip it into
// a json.RawMessage), as long as decoding them took on a core.
//
// A Reader finds where values end; it does not check them. The bytes of a
// value are what the text holds from its first byte to its last, valid JSON
// only if the text is: the caller decodes them, which checks them. What a
// Reader checks itself is what lies between values (white space, commas,
// colons, brackets), so that a text whose values all decode is valid JSON.
//
// Why not jsontext's Decoder (issue 46): its ReadValue checks every value
// in full, which the decoder of each value does again. Built on it, this
// package read a tools file 10 % slower (ReadTools at 42,000 tools: 150 ms
// against 137, medians of four runs in turn) and a 100,000-tool file's first
// tools/list came later; the start-up guard allows 5 %. Strings are decoded
// by encoding/json (String), not by an unescaper of this package's own.
package jsonstream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// A Reader reads values from a JSON text.
type Reader struct {
	r   *bufio.Reader
	off int64 // bytes consumed, for errors
}

// NewReader returns a Reader of the JSON text r holds. A *bufio.Reader of
// 64 KB or more is read as it is, not buffered again.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Peek returns the next byte that is not white space, without consuming it.
// At the end of the text it returns io.ErrUnexpectedEOF.
func (r *Reader) Peek() (byte, error) {
	for {
		buf, err := r.fill()
		for i, c := range buf {
			if !isSpace(c) {
				r.discard(i)
				return c, nil
			}
		}
		r.discard(len(buf))
		if err != nil {
			return 0, err
		}
	}
}

// Expect consumes the next byte that is not white space, which must be c.
func (r *Reader) Expect(c byte) error {
	got, err := r.Peek()
	if err != nil {
		return err
	}
	if got != c {
		return r.syntaxError(fmt.Sprintf("want %q, found %q", c, got))
	}
	r.discard(1)
	return nil
}

// More reports whether another element follows in the array or object
// whose opening bracket was read, n of whose elements were: it consumes the
// comma before that element, or the closing bracket end when there is none.
func (r *Reader) More(end byte, n int) (bool, error) {
	c, err := r.Peek()
	switch {
	case err != nil:
		return false, err
	case c == end:
		r.discard(1)
		return false, nil
	case n == 0:
		return true, nil
	case c != ',':
		return false, r.syntaxError(fmt.Sprintf("want ',' or %q after an element, found %q", end, c))
	}
	r.discard(1)
	return true, nil
}

// Null reports whether the next value is null, and consumes it if so.
func (r *Reader) Null() (bool, error) {
	if c, err := r.Peek(); err != nil || c != 'n' {
		return false, err
	}
	raw, err := r.Value(nil)
	if err == nil && string(raw) != "null" {
		err = r.syntaxError(fmt.Sprintf("want null, found %.20q", raw))
	}
	return err == nil, err
}

// Array reads the array at r's position, up to and including its closing
// bracket, calling element to read each element (by its index).
func (r *Reader) Array(element func(i int) error) error {
	return r.each('[', ']', element)
}

// Object reads the object at r's position, up to and including its closing
// brace, calling member with each key, once the colon after it is read, to
// read the member's value.
func (r *Reader) Object(member func(key string) error) error {
	return r.each('{', '}', func(int) error {
		key, err := r.Key()
		if err != nil {
			return err
		}
		return member(key)
	})
}

// each reads what open opens, up to and including the close that ends it,
// calling next to read each of its elements or members (by its index).
func (r *Reader) each(open, close byte, next func(n int) error) error {
	if err := r.Expect(open); err != nil {
		return err
	}
	for n := 0; ; n++ {
		if more, err := r.More(close, n); err != nil || !more {
			return err
		}
		if err := next(n); err != nil {
			return err
		}
	}
}

// Key reads the key of an object's member, and the colon after it.
func (r *Reader) Key() (string, error) {
	if c, err := r.Peek(); err != nil {
		return "", err
	} else if c != '"' {
		return "", r.syntaxError(fmt.Sprintf("want a string for an object's key, found %q", c))
	}
	raw, err := r.Value(nil)
	if err != nil {
		return "", err
	}
	key, err := String(raw)
	if err != nil {
		return "", err
	}
	return key, r.Expect(':')
}

// Value appends the bytes of the next value to dst and consumes them. A
// number or literal ends at the first byte that may follow a value, or at
// the end of the text; any other value at its closing quote or bracket.
func (r *Reader) Value(dst []byte) ([]byte, error) {
	first, err := r.Peek()
	if err != nil {
		return dst, err
	}
	switch first {
	case '{', '[', '"', 't', 'f', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
	default:
		return dst, r.syntaxError(fmt.Sprintf("want a value, found %q", first))
	}
	var (
		depth    int  // brackets open
		inString bool // within a string, at depth or on its own
		escaped  bool // after a backslash within a string
	)
	for {
		buf, err := r.fill()
		for i := 0; i < len(buf); i++ {
			if inString && !escaped {
				// Most of a catalog's bytes are in strings: skip to the
				// next quote or backslash.
				i += stringEnd(buf[i:])
				if i == len(buf) {
					break
				}
			}
			c := buf[i]
			if inString {
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
					if depth == 0 {
						return r.take(dst, buf[:i+1]), nil
					}
				}
				continue
			}
			switch c {
			case '"':
				inString = true
			case '{', '[':
				depth++
			case '}', ']':
				if depth == 0 { // the bracket after a number or literal
					return r.take(dst, buf[:i]), nil
				}
				if depth--; depth == 0 {
					return r.take(dst, buf[:i+1]), nil
				}
			case ',', ':', ' ', '\t', '\n', '\r':
				if depth == 0 {
					return r.take(dst, buf[:i]), nil
				}
			}
		}
		dst = r.take(dst, buf)
		if err == io.ErrUnexpectedEOF && depth == 0 && !inString && first != '"' {
			return dst, nil // a number or literal that ends the text
		}
		if err != nil {
			return dst, err
		}
	}
}

// stringEnd returns the index in b of the first quote or backslash, or
// len(b).
func stringEnd(b []byte) int {
	q := bytes.IndexByte(b, '"')
	if q < 0 {
		q = len(b)
	}
	if e := bytes.IndexByte(b[:q], '\\'); e >= 0 {
		return e
	}
	return q
}

// String decodes a JSON string's bytes, as a value of the text: those of a
// string without escapes, control characters or bytes that are not UTF-8
// are its text as they stand, the others are decoded by encoding/json.
func String(raw []byte) (string, error) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		inner := raw[1 : len(raw)-1]
		plain := utf8.Valid(inner)
		for _, c := range inner {
			if c < 0x20 || c == '\\' || c == '"' {
				plain = false
				break
			}
		}
		if plain {
			return string(inner), nil
		}
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// fill returns the bytes buffered, reading more when there are none; at the
// end of the text, with none, io.ErrUnexpectedEOF.
func (r *Reader) fill() ([]byte, error) {
	if r.r.Buffered() == 0 {
		if _, err := r.r.Peek(1); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	buf, _ := r.r.Peek(r.r.Buffered())
	return buf, nil
}

// take appends the bytes b, which begin the buffer, to dst and consumes
// them.
func (r *Reader) take(dst, b []byte) []byte {
	dst = append(dst, b...)
	r.discard(len(b))
	return dst
}

func (r *Reader) discard(n int) {
	r.r.Discard(n)
	r.off += int64(n)
}

// A SyntaxError is what is wrong between the values of a text, and where.
type SyntaxError struct {
	Offset int64 // bytes before the one at fault
	msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.Offset) }

func (r *Reader) syntaxError(msg string) error { return &SyntaxError{r.off, msg} }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
