package codemode

import (
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// A script may name a catalog tool as a function, weather__get_weather(
// city="Paris"), which costs fewer tokens than call("weather__get_weather",
// {"city": "Paris"}) and than the proxy's request for the same call. Any
// name of the form SERVER__TOOL that the script does not define is taken
// for a tool: the resolver is told it is predeclared (isToolName), and
// once the script is compiled each such name it uses is bound to a
// function that calls the tool of that name (bindTools). A name that is
// no tool fails when called, with the proxy's answer for an unknown name.
// A tool whose name is not an identifier (a server named my-docs) is
// called with call.

// isToolName reports whether name has the form of a qualified tool name:
// a separator with something on both sides.
func isToolName(name string) bool {
	i := strings.Index(name, "__")
	return i > 0 && i+2 < len(name)
}

// bindTools adds to predeclared a tool function for each name in f, a
// compiled script, that resolved to a predeclared name predeclared does
// not have.
func bindTools(f *syntax.File, predeclared starlark.StringDict, r *run) {
	syntax.Walk(f, func(n syntax.Node) bool {
		id, ok := n.(*syntax.Ident)
		if !ok {
			return true
		}
		if b, ok := id.Binding.(*resolve.Binding); ok && b.Scope == resolve.Predeclared && !predeclared.Has(id.Name) {
			predeclared[id.Name] = starlark.NewBuiltin(id.Name, r.tool)
		}
		return true
	})
}

// lastValue is the global that keeps the value of a script's last
// statement when it is an expression: like a notebook's cell, a script
// that ends in weather__get_weather(city="Paris") gives back that value
// without a print (see keepLastValue). Its $ is in no name a script can
// write.
const lastValue = "$value"

// keepLastValue rewrites f's last statement, when it is an expression,
// into an assignment to lastValue.
func keepLastValue(f *syntax.File) {
	n := len(f.Stmts)
	if n == 0 {
		return
	}
	if e, ok := f.Stmts[n-1].(*syntax.ExprStmt); ok {
		start, _ := e.X.Span()
		f.Stmts[n-1] = &syntax.AssignStmt{OpPos: start, Op: syntax.EQ, LHS: &syntax.Ident{NamePos: start, Name: lastValue}, RHS: e.X}
	}
}
