package jsonstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/internal/devsplit"
)

func TestValue(t *testing.T) {
	tests := []struct {
		in, value, rest string
		err             bool
	}{
		{in: `{"a":[1,{"b":"}]"}]} x`, value: `{"a":[1,{"b":"}]"}]}`, rest: ` x`},
		{in: ` "a\"b\\" , 1`, value: `"a\"b\\"`, rest: ` , 1`},
		{in: `[[],[[]]]]`, value: `[[],[[]]]`, rest: `]`},
		{in: `-12.5e3,`, value: `-12.5e3`, rest: `,`},
		{in: `true}`, value: `true`, rest: `}`},
		{in: "null\n", value: `null`, rest: "\n"},
		{in: `17`, value: `17`},
		{in: `tru`, value: `tru`}, // not checked: the caller's decoder says
		{in: ``, err: true},
		{in: `   `, err: true},
		{in: `]`, err: true},
		{in: `,1`, err: true},
		{in: `{"a":1`, err: true},
		{in: `"abc`, err: true},
		{in: `"abc\"`, err: true},
	}
	for _, tt := range tests {
		r := NewReader(strings.NewReader(tt.in))
		got, err := r.Value(nil)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v", tt.in, err)
			continue
		}
		if tt.err {
			continue
		}
		rest, _ := io.ReadAll(r.r)
		if string(got) != tt.value || string(rest) != tt.rest {
			t.Errorf("%q: got %q then %q, want %q then %q", tt.in, got, rest, tt.value, tt.rest)
		}
	}
}

// A value longer than the buffer, and split at every place by the reads
// under it, comes whole.
func TestValueAcrossReads(t *testing.T) {
	long := `{"s":"` + strings.Repeat(`x\"`, 50_000) + `","a":[` + strings.Repeat(`1,`, 40_000) + `2]}`
	for _, in := range []io.Reader{strings.NewReader(long + " "), &oneByte{long}} {
		got, err := NewReader(in).Value(nil)
		if err != nil || string(got) != long {
			t.Fatalf("%d bytes of %d, %v", len(got), len(long), err)
		}
	}
}

type oneByte struct{ s string }

func (o *oneByte) Read(p []byte) (int, error) {
	if o.s == "" {
		return 0, io.EOF
	}
	p[0], o.s = o.s[0], o.s[1:]
	return 1, nil
}

func TestString(t *testing.T) {
	for _, raw := range []string{`""`, `"abc"`, `"é 中"`, `"a\"b"`, `"\u00e9\ud83d\ude00"`, "\"a\xffb\"", "\"a\tb\"", `"a/b\/"`, `"x`, `x"`, `1`} {
		var want string
		wantErr := json.Unmarshal([]byte(raw), &want)
		got, err := String([]byte(raw))
		if got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("%s: got %q, %v; encoding/json %q, %v", raw, got, err, want, wantErr)
		}
	}
}

// walk reads the text's one value through r as a decoder of it would,
// every number, literal and string checked by encoding/json, and reports
// whether all of it was valid.
func walk(r *Reader) bool {
	c, err := r.Peek()
	if err != nil {
		return false
	}
	invalid := errors.New("invalid")
	element := func() error {
		if !walk(r) {
			return invalid
		}
		return nil
	}
	switch c {
	case '[':
		return r.Array(func(int) error { return element() }) == nil
	case '{':
		return r.Object(func(string) error { return element() }) == nil
	}
	raw, err := r.Value(nil)
	return err == nil && json.Valid(raw)
}

// A text read value by value, with what lies between them checked by the
// Reader and the values by encoding/json, is accepted exactly when it is
// valid JSON; read as one value, it is the text without its white space
// around.
func FuzzReader(f *testing.F) {
	for _, s := range []string{`[1,{"a":[true,null,"x"]},-2.5e3]`, `{"a":1,"b":{}}`, `[1 2]`, `[1,]`, `{"a" 1}`, `{1:2}`, `[}`, `[{]}`, `"a" "b"`, ` [ ] `, `[tru]`, `[1]x`, `{"a":"\u00e9"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		ok := walk(r)
		if ok {
			_, err := r.Peek()
			ok = errors.Is(err, io.ErrUnexpectedEOF) // nothing after the value
		}
		if ok != json.Valid(data) {
			t.Fatalf("%q: read as valid %v, encoding/json says %v", data, ok, json.Valid(data))
		}
		if !ok {
			return
		}
		got, err := NewReader(bytes.NewReader(data)).Value(nil)
		if want := bytes.Trim(data, " \t\r\n"); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%q: value %q, %v", data, got, err)
		}
	})
}

// BenchmarkArray reads the dev catalog's tools as a large catalog's are
// read, an element's bytes at a time; encoding-json is the json.Decoder
// reading each into a json.RawMessage, as before this package.
func BenchmarkArray(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(devsplit.Dir(), "catalog.json"))
	if err != nil {
		b.Skip(devsplit.Missing())
	}
	b.Run("jsonstream", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		var raw []byte
		for b.Loop() {
			r := NewReader(bytes.NewReader(data))
			if err := r.Expect('['); err != nil {
				b.Fatal(err)
			}
			for n := 0; ; n++ {
				more, err := r.More(']', n)
				if err != nil {
					b.Fatal(err)
				}
				if !more {
					break
				}
				if raw, err = r.Value(raw[:0]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		var raw json.RawMessage
		for b.Loop() {
			dec := json.NewDecoder(bytes.NewReader(data))
			if _, err := dec.Token(); err != nil {
				b.Fatal(err)
			}
			for dec.More() {
				if err := dec.Decode(&raw); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
