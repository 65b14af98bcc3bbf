package codemode

import (
	"strings"

	"go.starlark.net/starlark"

	"github.com/toolsearch/toolsearch/internal/utf8cut"
)

// output collects what a script prints, up to max bytes; full is called
// once, when a print does not fit.
type output struct {
	b     strings.Builder
	max   int
	full  func()
	spent bool
}

// line adds one print's text and its newline.
func (o *output) line(msg string) {
	if o.spent {
		return
	}
	msg += "\n"
	if room := o.max - o.b.Len(); len(msg) > room {
		o.b.WriteString(utf8cut.Prefix(msg, room))
		o.spent = true
		o.full()
		return
	}
	o.b.WriteString(msg)
}

// show adds v as the model reads it (see show.go) as one line: written
// no further than the room left, so that a huge or cyclic value fills
// the output instead of memory.
func (o *output) show(v starlark.Value) {
	if o.spent {
		return
	}
	text, _ := show(v, o.max-o.b.Len()+1)
	o.line(text)
}

func (o *output) String() string { return o.b.String() }

// print is the script's print(*args, sep=" "): Starlark's, but each
// argument shown as show writes it (a dict as compact JSON, not its repr).
func (o *output) print(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sep := " "
	if err := starlark.UnpackArgs(b.Name(), nil, kwargs, "sep?", &sep); err != nil {
		return nil, err
	}
	var line strings.Builder
	for i, a := range args {
		if i > 0 {
			line.WriteString(sep)
		}
		room := o.max - o.b.Len() - line.Len() + 1
		if room <= 0 {
			break
		}
		text, ok := show(a, room)
		line.WriteString(text)
		if !ok {
			break
		}
	}
	o.line(line.String()) // a line that does not fit stops the script (full)
	return starlark.None, nil
}
