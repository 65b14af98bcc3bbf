package codemode

import (
	"context"
	"encoding/json"
	"fmt"

	starjson "go.starlark.net/lib/json"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// run is one script's state, which its built-ins share. Calls run one
// after another: a script is one thread, and call returns only when its
// tool has answered.
type run struct {
	host   Host
	limits Limits
	stop   *stopper
	ctx    context.Context
	calls  int
}

// count takes one call out of the script's allowance, or stops it.
func (r *run) count() error {
	r.calls++
	if r.calls > r.limits.MaxCalls {
		r.stop.stop(StopCalls)
		return fmt.Errorf("more than %d calls", r.limits.MaxCalls)
	}
	return nil
}

// call is the script's call(name, args={}, errors=False).
func (r *run) call(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var toolArgs starlark.Value = starlark.None
	asValues := false
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &name, "args?", &toolArgs, "errors?", &asValues); err != nil {
		return nil, err
	}
	return r.invoke(thread, name, toolArgs, asValues)
}

// tool is the function a catalog tool is in a script, named as it is:
// github__get_issue(owner="a", number=1), or with its arguments as one
// dict (for an argument whose name Starlark reserves, such as from), or
// both. It fails as call does; call(name, args, errors=True) returns a
// failure as a value instead.
func (r *run) tool(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, fmt.Errorf("%s takes its arguments by name, %s(arg=value), or as one dict, got %d positional arguments", b.Name(), b.Name(), len(args))
	}
	if len(args) == 0 && len(kwargs) == 0 {
		return r.invoke(thread, b.Name(), starlark.None, false)
	}
	merged := starlark.NewDict(len(kwargs))
	if len(args) == 1 {
		m, ok := args[0].(starlark.IterableMapping)
		if !ok {
			return nil, fmt.Errorf("%s(args): args must be a dict of the tool's arguments, got %s", b.Name(), args[0].Type())
		}
		for _, kv := range m.Items() {
			_ = merged.SetKey(kv[0], kv[1])
		}
	}
	for _, kv := range kwargs {
		_ = merged.SetKey(kv[0], kv[1])
	}
	return r.invoke(thread, b.Name(), merged, false)
}

// invoke calls the tool name with toolArgs (None or a mapping) through
// the host, and gives its result as values, or its failure as an error
// (or, asValues, as an outcome).
func (r *run) invoke(thread *starlark.Thread, name string, toolArgs starlark.Value, asValues bool) (starlark.Value, error) {
	if err := r.count(); err != nil {
		return nil, err
	}
	raw := json.RawMessage("{}")
	if toolArgs != starlark.None {
		if _, ok := toolArgs.(starlark.IterableMapping); !ok {
			return nil, fmt.Errorf("call(%q, args): args must be a dict of the tool's arguments, got %s", name, toolArgs.Type())
		}
		enc, err := starlark.Call(thread, starjson.Module.Members["encode"], starlark.Tuple{toolArgs}, nil)
		if err != nil {
			return nil, fmt.Errorf("call(%q, args): %v", name, err)
		}
		raw = json.RawMessage(enc.(starlark.String))
	}
	rep := r.host.Call(r.ctx, name, raw)
	if r.ctx.Err() != nil {
		r.stop.stop(ctxStop(r.ctx))
		return nil, fmt.Errorf("call(%q) stopped: %v", name, context.Cause(r.ctx))
	}
	fail := func(why Stop, msg string) (starlark.Value, error) {
		if asValues {
			return outcome(false, starlark.None, starlark.String(msg)), nil
		}
		r.stop.stop(why)
		return nil, fmt.Errorf("call(%q) failed: %s", name, msg)
	}
	if rep.Error != "" {
		return fail(StopCall, rep.Error)
	}
	data := []byte(rep.Text)
	if rep.Structured != nil {
		data = rep.Structured
	}
	if len(data) > r.limits.MaxResultBytes {
		return fail(StopResult, fmt.Sprintf("its result is %d bytes, more than the %d bytes a call may return to a script (codeMode.maxResultBytes): ask the tool for less, such as a page or a filter", len(data), r.limits.MaxResultBytes))
	}
	var v starlark.Value = starlark.String(rep.Text)
	if rep.Structured != nil {
		dec, err := starlark.Call(thread, starjson.Module.Members["decode"], starlark.Tuple{starlark.String(rep.Structured)}, nil)
		if err != nil {
			return fail(StopCall, fmt.Sprintf("its structured result is not JSON a script can read: %v", err))
		}
		v = dec
	}
	if asValues {
		return outcome(true, v, starlark.None), nil
	}
	return v, nil
}

// outcome is what call(…, errors=True) returns: a struct with ok, value
// (None when not ok) and error (None when ok).
func outcome(ok bool, value, err starlark.Value) starlark.Value {
	return starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{
		"ok": starlark.Bool(ok), "value": value, "error": err,
	})
}

// search is the script's search(query): a list of dicts with name, kind,
// signature and description.
func (r *run) search(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var query string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "query", &query); err != nil {
		return nil, err
	}
	if err := r.count(); err != nil {
		return nil, err
	}
	found, err := r.host.Search(r.ctx, query)
	if err != nil {
		return nil, fmt.Errorf("search(%q) failed: %v", query, err)
	}
	list := make([]starlark.Value, 0, len(found))
	for _, f := range found {
		d := starlark.NewDict(4)
		_ = d.SetKey(starlark.String("name"), starlark.String(f.Name))
		_ = d.SetKey(starlark.String("kind"), starlark.String(f.Kind))
		_ = d.SetKey(starlark.String("signature"), starlark.String(f.Signature))
		_ = d.SetKey(starlark.String("description"), starlark.String(f.Description))
		list = append(list, d)
	}
	return starlark.NewList(list), nil
}
