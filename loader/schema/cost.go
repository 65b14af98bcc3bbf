package schema

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// A coster counts what validating an instance would cost by walking the
// instance against the schema the way the validator does, without checking
// anything. It follows every branch the validator may take (both of an
// if/then/else, every item and property keyword on every element), so its
// counts bound the validator's from above, and it stops as soon as one
// exceeds its bound, so that its own work is bounded as well.
type coster struct {
	g     *graph
	steps int
	bytes int
}

// errOver stops the walk; cost turns it into a message.
type errOver struct{ what string }

// cost returns an error wrapping ErrUnchecked when validating instance
// would exceed MaxSteps, MaxDepth or MaxBytes.
func (g *graph) cost(instance any) error {
	c := &coster{g: g}
	over := c.visit(g.root, instance, 1)
	if over == nil && c.steps > MaxSteps { // counted after the last visit's check
		over = &errOver{fmt.Sprintf("more than %d steps", MaxSteps)}
	}
	if over != nil {
		return fmt.Errorf("%w: checking these arguments against the schema would take %s", ErrUnchecked, over.what)
	}
	return nil
}

func (c *coster) visit(s *jsonschema.Schema, v any, depth int) *errOver {
	local := c.g.local[s]
	c.steps += local.steps
	switch {
	case c.steps > MaxSteps:
		return &errOver{fmt.Sprintf("more than %d steps", MaxSteps)}
	case depth > MaxDepth:
		return &errOver{fmt.Sprintf("recursion deeper than %d levels", MaxDepth)}
	}
	// Messages print the schema's own values (an enum, say), and every
	// enclosing level copies a message once more.
	c.bytes += depth * local.printed
	if walksInstance(s) {
		// Comparing (with each enum value), hashing or printing the
		// instance.
		n := size(v, MaxBytes-c.bytes)
		c.bytes += depth*(64+n) + len(s.Enum)*n
	}
	if c.bytes > MaxBytes {
		return &errOver{fmt.Sprintf("walking or printing more than %d MiB of them", MaxBytes>>20)}
	}
	for _, n := range c.g.in[s] {
		if over := c.visit(n, v, depth+1); over != nil {
			return over
		}
	}
	switch v := v.(type) {
	case []any:
		for i, item := range v {
			for _, n := range itemSchemas(s, i) {
				if over := c.visit(n, item, depth+1); over != nil {
					return over
				}
			}
		}
	case map[string]any:
		if s.MinProperties != nil || s.MaxProperties != nil {
			c.steps += len(v) // counted one by one
		}
		for k, val := range v {
			if s.PropertyNames != nil {
				if over := c.visit(s.PropertyNames, k, depth+1); over != nil {
					return over
				}
			}
			for _, n := range propertySchemas(s, k) {
				if over := c.visit(n, val, depth+1); over != nil {
					return over
				}
			}
		}
	}
	return nil
}

// localCost is what applying one subschema costs besides its subschemas.
type localCost struct {
	// steps counts one for the subschema and one for each value of its
	// own it goes through whatever the instance: enum values, required
	// and dependent names, properties and patterns.
	steps int
	// printed is about how many bytes of its own values a message about
	// it may print.
	printed int
}

func costOf(s *jsonschema.Schema) localCost {
	c := localCost{steps: 1 + len(s.Enum) + len(s.Required) + len(s.Properties) + len(s.PatternProperties) + len(s.DependentSchemas) + len(s.DependencySchemas)}
	for _, names := range s.DependentRequired {
		c.steps += len(names)
	}
	for _, names := range s.DependencyStrings {
		c.steps += len(names)
	}
	c.printed = size(s.Enum, MaxBytes) + len(s.Pattern)
	if s.Const != nil {
		c.printed += size(*s.Const, MaxBytes)
	}
	for _, r := range s.Required {
		c.printed += len(r) + 3
	}
	return c
}

// walksInstance reports whether validating against s may walk the whole
// instance or print it: comparing with enum or const, hashing array items
// for uniqueness, or a failing type, contains or string check.
func walksInstance(s *jsonschema.Schema) bool {
	return s.Type != "" || s.Types != nil || s.Enum != nil || s.Const != nil || s.UniqueItems ||
		s.Contains != nil || s.MinLength != nil || s.MaxLength != nil || s.Pattern != ""
}

// itemSchemas returns every subschema that may apply to item i of an array.
func itemSchemas(s *jsonschema.Schema, i int) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	if i < len(s.PrefixItems) {
		out = append(out, s.PrefixItems[i])
	}
	if i < len(s.ItemsArray) {
		out = append(out, s.ItemsArray[i])
	}
	for _, n := range []*jsonschema.Schema{s.Items, s.AdditionalItems, s.Contains, s.UnevaluatedItems} {
		if n != nil {
			out = append(out, n)
		}
	}
	return out
}

// propertySchemas returns every subschema that may apply to property k of
// an object: every pattern is taken to match.
func propertySchemas(s *jsonschema.Schema, k string) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	if n := s.Properties[k]; n != nil {
		out = append(out, n)
	}
	for _, n := range s.PatternProperties {
		if n != nil {
			out = append(out, n)
		}
	}
	for _, n := range []*jsonschema.Schema{s.AdditionalProperties, s.UnevaluatedProperties} {
		if n != nil {
			out = append(out, n)
		}
	}
	return out
}

// size returns about how many bytes v takes printed, or a number over limit
// once it is known to exceed it.
func size(v any, limit int) int {
	switch v := v.(type) {
	case string:
		return len(v) + 2
	case []any:
		n := 2
		for _, item := range v {
			if n > limit {
				break
			}
			n += 1 + size(item, limit-n)
		}
		return n
	case map[string]any:
		n := 2
		for k, val := range v {
			if n > limit {
				break
			}
			n += len(k) + 4 + size(val, limit-n)
		}
		return n
	}
	return 24 // numbers, booleans, null
}
