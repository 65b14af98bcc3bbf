package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"github.com/toolsearch/toolsearch/internal/suggest"
	"github.com/toolsearch/toolsearch/loader/problem"
)

// Transport types of a ServerConfig.
const (
	TypeStdio = "stdio" // a subprocess speaking MCP over stdin/stdout
	TypeHTTP  = "http"  // Streamable HTTP
	TypeSSE   = "sse"   // the older HTTP+SSE transport
)

// ServerConfig says how to reach one upstream server: an entry of a
// Claude-style .mcp.json with every ${VAR} expanded.
type ServerConfig struct {
	Name string
	Type string // TypeStdio, TypeHTTP or TypeSSE

	// For TypeStdio.
	Command string
	Args    []string
	Env     map[string]string // added to the environment inherited from toolsearch (see Manager)
	Cwd     string            // absolute; empty means toolsearch's working directory

	// For TypeHTTP and TypeSSE.
	URL     string
	Headers map[string]string
	// LocalBridge is the entry's "bridge": true: the URL serves
	// `toolsearch bridge` in front of a local program (see Remote).
	LocalBridge bool

	// Vars names the variables of toolsearch's environment that the entry
	// refers to with ${VAR}: the server still inherits those, while the
	// variables only other entries name are kept from it.
	Vars []string

	// Problems holds warnings about this entry that did not stop it loading
	// (an unset ${VAR}, say). They are also among LoadConfig's problems; the
	// Manager publishes them on the server's catalog source.
	Problems problem.Problems
}

// LoadConfig reads the upstream servers from a Claude-style .mcp.json:
//
//	{"mcpServers": {
//	  "NAME": {"command": "...", "args": [...], "env": {...}, "cwd": "..."},
//	  "NAME": {"type": "http", "url": "...", "headers": {...}},
//	  "NAME": {"type": "sse", "url": "...", "headers": {...}}}}
//
// As in Claude Code, ${VAR} and ${VAR:-default} expand in every string, an
// absent type means stdio, and keys toolsearch does not use are ignored so
// that a file Claude Code accepts works unchanged. A relative cwd or command
// path is taken from the file's folder (see entryDecoder.resolvePaths).
//
// An entry that cannot be used (a wrong JSON type, an unknown transport, no
// command or URL) is left out and reported, with the file and key, among the
// problems; the others load. A key one typo away from one toolsearch reads
// ("comand") is a warning that names the key meant. Each problem carries
// its line and column. The servers come sorted by name. Only a file that
// cannot be read or is not a JSON object of servers is an error: a
// *FileError, located, when the file was read but is not such JSON.
func LoadConfig(path string) ([]ServerConfig, problem.Problems, error) {
	data, err := atomicfile.ReadFile(path, atomicfile.MaxConfig)
	if err != nil {
		return nil, nil, err
	}
	var file map[string]json.RawMessage
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, nil, jsonFileError(path, data, err, `want a JSON object with "mcpServers" holding an object of servers`)
	}
	var servers map[string]json.RawMessage
	if raw, ok := file["mcpServers"]; ok && jsonKind(raw) != "null" {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return nil, nil, jsonFileError(path, data, &json.UnmarshalTypeError{Value: jsonKind(raw), Field: "mcpServers"}, `want an object of servers`)
		}
	}
	var (
		configs []ServerConfig
		probs   problem.Problems
		atKey   = map[string]bool{}
	)
	if servers == nil {
		probs = append(probs, noServersKey(path, file, atKey)...)
	}
	// Where things are is worked out once, and only for a file with
	// problems.
	positions := sync.OnceValue(func() jsonPositions { return locate(data) })
	placeProblems(data, positions, probs, atKey)
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		d := &entryDecoder{file: path, key: "mcpServers." + name, atKey: atKey}
		cfg, ok := d.server(name, servers[name])
		placeProblems(data, positions, d.probs, atKey)
		placeProblems(data, positions, cfg.Problems, atKey)
		probs = append(probs, d.probs...)
		if ok {
			configs = append(configs, cfg)
		}
	}
	return configs, probs, nil
}

// noServersKey warns about a file without "mcpServers" whose keys include
// one that looks like it: a file with none at all (an empty {}) is just a
// file without servers.
func noServersKey(path string, file map[string]json.RawMessage, atKey map[string]bool) problem.Problems {
	for _, key := range slices.Sorted(maps.Keys(file)) {
		if hint := suggest.Hint(key, []string{"mcpServers"}); hint != "" {
			atKey[key] = true
			return problem.Problems{{File: path, Field: key, Severity: problem.SeverityWarning,
				Message: fmt.Sprintf("%s: unknown key, so the file defines no server: servers go in \"mcpServers\"%s", key, hint)}}
		}
	}
	return nil
}

// entryDecoder decodes one server entry, expanding variables and recording
// problems under the entry's key.
type entryDecoder struct {
	file   string
	key    string // mcpServers.NAME
	fields map[string]json.RawMessage
	probs  problem.Problems
	vars   []string // the variables ${VAR} named
	failed bool     // an error-level problem: the entry cannot be used
	// atKey collects the fields whose problem is the key itself (an
	// unknown one), placed at the key rather than its value.
	atKey map[string]bool
}

// entryKeys are the keys of a server entry toolsearch reads.
var entryKeys = []string{"type", "command", "args", "env", "cwd", "url", "headers", "bridge"}

// unknownKeys warns about each key of the entry that is not one toolsearch
// reads but is one typo away from one ("comand"): hosts write keys of
// their own (disabled, timeout, alwaysAllow), which are ignored quietly,
// but a misspelt key would leave the server without what it names.
func (d *entryDecoder) unknownKeys() {
	for _, k := range slices.Sorted(maps.Keys(d.fields)) {
		if slices.Contains(entryKeys, k) {
			continue
		}
		if hint := suggest.Hint(k, entryKeys); hint != "" {
			key := d.key + "." + k
			if d.atKey != nil {
				d.atKey[key] = true
			}
			d.report(key, problem.SeverityWarning, "unknown key, ignored"+hint)
		}
	}
}

func (d *entryDecoder) server(name string, raw json.RawMessage) (ServerConfig, bool) {
	cfg := ServerConfig{Name: name}
	if kind := jsonKind(raw); kind != "object" {
		d.errorf(d.key, "want an object, got %s", kind)
		return cfg, false
	}
	_ = json.Unmarshal(raw, &d.fields) // an object, as checked above
	d.unknownKeys()

	cfg.Type = d.str("type")
	switch cfg.Type {
	case "":
		cfg.Type = TypeStdio
		// Some clients write just a URL; Claude Code would insist on
		// a type, but there is no other reading of such an entry.
		if d.fields["command"] == nil && d.fields["url"] != nil {
			cfg.Type = TypeHTTP
		}
	case TypeStdio, TypeHTTP, TypeSSE:
	case "streamable-http", "streamableHttp", "streamable_http":
		cfg.Type = TypeHTTP
	default:
		d.errorf(d.key+".type", "unknown transport %q: want stdio, http or sse", cfg.Type)
		return cfg, false
	}

	switch cfg.Type {
	case TypeStdio:
		cfg.Command = d.str("command")
		cfg.Args = d.strs("args")
		cfg.Env = d.strMap("env")
		cfg.Cwd = d.str("cwd")
		switch {
		case d.failed:
		case cfg.Command == "" && d.fields["command"] == nil:
			d.errorf(d.key+".command", "missing")
		case cfg.Command == "":
			d.errorf(d.key+".command", "empty")
		}
		if !d.failed {
			d.resolvePaths(&cfg)
		}
		if note := noteBridge(cfg); note != "" && !d.failed {
			d.report(d.key, problem.SeverityHint, note)
		}
	default:
		cfg.URL = d.str("url")
		cfg.Headers = d.strMap("headers")
		switch {
		case d.failed:
		case cfg.URL == "" && d.fields["url"] == nil:
			d.errorf(d.key+".url", "missing")
		default:
			if u, err := url.Parse(cfg.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				d.errorf(d.key+".url", "%q is not an http or https URL", redactURL(cfg.URL))
			}
		}
	}
	if !d.failed {
		d.localBridge(&cfg)
	}
	for _, p := range d.probs {
		if p.Severity < problem.SeverityError {
			cfg.Problems = append(cfg.Problems, p)
		}
	}
	cfg.Vars = slices.Compact(slices.Sorted(slices.Values(d.vars)))
	return cfg, !d.failed
}

// resolvePaths takes an entry's relative paths from the folder of the file
// that names them, as a toolsearch.yaml's are, so that the same file starts
// the same programs from whatever folder toolsearch runs in: a relative cwd,
// and a relative command path (./bin/server) of an entry without a cwd (with
// one, the command is taken from the cwd, as a process starts). A bare
// command (npx) is looked up on PATH, and arguments are the server's own:
// both are left as written. A server without a cwd runs where toolsearch
// runs, in the host's project, as hosts run their servers.
func (d *entryDecoder) resolvePaths(cfg *ServerConfig) {
	dir, err := filepath.Abs(filepath.Dir(d.file))
	if err != nil {
		d.errorf(d.key, "%v", err)
		return
	}
	if cfg.Cwd != "" {
		if !filepath.IsAbs(cfg.Cwd) {
			cfg.Cwd = filepath.Join(dir, cfg.Cwd)
		}
		cfg.Cwd = filepath.Clean(cfg.Cwd)
		return
	}
	if strings.ContainsAny(cfg.Command, `/\`) && !filepath.IsAbs(cfg.Command) {
		cfg.Command = filepath.Join(dir, cfg.Command)
	}
}

// str decodes a string field; an absent or null field is "".
func (d *entryDecoder) str(field string) string {
	return d.expand(d.key+"."+field, d.fields[field])
}

func (d *entryDecoder) strs(field string) []string {
	raw := d.fields[field]
	if raw == nil || jsonKind(raw) == "null" {
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		d.errorf(d.key+"."+field, "want an array of strings, got %s", jsonKind(raw))
		return nil
	}
	out := make([]string, len(items))
	for i, item := range items {
		out[i] = d.expand(fmt.Sprintf("%s.%s[%d]", d.key, field, i), item)
	}
	return out
}

func (d *entryDecoder) strMap(field string) map[string]string {
	raw := d.fields[field]
	if raw == nil || jsonKind(raw) == "null" {
		return nil
	}
	var items map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		d.errorf(d.key+"."+field, "want an object of strings, got %s", jsonKind(raw))
		return nil
	}
	out := make(map[string]string, len(items))
	for _, k := range slices.Sorted(maps.Keys(items)) {
		out[k] = d.expand(d.key+"."+field+"."+k, items[k])
	}
	return out
}

// expand decodes a JSON string and expands its variables.
func (d *entryDecoder) expand(key string, raw json.RawMessage) string {
	if raw == nil || jsonKind(raw) == "null" {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		d.errorf(key, "want a string, got %s", jsonKind(raw))
		return ""
	}
	s, named, missing := expandVars(s)
	d.vars = append(d.vars, named...)
	for _, name := range missing {
		d.report(key, problem.SeverityWarning, fmt.Sprintf("${%s} is not set and has no default: it expands to an empty string", name))
	}
	return s
}

func (d *entryDecoder) errorf(key, format string, args ...any) {
	d.failed = true
	d.report(key, problem.SeverityError, fmt.Sprintf(format, args...))
}

// report records a problem. The key leads the message too, because
// Problem.String shows only the file and the message.
func (d *entryDecoder) report(key string, sev problem.Severity, msg string) {
	d.probs = append(d.probs, problem.Problem{File: d.file, Field: key, Severity: sev, Message: key + ": " + msg})
}

// jsonKind names the kind of a JSON value for messages.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// ExpandVars expands ${VAR} and ${VAR:-default} as in .mcp.json, for
// settings kept elsewhere (toolsearch.yaml's OAuth client secrets). It
// returns the names of unset variables without a default, which expand to
// "".
func ExpandVars(s string) (string, []string) {
	s, _, missing := expandVars(s)
	return s, missing
}

// expandVars expands ${VAR} and ${VAR:-default} the way Claude Code does: a
// variable that is set, even to "", wins over the default. It returns the
// names of the variables s refers to, and of those that are unset and have
// no default; they expand to "". Anything else, "$VAR" or an unclosed "${"
// included, stays as written.
func expandVars(s string) (out string, named, missing []string) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		name, def, hasDef := strings.Cut(s[i+2:i+2+j], ":-")
		named = append(named, name)
		if v, ok := os.LookupEnv(name); ok {
			b.WriteString(v)
		} else if hasDef {
			b.WriteString(def)
		} else {
			missing = append(missing, name)
		}
		s = s[i+2+j+1:]
	}
	b.WriteString(s)
	return b.String(), named, missing
}
