// Package jsonstream reads a JSON text a value at a time, as the bytes of
// each value, on jsontext's Decoder: a large array's elements can then be
// decoded elsewhere (on other cores) while the text is still being read.
//
// A Reader takes what json.Unmarshal takes (duplicate names, invalid UTF-8)
// and checks all of it as it goes: the bytes of a value it returns are
// JSON, and a text read to its end whose values were all returned is.
package jsonstream

import (
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// A Reader reads values from a JSON text.
type Reader struct {
	dec *jsontext.Decoder
}

// NewReader returns a Reader of the JSON text r holds. A *bytes.Buffer is
// read in place.
func NewReader(r io.Reader) *Reader {
	return &Reader{dec: jsontext.NewDecoder(r, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))}
}

// Peek returns the kind of the next token without consuming it: its first
// byte, but '0' for any number. At the end of the text it returns
// io.ErrUnexpectedEOF; on a fault, what is wrong and where.
func (r *Reader) Peek() (jsontext.Kind, error) {
	if k := r.dec.PeekKind(); k != 0 {
		return k, nil
	}
	_, err := r.dec.ReadToken() // the fault PeekKind saw
	return 0, r.fault(err)
}

// Expect consumes the next token, which must open an array or object: '['
// or '{'.
func (r *Reader) Expect(open jsontext.Kind) error {
	got, err := r.Peek()
	if err != nil {
		return err
	}
	if got != open {
		return r.syntaxError(fmt.Sprintf("want %q, found %s", byte(open), kindName(got)))
	}
	_, err = r.dec.ReadToken()
	return r.fault(err)
}

// More reports whether another element follows in the array or object
// whose opening bracket was read; when none does, it consumes the closing
// bracket end.
func (r *Reader) More(end jsontext.Kind) (bool, error) {
	k, err := r.Peek()
	switch {
	case err != nil:
		return false, err
	case k == end:
		_, err := r.dec.ReadToken()
		return false, r.fault(err)
	}
	return true, nil
}

// Null reports whether the next value is null, and consumes it if so.
func (r *Reader) Null() (bool, error) {
	if k, err := r.Peek(); err != nil || k != 'n' {
		return false, err
	}
	_, err := r.dec.ReadToken()
	return err == nil, r.fault(err)
}

// Array reads the array at r's position, up to and including its closing
// bracket, calling element to read each element (by its index).
func (r *Reader) Array(element func(i int) error) error {
	return r.each('[', ']', element)
}

// Object reads the object at r's position, up to and including its closing
// brace, calling member with each key to read the member's value.
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
func (r *Reader) each(open, close jsontext.Kind, next func(n int) error) error {
	if err := r.Expect(open); err != nil {
		return err
	}
	for n := 0; ; n++ {
		if more, err := r.More(close); err != nil || !more {
			return err
		}
		if err := next(n); err != nil {
			return err
		}
	}
}

// Key reads the key of an object's member.
func (r *Reader) Key() (string, error) {
	if k, err := r.Peek(); err != nil {
		return "", err
	} else if k != '"' {
		return "", r.syntaxError("want a string for an object's key, found " + kindName(k))
	}
	tok, err := r.dec.ReadToken()
	if err != nil {
		return "", r.fault(err)
	}
	return tok.String(), nil
}

// Value appends the bytes of the next value to dst and consumes them.
func (r *Reader) Value(dst []byte) ([]byte, error) {
	if _, err := r.Peek(); err != nil {
		return dst, err
	}
	raw, err := r.dec.ReadValue()
	if err != nil {
		return dst, r.fault(err)
	}
	return append(dst, raw...), nil
}

// String decodes a JSON string's bytes, as json.Unmarshal does: a lone
// surrogate and each byte of invalid UTF-8 made U+FFFD.
func String(raw []byte) (string, error) {
	if !jsontext.Value(raw).IsValid(jsontext.AllowInvalidUTF8(true)) || jsontext.Value(raw).Kind() != '"' {
		return "", fmt.Errorf("jsonstream: %.20q is not a JSON string", raw)
	}
	s, _ := jsontext.AppendUnquote(nil, raw) // checked: an error is U+FFFD made
	return string(s), nil
}

// A SyntaxError is what is wrong in a text, and where.
type SyntaxError struct {
	Offset int64 // bytes before the one at fault
	msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.Offset) }

func (r *Reader) syntaxError(msg string) error { return &SyntaxError{r.dec.InputOffset(), msg} }

// fault is err as a Reader reports it: the end of the text is
// io.ErrUnexpectedEOF, what the decoder found wrong a *SyntaxError.
func (r *Reader) fault(err error) error {
	var se *jsontext.SyntacticError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return io.ErrUnexpectedEOF
	case errors.As(err, &se):
		return &SyntaxError{se.ByteOffset, se.Err.Error()}
	}
	return err
}

// kindName names a token's kind for an error.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 'n', 't', 'f':
		return "a literal"
	case 0:
		return "nothing"
	}
	return fmt.Sprintf("%q", byte(k))
}
