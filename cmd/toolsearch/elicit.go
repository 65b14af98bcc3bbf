package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// How `toolsearch call` answers a server that asks its user something
// during the call (elicitation).
const (
	elicitAsk      = "ask"      // ask the person at the terminal
	elicitDefaults = "defaults" // accept, with the values the form proposes
	elicitDecline  = "decline"  // decline every request
)

var elicitModes = []string{elicitAsk, elicitDefaults, elicitDecline}

// defaultElicitMode asks when a person can answer (stdin is a terminal,
// which /dev/null, a character device too, is not) and declines otherwise,
// so that a script never hangs on a question.
func defaultElicitMode() string {
	if stdinIsTerminal() {
		return elicitAsk
	}
	return elicitDecline
}

// terminalCaller is the client behind a one-shot `toolsearch call`: what
// the upstream asks during the call is answered by the person at the
// terminal (questions on stderr, answers on stdin), or by the form's
// defaults, as --elicit says. It has no model to sample from; its roots
// are the working directory.
type terminalCaller struct {
	mode string
	in   *bufio.Reader
	out  io.Writer // stderr: stdout carries the result
}

// maxAnswerBytes bounds one line a person types, maxQuestionRunes what of
// a server's text (a message, a title) is shown, and maxAttempts the
// answers a field is asked for before the form is cancelled.
const (
	maxAnswerBytes   = 64 << 10
	maxQuestionRunes = 2000
	maxAttempts      = 3
)

func (c *terminalCaller) Elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if p == nil {
		p = &mcp.ElicitParams{}
	}
	if p.Mode == "url" {
		return c.elicitURL(p)
	}
	form, err := parseForm(p.RequestedSchema)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestedSchema: " + err.Error()}
	}
	switch c.mode {
	case elicitDefaults:
		content, missing := form.defaults()
		if len(missing) > 0 {
			fmt.Fprintf(c.out, "toolsearch: declined the server's request %q: no default for %s (run on a terminal, or with --elicit ask, to answer)\n",
				shorten(p.Message), strings.Join(missing, ", "))
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
		return &mcp.ElicitResult{Action: "accept", Content: content}, nil
	case elicitAsk:
		return c.ask(ctx, p.Message, form)
	default:
		fmt.Fprintf(c.out, "toolsearch: declined the server's request %q (--elicit %s)\n", shorten(p.Message), c.mode)
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
}

// elicitURL shows the page a server wants its user to visit. Only a person
// can go there: the other modes decline.
func (c *terminalCaller) elicitURL(p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	u, err := url.Parse(p.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "url: want an http or https URL"}
	}
	if c.mode != elicitAsk {
		fmt.Fprintf(c.out, "toolsearch: declined the server's request to open a page (--elicit %s)\n", c.mode)
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	fmt.Fprintf(c.out, "The server asks you to open this page:\n  %s\n  %s\nOpen it? [y/N] ", shorten(p.Message), shorten(p.URL))
	line, err := c.readLine()
	if err != nil {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	if yes(line) {
		return &mcp.ElicitResult{Action: "accept"}, nil
	}
	return &mcp.ElicitResult{Action: "decline"}, nil
}

// ask puts each field of the form to the person, the default in brackets
// (Enter takes it). An end of input cancels; "-" alone at the first
// question declines.
func (c *terminalCaller) ask(ctx context.Context, message string, form *form) (*mcp.ElicitResult, error) {
	fmt.Fprintf(c.out, "The server asks: %s\n(Enter takes the value in brackets; - at the first question declines.)\n", shorten(message))
	content := map[string]any{}
	for i, f := range form.fields {
		for attempt := 1; ; attempt++ {
			if ctx.Err() != nil {
				return &mcp.ElicitResult{Action: "cancel"}, nil
			}
			fmt.Fprintf(c.out, "  %s: ", f.prompt())
			line, err := c.readLine()
			if err != nil {
				return &mcp.ElicitResult{Action: "cancel"}, nil
			}
			if i == 0 && line == "-" {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			v, ok, err := f.parse(line)
			if err == nil {
				if ok {
					content[f.name] = v
				}
				break
			}
			fmt.Fprintf(c.out, "  %v\n", err)
			if attempt == maxAttempts {
				return &mcp.ElicitResult{Action: "cancel"}, nil
			}
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// readLine reads one answer, cut at maxAnswerBytes.
func (c *terminalCaller) readLine() (string, error) {
	var b strings.Builder
	for {
		chunk, isPrefix, err := c.in.ReadLine()
		if err != nil {
			if b.Len() > 0 && errors.Is(err, io.EOF) {
				break
			}
			return "", err
		}
		if b.Len() < maxAnswerBytes {
			b.Write(chunk[:min(len(chunk), maxAnswerBytes-b.Len())])
		}
		if !isPrefix {
			break
		}
	}
	return strings.TrimSpace(b.String()), nil
}

func (c *terminalCaller) CreateMessage(context.Context, *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
		Message: "toolsearch call has no model to sample from: call this tool from a host that supports sampling (toolsearch serve passes the request on)"}
}

// ListRoots answers with the working directory: a command run in a folder
// works on that folder, as hosts that run in one do.
func (c *terminalCaller) ListRoots(context.Context, *mcp.ListRootsParams) (*mcp.ListRootsResult, error) {
	wd, err := os.Getwd()
	if err != nil {
		return &mcp.ListRootsResult{Roots: []*mcp.Root{}}, nil
	}
	u := url.URL{Scheme: "file", Path: wd}
	return &mcp.ListRootsResult{Roots: []*mcp.Root{{URI: u.String(), Name: wd}}}, nil
}

// Progress is not asked for (ProgressToken is nil), so none arrives.
func (c *terminalCaller) Progress(context.Context, *mcp.ProgressNotificationParams) {}

// Log passes the server's log messages to toolsearch's own log, cut short:
// they show with --log-level info.
func (c *terminalCaller) Log(ctx context.Context, p *mcp.LoggingMessageParams) {
	if p == nil {
		return
	}
	data, _ := json.Marshal(p.Data)
	slog.InfoContext(ctx, "server log", "level", p.Level, "logger", shorten(p.Logger), "data", shorten(string(data)))
}

func (c *terminalCaller) ElicitationComplete(_ context.Context, p *mcp.ElicitationCompleteParams) {
	if p != nil {
		fmt.Fprintf(c.out, "toolsearch: the server says the page it asked you to open is done with (%s)\n", shorten(p.ElicitationID))
	}
}

func (c *terminalCaller) ProgressToken() any { return nil }
func (c *terminalCaller) Recipient() any     { return c }

// A form is the flat object schema of a form elicitation: primitive
// fields, some of them required, each with an optional default.
type form struct {
	fields []*field
}

type field struct {
	name, typ, title, description string
	required                      bool
	def                           any
	hasDefault                    bool
	enum                          []string // allowed values of a string field
	multi                         bool     // an array of enum values
}

// parseForm reads the requested schema as the protocol restricts it: an
// object of primitive properties (string, number, integer, boolean, and
// enums of strings, single or multiple). Fields are ordered required ones
// first, then by name: the schema arrives as a map, without its order.
func parseForm(schema any) (*form, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, errors.New("want an object schema")
	}
	if s.Type != "" && s.Type != "object" {
		return nil, fmt.Errorf("type: want object, got %q", s.Type)
	}
	f := &form{}
	var problems []string
	for name, rawProp := range s.Properties {
		fd, err := parseField(name, rawProp)
		if err != nil {
			problems = append(problems, fmt.Sprintf("properties.%s: %v", name, err))
			continue
		}
		fd.required = slices.Contains(s.Required, name)
		f.fields = append(f.fields, fd)
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return nil, errors.New(strings.Join(problems, "; "))
	}
	slices.SortFunc(f.fields, func(a, b *field) int {
		if a.required != b.required {
			if a.required {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	return f, nil
}

func parseField(name string, raw json.RawMessage) (*field, error) {
	var p struct {
		Type        string          `json:"type"`
		Title       string          `json:"title"`
		Description string          `json:"description"`
		Default     json.RawMessage `json:"default"`
		Enum        []string        `json:"enum"`
		OneOf       []struct {
			Const string `json:"const"`
		} `json:"oneOf"`
		Items *struct {
			Enum  []string `json:"enum"`
			AnyOf []struct {
				Const string `json:"const"`
			} `json:"anyOf"`
		} `json:"items"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, errors.New("want a primitive property (string, number, integer, boolean or an enum)")
	}
	fd := &field{name: name, typ: p.Type, title: p.Title, description: p.Description, enum: p.Enum}
	for _, o := range p.OneOf {
		fd.enum = append(fd.enum, o.Const)
	}
	switch p.Type {
	case "string", "number", "integer", "boolean":
	case "array":
		if p.Items == nil {
			return nil, errors.New("an array must name its items' enum")
		}
		fd.multi = true
		fd.enum = p.Items.Enum
		for _, o := range p.Items.AnyOf {
			fd.enum = append(fd.enum, o.Const)
		}
		if len(fd.enum) == 0 {
			return nil, errors.New("an array must name its items' enum")
		}
	default:
		return nil, fmt.Errorf("type: want string, number, integer, boolean or array, got %q", p.Type)
	}
	if len(p.Default) > 0 && string(p.Default) != "null" {
		var def any
		if err := json.Unmarshal(p.Default, &def); err != nil {
			return nil, err
		}
		if err := fd.check(def); err != nil {
			return nil, fmt.Errorf("default: %v", err)
		}
		fd.def, fd.hasDefault = def, true
	}
	return fd, nil
}

// defaults returns the form filled with its defaults (SEP-1034), and the
// required fields that have none.
func (f *form) defaults() (content map[string]any, missing []string) {
	content = map[string]any{}
	for _, fd := range f.fields {
		switch {
		case fd.hasDefault:
			content[fd.name] = fd.def
		case fd.required:
			missing = append(missing, fd.name)
		}
	}
	return content, missing
}

// prompt is the question for the field: its title or name, what it takes,
// and its default.
func (fd *field) prompt() string {
	var b strings.Builder
	label := fd.title
	if label == "" {
		label = fd.name
	}
	b.WriteString(shorten(label))
	var what []string
	if fd.description != "" {
		what = append(what, shorten(fd.description))
	}
	switch {
	case fd.multi:
		what = append(what, "any of "+shorten(strings.Join(fd.enum, ", "))+", separated by commas")
	case len(fd.enum) > 0:
		what = append(what, "one of "+shorten(strings.Join(fd.enum, ", ")))
	case fd.typ == "boolean":
		what = append(what, "y/n")
	default:
		what = append(what, fd.typ)
	}
	if fd.required {
		what = append(what, "required")
	}
	fmt.Fprintf(&b, " (%s)", strings.Join(what, "; "))
	if fd.hasDefault {
		def, _ := json.Marshal(fd.def)
		fmt.Fprintf(&b, " [%s]", shorten(strings.Trim(string(def), `"`)))
	}
	return b.String()
}

// parse reads an answer: empty takes the default, or leaves an optional
// field out (ok false).
func (fd *field) parse(line string) (v any, ok bool, err error) {
	if line == "" {
		if fd.hasDefault {
			return fd.def, true, nil
		}
		if fd.required {
			return nil, false, errors.New("an answer is required")
		}
		return nil, false, nil
	}
	switch {
	case fd.multi:
		var vs []any
		for _, s := range strings.Split(line, ",") {
			vs = append(vs, strings.TrimSpace(s))
		}
		v = vs
	case fd.typ == "boolean":
		switch strings.ToLower(line) {
		case "y", "yes", "true":
			v = true
		case "n", "no", "false":
			v = false
		default:
			return nil, false, errors.New("answer y or n")
		}
	case fd.typ == "integer":
		n, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			return nil, false, errors.New("want a whole number")
		}
		v = n
	case fd.typ == "number":
		n, err := strconv.ParseFloat(line, 64)
		if err != nil {
			return nil, false, errors.New("want a number")
		}
		v = n
	default:
		v = line
	}
	if err := fd.check(v); err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// check says whether v is a value of the field.
func (fd *field) check(v any) error {
	inEnum := func(s string) error {
		if len(fd.enum) > 0 && !slices.Contains(fd.enum, s) {
			return fmt.Errorf("%q is not one of %s", shorten(s), shorten(strings.Join(fd.enum, ", ")))
		}
		return nil
	}
	switch fd.typ {
	case "string":
		s, ok := v.(string)
		if !ok {
			return errors.New("want a string")
		}
		return inEnum(s)
	case "boolean":
		if _, ok := v.(bool); !ok {
			return errors.New("want true or false")
		}
	case "integer":
		switch n := v.(type) {
		case int64:
		case float64:
			if n != float64(int64(n)) {
				return errors.New("want a whole number")
			}
		default:
			return errors.New("want a whole number")
		}
	case "number":
		switch v.(type) {
		case int64, float64:
		default:
			return errors.New("want a number")
		}
	case "array":
		vs, ok := v.([]any)
		if !ok {
			return errors.New("want a list")
		}
		for _, e := range vs {
			s, ok := e.(string)
			if !ok {
				return errors.New("want a list of strings")
			}
			if err := inEnum(s); err != nil {
				return err
			}
		}
	}
	return nil
}

func yes(s string) bool {
	s = strings.ToLower(s)
	return s == "y" || s == "yes"
}

// shorten makes a server's text safe to show on a terminal: control
// characters (escape sequences among them) become spaces, and the text is
// cut at maxQuestionRunes.
func shorten(s string) string {
	cut := false
	if utf8.RuneCountInString(s) > maxQuestionRunes {
		s, cut = string([]rune(s)[:maxQuestionRunes]), true
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
	if cut {
		s += "…"
	}
	return s
}
