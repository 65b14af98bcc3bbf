package codemode

import (
	"strings"

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

func (o *output) String() string { return o.b.String() }
