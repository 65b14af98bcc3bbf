// Package schema prepares the input schemas of upstream tools for checking
// arguments, so that no schema and no arguments can crash toolsearch or make
// it work without end.
//
// Schemas are resolved and applied by github.com/google/jsonschema-go, whose
// validator recurses without a bound: a schema that refers to itself without
// consuming input ({"$ref":"#"}, {"allOf":[{"$ref":"#"}]}, a cycle through
// $defs) overflows the stack, which kills the process. Before anything is
// validated, this package resolves every reference itself and refuses such
// schemas with a *CycleError; Check does that cheaply for a whole catalog at
// load. Every validation is then bounded: its work is counted beforehand, on
// the same walk the validator would make, and arguments whose check would take
// more than MaxSteps steps, nest deeper than MaxDepth or make the validator
// walk and print more than MaxBytes are not checked (ErrUnchecked); the
// upstream judges them.
//
//	rs, err := schema.Resolve(tool.InputSchema)
//	if err != nil { ... } // a *CycleError, or a schema this package does not check
//	err = rs.Validate(args) // nil, an invalid argument, or ErrUnchecked
//
// A tool without an input schema (absent, or JSON null) takes any object, as
// the protocol intends: see OrDefault.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/toolsearch/toolsearch/internal/utf8cut"
)

// Bounds on what a schema and one validation may cost.
const (
	// MaxSchemaBytes bounds the JSON of a schema that is checked; the
	// largest real tool schemas are a few hundred kilobytes.
	MaxSchemaBytes = 1 << 20
	// MaxNesting bounds how deeply a schema's JSON nests. Decoding a schema
	// costs its size times its depth.
	MaxNesting = 128
	// MaxSteps bounds the subschemas applied in one validation, counting
	// one step for every subschema applied to every part of the arguments.
	MaxSteps = 100_000
	// MaxDepth bounds how deeply validation recurses: references and
	// combinators followed on one part of the arguments, plus the depth of
	// the arguments themselves.
	MaxDepth = 256
	// MaxBytes bounds how much of the arguments one validation may walk
	// (comparing values, hashing array items) or print into its messages,
	// counted for every step that may do so.
	MaxBytes = 32 << 20
	// maxMessage bounds the message of an invalid argument, which goes to
	// the model with the tool's schema.
	maxMessage = 4 << 10
)

// defaultSchema is what a tool without an input schema takes.
var defaultSchema = json.RawMessage(`{"type":"object"}`)

// Default returns the schema of a tool that declares none: any object.
func Default() json.RawMessage { return bytes.Clone(defaultSchema) }

// OrDefault returns the input schema to use for a tool: the schema itself,
// or Default when it is missing or JSON null.
func OrDefault(s any) any {
	if Missing(s) {
		return Default()
	}
	return s
}

// Missing reports whether a tool's input schema is absent: nil, empty, or
// JSON null.
func Missing(s any) bool {
	switch v := s.(type) {
	case nil:
		return true
	case json.RawMessage:
		v = bytes.TrimSpace(v)
		return len(v) == 0 || string(v) == "null"
	case []byte:
		return Missing(json.RawMessage(v))
	}
	return false
}

// ErrUnchecked is returned by Validate for arguments that were not checked
// because the check would cost more than the bounds allow, and wrapped by
// Resolve for schemas this package cannot check (another document's
// references, an unknown JSON Schema version, a size beyond the bounds).
// Neither is the caller's fault: the upstream judges the arguments.
var ErrUnchecked = errors.New("not checked")

// A CycleError reports a schema that applies itself to the same input
// without end: validating anything against it would never finish.
type CycleError struct {
	// Path lists the subschemas of the cycle as JSON Pointers, the first
	// repeated at the end.
	Path []string
}

func (e *CycleError) Error() string {
	var b bytes.Buffer
	for i, p := range e.Path {
		if i > 0 {
			b.WriteString(" → ")
		}
		b.WriteString("#" + p)
	}
	if len(e.Path) == 2 && e.Path[0] == e.Path[1] {
		return fmt.Sprintf("the input schema refers to itself (%s) without consuming any input, so no argument can ever be checked against it", b.String())
	}
	return fmt.Sprintf("the input schema's references form a cycle (%s) that consumes no input, so no argument can ever be checked against it", b.String())
}

// Resolved is a schema ready to check arguments.
type Resolved struct {
	rs *jsonschema.Resolved
	g  *graph
}

// Schema returns the root schema, for callers that look at its properties
// themselves (to name each argument that is missing or of the wrong type).
// It must not be changed.
func (r *Resolved) Schema() *jsonschema.Schema { return r.rs.Schema() }

// Resolve decodes and resolves an input schema (JSON as json.RawMessage or
// []byte, or any value that marshals to it), refusing one whose references
// cycle without consuming input (a *CycleError). A missing schema resolves
// as Default. Errors that wrap ErrUnchecked mean the schema is outside what
// this package checks; others come from the schema being invalid.
func Resolve(s any) (*Resolved, error) {
	raw, err := rawJSON(OrDefault(s))
	if err != nil {
		return nil, err
	}
	g, err := analyze(raw)
	if err != nil {
		return nil, err
	}
	rs, err := g.root.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return &Resolved{rs: rs, g: g}, nil
}

// Check reports a schema that Resolve would refuse with a *CycleError, and
// nothing else. It is cheap for the schemas of a whole catalog: a schema
// without any reference cannot cycle and is only scanned; one with
// references is read for the few keywords the analysis needs (see
// lightDecode), and decoded in full only to confirm a cycle found, or when
// the light decode cannot be sure of it.
func Check(s any) error {
	raw, err := rawJSON(s)
	if err != nil || !mayRefer(raw) || bounded(raw) != nil || !lightCycle(raw) {
		return nil
	}
	_, err = analyze(raw)
	var ce *CycleError
	if errors.As(err, &ce) {
		return ce
	}
	return nil
}

// MayCycle reports whether a schema may hold a cycle, because it may hold
// a reference: whether Check has to decode it. It costs a scan of the JSON
// for two bytes most schemas lack; callers that check the same schemas again
// and again keep the verdicts on those for which it is true.
func MayCycle(s any) bool {
	raw, err := rawJSON(s)
	return err == nil && mayRefer(raw)
}

// mayRefer reports whether raw may hold a $ref or $dynamicRef keyword:
// written out in any case (encoding/json matches keys to fields
// case-insensitively, so "$REF" is a $ref too), or spelled with escapes of
// the letters they are made of ("\u0024ref"). Escapes of other characters
// (Go's encoder writes "<" as "\u003c") do not count. No letter beyond ASCII
// folds onto theirs (TestMayReferFolds).
func mayRefer(raw []byte) bool {
	// Two scans for bytes that most schemas lack, rather than searches for
	// strings: this runs for every tool of a catalog.
	for rest := raw; ; {
		i := bytes.IndexByte(rest, '$')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		if hasPrefixFold(rest, `ref"`) || hasPrefixFold(rest, `dynamicref"`) {
			return true
		}
	}
	for rest := raw; ; {
		i := bytes.IndexByte(rest, '\\')
		if i < 0 || i+6 > len(rest) {
			return false
		}
		if rest[i+1] == '\\' { // an escaped backslash escapes nothing else
			rest = rest[i+2:]
			continue
		}
		if bytes.HasPrefix(rest[i+1:], []byte("u00")) {
			if c, err := strconv.ParseUint(string(rest[i+4:i+6]), 16, 8); err == nil && strings.IndexByte(referLetters, byte(c)) >= 0 {
				return true
			}
		}
		rest = rest[i+1:]
	}
}

// referLetters are the characters of "$ref" and "$dynamicRef", in either
// case.
const referLetters = "$refdynamicREFDYNAMIC"

// hasPrefixFold reports whether b begins with prefix, a lower-case ASCII
// string, whatever the case of b's letters.
func hasPrefixFold(b []byte, prefix string) bool {
	if len(b) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// Validate checks an instance, decoded from JSON into plain Go values (maps,
// slices, strings, float64, bools, nil), against the schema. It returns nil
// for a valid instance, an error that wraps ErrUnchecked when the check
// would exceed the bounds, and otherwise an error saying what is wrong,
// cut to a few kilobytes.
func (r *Resolved) Validate(instance any) (err error) {
	if err := r.g.cost(instance); err != nil {
		return err
	}
	defer func() {
		// The validator asserts its own invariants with panics; one that
		// fires is its bug, not the caller's.
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: the validator failed: %v", ErrUnchecked, p)
		}
	}()
	if err := r.rs.Validate(instance); err != nil {
		return &ValidationError{msg: cut(err.Error(), maxMessage)}
	}
	return nil
}

// A ValidationError says why an instance does not match its schema.
type ValidationError struct{ msg string }

func (e *ValidationError) Error() string { return e.msg }

// cut bounds a message at n bytes, between characters, saying how much
// it left out.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := utf8cut.Prefix(s, n)
	return head + fmt.Sprintf("… (%d more bytes)", len(s)-len(head))
}

// rawJSON returns the schema's JSON.
func rawJSON(s any) ([]byte, error) {
	switch v := s.(type) {
	case json.RawMessage:
		return v, nil
	case []byte:
		return v, nil
	case nil:
		return nil, nil
	}
	return json.Marshal(s)
}
