package schema

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// instances are arguments every seed schema is tried with.
var instances = []string{
	`{}`,
	`{"a":1,"name":"x","children":[{"name":"y","children":[]}],"data":{"name":"z"}}`,
	`{"city":"Paris","units":"metric","query":"q","limit":3,"tags":["a","b","a"]}`,
	`[[[[[[1]]]]],{"x":[null,true,1.5,"s"]}]`,
	`"just a string"`,
	`null`,
}

// FuzzResolve resolves any bytes as a schema. Resolution never crashes or
// hangs; what resolves follows references exactly as jsonschema-go does,
// and validates any instance within the bounds.
func FuzzResolve(f *testing.F) {
	for _, name := range sortedKeys(corpus(f)) {
		f.Add(corpus(f)[name])
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkErr := Check(json.RawMessage(raw))
		r, err := Resolve(json.RawMessage(raw))
		var ce *CycleError
		if errors.As(err, &ce) != errors.As(checkErr, &ce) && !Missing(json.RawMessage(raw)) {
			t.Fatalf("Resolve says %v, Check says %v", err, checkErr)
		}
		if err != nil {
			return
		}
		sameReferences(t, raw)
		for _, inst := range instances {
			var v any
			_ = json.Unmarshal([]byte(inst), &v)
			_ = r.Validate(v)
		}
	})
}

// FuzzValidate validates any instance against any schema; the seeds pair
// every corpus schema with the instances above.
func FuzzValidate(f *testing.F) {
	c := corpus(f)
	for _, name := range sortedKeys(c) {
		for _, inst := range instances {
			f.Add(c[name], []byte(inst))
		}
	}
	f.Fuzz(func(t *testing.T, raw, instance []byte) {
		r, err := Resolve(json.RawMessage(raw))
		if err != nil {
			return
		}
		var v any
		if json.Unmarshal(instance, &v) != nil {
			return
		}
		err = r.Validate(v)
		var ve *ValidationError
		if err != nil && !errors.Is(err, ErrUnchecked) && !errors.As(err, &ve) {
			t.Fatalf("Validate returned %T %v", err, err)
		}
		if err != nil && len(err.Error()) > maxMessage+64 && !errors.Is(err, ErrUnchecked) {
			t.Fatalf("a message of %d bytes", len(err.Error()))
		}
	})
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, strings.Compare)
	return keys
}
