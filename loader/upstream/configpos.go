package upstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/loader/problem"
)

// A FileError is a configuration file that could not be read as one: the
// problem, located where the file went wrong (file:line:column) when it
// was read at all.
type FileError struct {
	Problem problem.Problem
	Err     error // the error read or decoding gave, for errors.Is and As
}

// Error is the problem as file:line:column: message, the form editors
// jump to.
func (e *FileError) Error() string {
	p := e.Problem
	s := p.File
	if p.Line > 0 {
		s += fmt.Sprintf(":%d", p.Line)
		if p.Column > 0 {
			s += fmt.Sprintf(":%d", p.Column)
		}
	}
	return s + ": " + p.Message
}

func (e *FileError) Unwrap() error { return e.Err }

// jsonFileError locates a JSON text's decoding error in it and says what is
// wrong in words an author acts on: a comma missing, a trailing comma, a
// value of the wrong type. want describes the document wanted, for a wrong
// type at the top.
func jsonFileError(path string, data []byte, err error, want string) *FileError {
	p := problem.Problem{File: path, Severity: problem.SeverityError}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		at, msg := describeSyntax(data, int(syn.Offset), syn.Error())
		p.Line, p.Column = position(data, at)
		p.Message = "invalid JSON: " + msg
	case errors.As(err, &typ):
		at := 0
		if pos, ok := locate(data).values[typ.Field]; ok {
			at = pos
		}
		p.Line, p.Column = position(data, at)
		p.Message = fmt.Sprintf("%s, got %s", want, typ.Value)
		if typ.Field != "" {
			p.Message = fmt.Sprintf("%s: %s", typ.Field, p.Message)
		}
	default:
		p.Message = "invalid JSON: " + err.Error()
	}
	return &FileError{Problem: p, Err: err}
}

// describeSyntax turns encoding/json's syntax error, which came after
// reading offset bytes, into where the fault is and what it is.
func describeSyntax(data []byte, offset int, goMsg string) (int, string) {
	if offset >= len(data) && strings.Contains(goMsg, "unexpected end") {
		return len(data), "the file ends before every { and [ in it is closed"
	}
	at := max(offset-1, 0) // the character that did not fit
	var found string
	if at < len(data) {
		r, _ := utf8.DecodeRune(data[at:])
		found = fmt.Sprintf("%q", r)
	}
	prev := bytes.TrimRight(data[:at], " \t\r\n")
	trailingComma := len(prev) > 0 && prev[len(prev)-1] == ','
	switch {
	case trailingComma && at < len(data) && (data[at] == '}' || data[at] == ']'):
		return len(prev) - 1, "a trailing comma: JSON takes no comma after the last member of an object or array; remove it"
	case strings.Contains(goMsg, "after object key:value pair"):
		return at, "found " + found + " where a comma or } belongs: a comma is missing between two members of an object (at the end of the line before, usually)"
	case strings.Contains(goMsg, "after array element"):
		return at, "found " + found + " where a comma or ] belongs: a comma is missing between two elements of an array"
	case strings.Contains(goMsg, "looking for beginning of object key string"):
		return at, "found " + found + " where a key belongs: keys are strings in double quotes"
	case strings.Contains(goMsg, "after object key"):
		return at, "found " + found + " where a colon belongs, between a key and its value"
	case strings.Contains(goMsg, "looking for beginning of value"):
		return at, "found " + found + " where a value belongs: a string in double quotes, a number, true, false, null, an object or an array"
	}
	return at, strings.TrimPrefix(goMsg, "json: ")
}

// position is the 1-based line and column (in characters) of the byte at
// offset.
func position(data []byte, offset int) (line, column int) {
	offset = min(max(offset, 0), len(data))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[lineStart:]) + 1
}

// jsonPositions are where each value and key of a JSON text starts, by
// its path as the decoders name it in problems: mcpServers.NAME.args[0].
type jsonPositions struct {
	values, keys map[string]int
}

// locate finds the positions of a JSON text that decoded without error
// (so that its depth is bounded), walking its tokens once.
func locate(data []byte) jsonPositions {
	w := &posWalker{data: data, dec: json.NewDecoder(bytes.NewReader(data)), pos: jsonPositions{values: map[string]int{}, keys: map[string]int{}}}
	w.dec.UseNumber()
	_ = w.value("") // a text that decoded walks without error
	return w.pos
}

// at is where a problem about path is: the value's, or the key's for an
// unknown key, or else the nearest enclosing value's (a missing field
// is reported at its entry).
func (p jsonPositions) at(path string, isKey bool) (int, bool) {
	if isKey {
		if off, ok := p.keys[path]; ok {
			return off, true
		}
	}
	for path != "" {
		if off, ok := p.values[path]; ok {
			return off, true
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0, false
}

type posWalker struct {
	data []byte
	dec  *json.Decoder
	pos  jsonPositions
}

// next is where the next token starts: past the separators the decoder
// has not consumed yet.
func (w *posWalker) next() int {
	i := int(w.dec.InputOffset())
	for i < len(w.data) && strings.IndexByte(" \t\r\n,:", w.data[i]) >= 0 {
		i++
	}
	return i
}

func (w *posWalker) value(path string) error {
	w.pos.values[path] = w.next()
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		for w.dec.More() {
			at := w.next()
			k, err := w.dec.Token()
			if err != nil {
				return err
			}
			key, _ := k.(string)
			if path != "" {
				key = path + "." + key
			}
			w.pos.keys[key] = at
			if err := w.value(key); err != nil {
				return err
			}
		}
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			if err := w.value(fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	_, err = w.dec.Token() // the closing delimiter
	return err
}

// placeProblems gives each problem about a key of data its line and
// column: the value's, or the key's itself for the fields in atKey (an
// unknown key).
func placeProblems(data []byte, positions func() jsonPositions, probs problem.Problems, atKey map[string]bool) {
	if len(probs) == 0 {
		return
	}
	pos := positions()
	for i := range probs {
		p := &probs[i]
		if p.Field == "" || p.Line > 0 {
			continue
		}
		if off, ok := pos.at(p.Field, atKey[p.Field]); ok {
			p.Line, p.Column = position(data, off)
		}
	}
}
