package codemode

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// itemBytes is what one item of a list or tuple is counted as against
// MaxValueBytes: a starlark.Value is an interface, two words.
const itemBytes = 16

// guards are the built-ins the rewritten script calls (see rewrite.go),
// and the universe's list makers wrapped with a check of their input's
// length, for a run bounded by l.
func guards(l Limits, st *stopper) starlark.StringDict {
	tooBig := func(what string, n int64) error {
		st.stop(StopValue)
		return fmt.Errorf("%s would be %d bytes, more than the %d bytes a value may have (codeMode.maxValueBytes): work on less at a time", what, n, l.MaxValueBytes)
	}
	g := starlark.StringDict{
		guardMul: starlark.NewBuiltin("*", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			x, y := args[0], args[1]
			if n, ok := repeatSize(x, y); ok && n > int64(l.MaxValueBytes) {
				return nil, tooBig("the repetition", n)
			}
			if n, ok := repeatSize(y, x); ok && n > int64(l.MaxValueBytes) {
				return nil, tooBig("the repetition", n)
			}
			return starlark.Binary(syntax.STAR, x, y)
		}),
		guardReplace: starlark.NewBuiltin("replace", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			recv := args[0]
			if s, ok := recv.(starlark.String); ok && len(args) >= 3 {
				old, ok1 := args[1].(starlark.String)
				repl, ok2 := args[2].(starlark.String)
				if ok1 && ok2 {
					count := int64(strings.Count(string(s), string(old)))
					if n := int64(len(s)) + count*(int64(len(repl))-int64(len(old))); n > int64(l.MaxValueBytes) {
						return nil, tooBig("the replaced string", n)
					}
				}
			}
			return callMethod(thread, recv, "replace", args[1:], kwargs)
		}),
		guardJoin: starlark.NewBuiltin("join", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			recv := args[0]
			if sep, ok := recv.(starlark.String); ok && len(args) == 2 {
				if n, ok := joinSize(sep, args[1]); ok && n > int64(l.MaxValueBytes) {
					return nil, tooBig("the joined string", n)
				}
			}
			return callMethod(thread, recv, "join", args[1:], kwargs)
		}),
	}
	// The universe's functions that make a list, tuple, set or dict from
	// an iterable run in Go without a step between items:
	// list(range(1 << 40)) would fill memory in one step.
	for _, name := range []string{"list", "tuple", "sorted", "set", "dict", "enumerate", "zip", "reversed"} {
		orig := starlark.Universe[name].(*starlark.Builtin)
		g[name] = starlark.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			for _, a := range args {
				if n := starlark.Len(a); n > 0 && int64(n)*itemBytes > int64(l.MaxValueBytes) {
					return nil, tooBig(fmt.Sprintf("%s of %d items", name, n), int64(n)*itemBytes)
				}
			}
			return starlark.Call(thread, orig, args, kwargs)
		})
	}
	return g
}

// repeatSize is the size in bytes of seq * n when seq is a sequence and n
// an int.
func repeatSize(seq, n starlark.Value) (int64, bool) {
	i, ok := n.(starlark.Int)
	if !ok {
		return 0, false
	}
	k, ok := i.Int64()
	if !ok {
		k = 1 << 62
	}
	if k <= 0 {
		return 0, true
	}
	var unit int64
	switch s := seq.(type) {
	case starlark.String:
		unit = int64(len(s))
	case starlark.Bytes:
		unit = int64(len(s))
	case *starlark.List:
		unit = int64(s.Len()) * itemBytes
	case starlark.Tuple:
		unit = int64(len(s)) * itemBytes
	default:
		return 0, false
	}
	if unit > 0 && k > (1<<62)/unit {
		return 1 << 62, true
	}
	return unit * k, true
}

// joinSize is the size of sep.join(items) when items has a length.
func joinSize(sep starlark.String, items starlark.Value) (int64, bool) {
	it, ok := items.(starlark.Indexable)
	if !ok {
		return 0, false
	}
	n := int64(it.Len())
	size := max(n-1, 0) * int64(len(sep))
	for i := range it.Len() {
		if s, ok := it.Index(i).(starlark.String); ok {
			size += int64(len(s))
		}
	}
	return size, true
}

// callMethod calls recv's method name, as recv.name(args…) would.
func callMethod(thread *starlark.Thread, recv starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	ha, ok := recv.(starlark.HasAttrs)
	if !ok {
		return nil, fmt.Errorf("%s has no .%s field or method", recv.Type(), name)
	}
	m, err := ha.Attr(name)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("%s has no .%s field or method", recv.Type(), name)
	}
	return starlark.Call(thread, m, args, kwargs)
}
