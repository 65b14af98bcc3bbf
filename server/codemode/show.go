package codemode

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"github.com/toolsearch/toolsearch/internal/utf8cut"
)

// What a script shows the model (each print's arguments, and the value of
// its last expression) is written as the fewest tokens that say it: a
// string as its text, a dict, list, tuple or struct as compact JSON, the
// form a proxy's structured result already has, rather than Starlark's
// repr with its spaces after every comma and colon; anything else as str
// gives it (True, None, 3.5).

// errShowLong stops writing a value past the room left for the output.
var errShowLong = errors.New("longer than the output may be")

// show is v as the model reads it, written up to max bytes: past that,
// what fits and false (the output is then full).
func show(v starlark.Value, max int) (string, bool) {
	if s, ok := v.(starlark.String); ok {
		return string(s), true
	}
	w := &shower{max: max}
	switch v.(type) {
	case starlark.IterableMapping, starlark.Iterable, starlark.HasAttrs:
		w.value(v)
	default:
		w.write(v.String())
	}
	return w.b.String(), w.err == nil
}

// shower writes compact JSON into b up to max bytes: a cyclic or huge
// value stops at the room for the output, not at the end of memory.
type shower struct {
	b   strings.Builder
	max int
	err error
	// path holds the lists and dicts being written, to write one that
	// holds itself as [...] or {...}, as Starlark's repr does.
	path []starlark.Value
	// enc quotes strings into quoted.
	enc    *json.Encoder
	quoted bytes.Buffer
}

// enter reports whether v, a container, can be written: false when it is
// already being written (a cycle). leave undoes it.
func (w *shower) enter(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.List, *starlark.Dict:
		if slices.Contains(w.path, v) {
			return false
		}
		w.path = append(w.path, v)
	}
	return true
}

func (w *shower) leave(v starlark.Value) {
	if n := len(w.path); n > 0 && w.path[n-1] == v {
		w.path = w.path[:n-1]
	}
}

func (w *shower) write(s string) {
	if w.err != nil {
		return
	}
	if room := w.max - w.b.Len(); len(s) > room {
		w.b.WriteString(utf8cut.Prefix(s, room))
		w.err = errShowLong
		return
	}
	w.b.WriteString(s)
}

func (w *shower) quote(s string) {
	if w.err != nil {
		return
	}
	if w.enc == nil {
		w.enc = json.NewEncoder(&w.quoted)
		// <, > and & escaped for HTML are noise to a model.
		w.enc.SetEscapeHTML(false)
	}
	w.quoted.Reset()
	_ = w.enc.Encode(s)
	w.write(strings.TrimSuffix(w.quoted.String(), "\n"))
}

// value writes v as JSON; a value JSON has no form for is written as str
// gives it, inside a string where a key needs one.
func (w *shower) value(v starlark.Value) {
	if w.err != nil {
		return
	}
	switch v := v.(type) {
	case starlark.NoneType:
		w.write("null")
	case starlark.Bool:
		w.write(strconv.FormatBool(bool(v)))
	case starlark.Int, starlark.Float:
		w.write(v.String())
	case starlark.String:
		w.quote(string(v))
	case starlark.IterableMapping:
		if !w.enter(v) {
			w.write("{...}")
			return
		}
		defer w.leave(v)
		items := v.Items()
		slices.SortStableFunc(items, func(a, b starlark.Tuple) int { return strings.Compare(keyText(a[0]), keyText(b[0])) })
		w.write("{")
		for i, kv := range items {
			if i > 0 {
				w.write(",")
			}
			w.quote(keyText(kv[0]))
			w.write(":")
			w.value(kv[1])
		}
		w.write("}")
	case starlark.Iterable:
		if !w.enter(v) {
			w.write("[...]")
			return
		}
		defer w.leave(v)
		w.write("[")
		it := v.Iterate()
		defer it.Done()
		var x starlark.Value
		for i := 0; w.err == nil && it.Next(&x); i++ {
			if i > 0 {
				w.write(",")
			}
			w.value(x)
		}
		w.write("]")
	case starlark.HasAttrs:
		names := slices.Sorted(slices.Values(v.AttrNames()))
		w.write("{")
		for i, name := range names {
			x, err := v.Attr(name)
			if err != nil || x == nil {
				x = starlark.None
			}
			if i > 0 {
				w.write(",")
			}
			w.quote(name)
			w.write(":")
			w.value(x)
		}
		w.write("}")
	default:
		w.quote(v.String())
	}
}

// keyText is a dict key as JSON's string key: a string's text, any other
// key as str gives it.
func keyText(k starlark.Value) string {
	if s, ok := k.(starlark.String); ok {
		return string(s)
	}
	return k.String()
}
