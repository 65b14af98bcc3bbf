// Package codemode runs the scripts of run_code and run_code_read: a
// Starlark program (go.starlark.net) that calls catalog tools, filters and
// combines their results, and gives back only what it prints.
//
// # What a script has
//
// Starlark's universe (len, range, sorted, str, dict, …: none of them
// reads a file, the network, the clock or randomness), the json module
// (json.encode, json.decode), and two functions of this package:
//
//	call(name, args={}, errors=False)  # a catalog tool's result as values
//	SERVER__TOOL(arg=value)            # the same call, the tool as a function (names.go)
//	search(query)                      # tools as tool_search finds them
//
// What comes back is what the script prints, then the value of its last
// line when that is an expression, each value as the model reads it best:
// a dict or list as compact JSON (show.go).
//
// call goes through the Host, which the server implements with its call
// proxies' path (arguments checked, policy, quarantine, the proxy's
// class, the caller's profile): a script reaches nothing its caller could
// not call. load is not offered, recursion is refused (Starlark's
// default), and calls run one after another.
//
// # Bounds
//
// Every run is bounded (see Limits): execution steps, wall time, calls,
// the size of each call's result before it is converted, the size of the
// values the script builds with *, replace and join and of the lists the
// built-ins make, the heap the run grows, and the output. A bound hit
// stops the script with a Result that names it and keeps what was printed
// so far. Cancelling the context cancels the script and the call it waits
// on.
package codemode
