package codemode

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/lib/json"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Result is what a script gave.
type Result struct {
	// Output is what it printed, up to Limits.MaxOutputBytes.
	Output string
	// Error says why it ended early, "" when it ran to its end.
	Error string
	// Stop names what ended it early; "" when it ran to its end.
	Stop Stop
	// Calls and Steps are what it used.
	Calls int
	Steps uint64
}

// fileOptions are the Starlark dialect scripts are written in: while
// loops, top-level statements and reassigned globals are allowed, as a
// script needs; recursion is not (a deep recursion would be one more way
// to exhaust the stack and the steps), nor load.
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}

// scriptName is the file name errors give a script.
const scriptName = "script"

// Run runs script with host, within l (defaults filled in for its zero
// fields).
func Run(ctx context.Context, script string, host Host, l Limits) Result {
	l = l.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	thread := &starlark.Thread{Name: scriptName}
	st := &stopper{cancel: thread.Cancel}
	out := &output{max: l.MaxOutputBytes, full: func() { st.stop(StopOutput) }}
	thread.Print = func(_ *starlark.Thread, msg string) { out.line(msg) } // print is out.print; this is for safety
	thread.SetMaxExecutionSteps(l.MaxSteps)
	thread.OnMaxSteps = func(*starlark.Thread) { st.stop(StopSteps) }
	r := &run{host: host, limits: l, stop: st, ctx: ctx}

	predeclared := guards(l, st)
	predeclared["call"] = starlark.NewBuiltin("call", r.call)
	predeclared["search"] = starlark.NewBuiltin("search", r.search)
	predeclared["json"] = json.Module
	predeclared["print"] = starlark.NewBuiltin("print", out.print)

	f, err := fileOptions.Parse(scriptName, script, 0)
	if err == nil {
		err = guardFile(f)
	}
	var prog *starlark.Program
	if err == nil {
		keepLastValue(f)
		prog, err = starlark.FileProgram(f, func(name string) bool { return predeclared.Has(name) || isToolName(name) })
	}
	if err != nil {
		return Result{Error: "the script does not compile: " + compileError(err) + ". Fix it and run it again.", Stop: StopError}
	}

	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			st.stop(ctxStop(ctx))
		case <-done:
		}
	}()
	bindTools(f, predeclared, r)
	stopWatch := watchMemory(l.MaxMemoryBytes, func() { st.stop(StopMemory) })
	globals, err := prog.Init(thread, predeclared)
	stopWatch()
	if v := globals[lastValue]; err == nil && v != nil && v != starlark.None {
		out.show(v)
	}

	res := Result{Output: out.String(), Calls: r.calls, Steps: thread.ExecutionSteps()}
	if err == nil {
		if why := st.why(); why == StopOutput { // the last print filled it
			res.Stop, res.Error = why, boundMessage(why, l, &res)
		}
		return res
	}
	res.Stop = st.why()
	switch msg := boundMessage(res.Stop, l, &res); {
	case msg != "":
		res.Error = msg + where(err)
	case res.Stop == "":
		res.Stop = StopError
		fallthrough
	default:
		res.Error = "the script failed" + where(err) + ": " + errorText(err)
	}
	return res
}

// ctxStop is why a script whose context ended stopped.
func ctxStop(ctx context.Context) Stop {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return StopTime
	}
	return StopCancelled
}

// where names the line of the script an error happened at, as " at line
// N" ("" when it has none).
func where(err error) string {
	var ee *starlark.EvalError
	if !errors.As(err, &ee) {
		return ""
	}
	for i := len(ee.CallStack) - 1; i >= 0; i-- {
		if pos := ee.CallStack[i].Pos; pos.Filename() == scriptName {
			return fmt.Sprintf(" at line %d", pos.Line)
		}
	}
	return ""
}

// errorText is an error's message without Starlark's backtrace.
func errorText(err error) string {
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		return ee.Msg
	}
	return err.Error()
}

// compileError is a parse or resolve error as one line.
func compileError(err error) string {
	var el interface{ Unwrap() []error }
	if errors.As(err, &el) {
		var msgs []string
		for _, e := range el.Unwrap() {
			msgs = append(msgs, e.Error())
		}
		return strings.Join(msgs, "; ")
	}
	return err.Error()
}
