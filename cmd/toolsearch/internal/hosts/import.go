package hosts

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// MaxConfigSize bounds a host configuration file read for import; Claude
// Code's ~/.claude.json also keeps history, so the bound is generous.
const MaxConfigSize = 32 << 20

// Result is what an import found.
type Result struct {
	// Servers are sorted by name: one per name and reach (every project,
	// or the project's), the scope the host prefers within a reach.
	Servers []Server
	Read    []string // the files read
	// Notes say what could not be carried over as it was, and what to do
	// about it (a VS Code input to set as an environment variable, say).
	Notes []string
}

// Import reads the servers configured for the host: from o.File, or from
// its documented locations (missing files are skipped). When a name is
// configured in several scopes, the scope the host prefers wins. A file
// that cannot be parsed is an error naming it; an entry that cannot be
// used is left out with a note.
func Import(name string, o Options) (*Result, error) {
	h, err := Find(name)
	if err != nil {
		return nil, err
	}
	o = o.withDefaults()
	locs := h.locations(o)
	if o.File != "" {
		locs = []Location{{Path: o.File, Scope: "file"}}
		// Claude Code's one file holds both scopes.
		if h == claudeCode {
			locs = []Location{{o.File, "local"}, {o.File, "user"}}
		}
	}
	res := &Result{}
	// A name is one server per reach: the project's and the user's of the
	// same name both have a place (the project's wins in the project, as
	// in the host), two of the same reach do not.
	type reachName struct {
		name  string
		every bool
	}
	seen := map[reachName]bool{}
	for _, loc := range locs {
		data, err := readLimited(loc.Path)
		if errors.Is(err, fs.ErrNotExist) && o.File == "" {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !slices.Contains(res.Read, loc.Path) {
			res.Read = append(res.Read, loc.Path)
		}
		servers, notes, err := h.read(data, loc, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", loc.Path, err)
		}
		res.Notes = append(res.Notes, notes...)
		for _, s := range servers {
			key := reachName{s.Name, EveryProject(loc.Scope)}
			if seen[key] {
				res.Notes = append(res.Notes, fmt.Sprintf("%s: %s is also configured in a scope %s prefers; that one is imported", loc.Path, s.Name, h.Title))
				continue
			}
			seen[key] = true
			s.From, s.Scope = loc.Path, loc.Scope
			if note := anchorPaths(&s, o.Project, h.Title); note != "" {
				res.Notes = append(res.Notes, fmt.Sprintf("%s: %s: %s", loc.Path, s.Name, note))
			}
			res.Servers = append(res.Servers, s)
		}
	}
	slices.SortStableFunc(res.Servers, func(a, b Server) int { return strings.Compare(a.Name, b.Name) })
	return res, nil
}

// Split parts the servers by reach: those the host gives every project,
// and those it gives the project alone, each sorted by name. A name may
// be in both.
func (r *Result) Split() (everyProject, project []Server) {
	for _, s := range r.Servers {
		if EveryProject(s.Scope) {
			everyProject = append(everyProject, s)
		} else {
			project = append(project, s)
		}
	}
	return everyProject, project
}

// anchorPaths makes a stdio server's relative cwd, or relative command
// without one, absolute against the project: hosts take them from the
// folder they run in, the project, while toolsearch takes a .mcp.json's
// relative paths from that file's folder, which init may write anywhere.
// It says what it did, or "" when there was nothing to do (or no project).
func anchorPaths(s *Server, project, host string) string {
	e := &s.Entry
	if e.Type != "stdio" || project == "" {
		return ""
	}
	relative := func(p string) bool { return p != "" && !filepath.IsAbs(p) && !strings.Contains(p, "${") }
	switch {
	case relative(e.Cwd):
		was := e.Cwd
		e.Cwd = filepath.Join(project, e.Cwd)
		return fmt.Sprintf("cwd %s is relative to the folder %s runs in; written as %s, since toolsearch takes a relative path in .mcp.json from that file's folder", was, host, e.Cwd)
	case e.Cwd == "" && relative(e.Command) && strings.ContainsAny(e.Command, `/\`):
		was := e.Command
		e.Command = filepath.Join(project, e.Command)
		return fmt.Sprintf("command %s is relative to the folder %s runs in; written as %s, since toolsearch takes a relative path in .mcp.json from that file's folder", was, host, e.Command)
	}
	return ""
}

// readLimited reads a configuration file of at most MaxConfigSize bytes.
// The bound holds for what is read, not for the size the file claims: a
// pipe or a device has none, and a file may grow once it is opened.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, fmt.Errorf("%s is a folder, not a configuration file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxConfigSize {
		return nil, fmt.Errorf("%s is over the %d bytes read for import", path, MaxConfigSize)
	}
	return data, nil
}

// jsonEntry holds every key a JSON host writes for a server; each host
// reads the ones it documents.
type jsonEntry struct {
	Type          string            `json:"type"`
	Command       string            `json:"command"`
	Args          []string          `json:"args"`
	Env           map[string]string `json:"env"`
	EnvFile       string            `json:"envFile"`
	Cwd           string            `json:"cwd"`
	URL           string            `json:"url"`
	ServerURL     string            `json:"serverUrl"` // Windsurf
	HTTPURL       string            `json:"httpUrl"`   // Gemini CLI
	Headers       map[string]string `json:"headers"`
	Disabled      bool              `json:"disabled"`      // Windsurf
	DisabledTools []string          `json:"disabledTools"` // Windsurf
	Timeout       *float64          `json:"timeout"`       // Gemini CLI, milliseconds
	IncludeTools  []string          `json:"includeTools"`  // Gemini CLI
	ExcludeTools  []string          `json:"excludeTools"`  // Gemini CLI
}

// readJSONServers decodes the object of servers under key (mcpServers or
// servers) of a JSON file, calling convert for each entry that decodes.
func readJSONServers(data []byte, path []string, file string, convert func(name string, e jsonEntry, n *notes) (Server, bool)) ([]Server, []string, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(stripJSONC(data), &doc); err != nil {
		return nil, nil, fmt.Errorf("not valid JSON: %v", cleanJSONError(err))
	}
	key := strings.Join(path, ".")
	for _, p := range path[:len(path)-1] {
		var inner map[string]json.RawMessage
		if raw, ok := doc[p]; !ok || json.Unmarshal(raw, &inner) != nil {
			return nil, nil, nil // no such scope in this file
		}
		doc = inner
	}
	raw, ok := doc[path[len(path)-1]]
	if !ok || string(raw) == "null" {
		return nil, nil, nil
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, nil, fmt.Errorf("%s: want an object of servers", key)
	}
	n := &notes{file: file}
	var out []Server
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		var e jsonEntry
		if err := json.Unmarshal(entries[name], &e); err != nil {
			n.add(name, "not imported: %s", cleanJSONError(err))
			continue
		}
		if s, ok := convert(name, e, n); ok {
			out = append(out, s)
		}
	}
	return out, n.list, nil
}

// cleanJSONError says what is wrong without the decoder's Go types.
func cleanJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("%s: want %s, got a JSON %s", te.Field, jsonTypeName(te.Type.Kind().String()), te.Value)
		}
		return fmt.Sprintf("want %s, got a JSON %s", jsonTypeName(te.Type.Kind().String()), te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "slice":
		return "an array"
	case "map", "struct":
		return "an object"
	case "bool":
		return "true or false"
	case "float64", "int":
		return "a number"
	}
	return kind
}

// notes collects what an import could not carry over, per server.
type notes struct {
	file string
	list []string
}

func (n *notes) add(server, format string, args ...any) {
	n.list = append(n.list, fmt.Sprintf("%s: %s: %s", n.file, server, fmt.Sprintf(format, args...)))
}

// entryFrom builds a toolsearch entry from a JSON host's keys, once the
// host has chosen the transport and URL. Variables are rewritten with vars.
func entryFrom(name string, e jsonEntry, typ, rawURL string, vars func(string) string, n *notes) (Entry, bool) {
	out := Entry{Type: typ}
	switch typ {
	case "stdio":
		out.Command = vars(e.Command)
		for _, a := range e.Args {
			out.Args = append(out.Args, vars(a))
		}
		out.Env = mapValues(e.Env, vars)
		out.Cwd = vars(e.Cwd)
		if out.Command == "" {
			n.add(name, "not imported: it has no command")
			return out, false
		}
		if e.EnvFile != "" {
			n.add(name, "envFile %s is not read by toolsearch: set those variables in toolsearch's environment, or list them under env", e.EnvFile)
		}
	case "http", "sse":
		out.URL = vars(rawURL)
		out.Headers = mapValues(e.Headers, vars)
		if out.URL == "" {
			n.add(name, "not imported: it has no URL")
			return out, false
		}
	default:
		n.add(name, "not imported: unknown transport %q (toolsearch speaks stdio, http and sse)", typ)
		return out, false
	}
	if isToolsearch(out) {
		n.add(name, "not imported: it is toolsearch itself")
		return out, false
	}
	return unbridge(name, out, n), true
}

// urlType guesses the transport of a bare URL: the old HTTP+SSE transport
// conventionally lives at /sse, Streamable HTTP anywhere else.
func urlType(raw string) string {
	if u, err := url.Parse(raw); err == nil && strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), "/sse") {
		return "sse"
	}
	return "http"
}

func mapValues(m map[string]string, f func(string) string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = f(v)
	}
	return out
}

func millis(ms *float64) time.Duration {
	if ms == nil || *ms <= 0 {
		return 0
	}
	return time.Duration(*ms * float64(time.Millisecond))
}

// hostVarRE matches ${...} variables.
var hostVarRE = regexp.MustCompile(`\$\{([^{}]*)\}`)

// editorVars rewrites the variables of VS Code, Cursor and Windsurf into
// toolsearch's ${NAME}: ${env:NAME} becomes ${NAME}, folders are filled
// in, and ${input:ID} (VS Code prompts for it) becomes an environment
// variable, with a note saying which to set.
func editorVars(name string, o Options, n *notes) func(string) string {
	return func(s string) string {
		return hostVarRE.ReplaceAllStringFunc(s, func(m string) string {
			v := m[2 : len(m)-1]
			kind, arg, _ := strings.Cut(v, ":")
			switch kind {
			case "env":
				return "${" + arg + "}"
			case "userHome":
				return o.Home
			case "workspaceFolder", "workspaceRoot":
				if o.Project == "" {
					n.add(name, "%s has no project folder to stand for: give the project folder", m)
					return m
				}
				return o.Project
			case "workspaceFolderBasename":
				return lastElem(o.Project)
			case "pathSeparator", "/":
				return "/"
			case "input":
				env := envName(arg)
				n.add(name, "%s is asked for when the server starts; toolsearch reads ${%s} from its environment instead: set it there", m, env)
				return "${" + env + "}"
			}
			if !strings.Contains(v, ":") || strings.Contains(v, ":-") {
				return m // ${NAME} and ${NAME:-default} mean the same to toolsearch
			}
			n.add(name, "%s has no equivalent in toolsearch's .mcp.json: replace it by hand", m)
			return m
		})
	}
}

// envName makes an environment variable name of a VS Code input id.
func envName(id string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return r - 'a' + 'A'
		case 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '_':
			return r
		}
		return '_'
	}, id)
}

func lastElem(path string) string {
	path = strings.TrimRight(path, `/\`)
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// stripJSONC turns JSON with comments and trailing commas (VS Code's and
// Gemini CLI's settings files) into JSON. Strings are left alone; comments
// and trailing commas become spaces, so that offsets stay meaningful.
func stripJSONC(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	scanJSON(out, func(i int) int { // comments
		switch {
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
			return i
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			for end := i + 2; i < len(out) && i < end; i++ {
				out[i] = ' '
			}
			return i
		}
		return i + 1
	})
	scanJSON(out, func(i int) int { // trailing commas
		if out[i] == ',' {
			j := i + 1
			for j < len(out) && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r') {
				j++
			}
			if j < len(out) && (out[j] == '}' || out[j] == ']') {
				out[i] = ' '
			}
		}
		return i + 1
	})
	return out
}

// scanJSON calls visit at every byte outside strings; visit returns where
// to go on.
func scanJSON(data []byte, visit func(i int) int) {
	for i := 0; i < len(data); {
		if data[i] != '"' {
			i = visit(i)
			continue
		}
		for i++; i < len(data) && data[i] != '"'; i++ {
			if data[i] == '\\' {
				i++
			}
		}
		i++
	}
}

// MCPConfig renders servers as toolsearch's .mcp.json.
func MCPConfig(servers []Server) []byte {
	m := make(map[string]Entry, len(servers))
	for _, s := range servers {
		m[s.Name] = s.Entry
	}
	data, _ := json.MarshalIndent(map[string]any{"mcpServers": m}, "", "  ")
	return append(data, '\n')
}
