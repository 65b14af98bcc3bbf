package upstream

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader"
)

// cacheVersion changes when the file format does; other versions are
// ignored, as if there were no file.
const cacheVersion = 1

// persisted is a server's last known catalog on disk.
type persisted struct {
	Version      int         `json:"version"`
	Server       string      `json:"server"`
	Listed       time.Time   `json:"listed"`
	Instructions string      `json:"instructions,omitempty"`
	Tools        []*mcp.Tool `json:"tools"`
	// FirstSeen maps each tool ever listed to the digest of its first
	// definition, so that a changed definition is noticed across restarts.
	FirstSeen map[string]string `json:"firstSeen"`
}

// cacheFile names a server's file in dir. The key hashes what identifies
// the server: its name, transport, command, arguments, working directory
// and URL. Environment and headers are left out: they hold secrets that
// rotate, and a new token must not forget which definitions were first
// seen. The name prefix keeps the directory readable.
func cacheFile(dir string, cfg ServerConfig) string {
	if dir == "" {
		return ""
	}
	cwd := cfg.Cwd
	if cfg.Type == TypeStdio && cwd == "" {
		cwd, _ = os.Getwd() // relative arguments mean something else elsewhere
	}
	key, _ := json.Marshal([]any{cfg.Name, cfg.Type, cfg.Command, cfg.Args, cwd, cfg.URL})
	sum := sha256.Sum256(key)
	return filepath.Join(dir, safeName(cfg.Name)+"-"+hex.EncodeToString(sum[:8])+".json")
}

// staleCacheAge is how long a cache file may go unwritten before it is
// removed. The directory is shared by every toolsearch on the machine, so a
// file that no server of this configuration uses may be another project's:
// only its age says it is abandoned. A server's file is rewritten at every
// listing.
const staleCacheAge = 90 * 24 * time.Hour

// pruneCache removes the cache files in dir not written for staleCacheAge,
// except those in keep (the current servers', whose last known catalogs
// matter most when they have failed for long). Only files named as
// cacheFile names them are touched.
func pruneCache(dir string, keep map[string]bool, now time.Time) (removed []string, err error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, de := range entries {
		file := filepath.Join(dir, de.Name())
		if !de.Type().IsRegular() || !cacheFileName.MatchString(de.Name()) || keep[file] {
			continue
		}
		info, err := de.Info()
		if err != nil || now.Sub(info.ModTime()) < staleCacheAge {
			continue
		}
		if err := os.Remove(file); err == nil {
			removed = append(removed, de.Name())
		}
	}
	return removed, nil
}

// cacheFileName matches the names cacheFile makes.
var cacheFileName = regexp.MustCompile(`^[A-Za-z0-9._-]+-[0-9a-f]{16}\.json$`)

// safeName keeps a server name usable as part of a file name.
func safeName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
}

// loadCache reads a persisted catalog; a missing, unreadable or foreign
// file reads as none.
func loadCache(file, server string) (*persisted, error) {
	if file == "" {
		return nil, nil
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var raw struct {
		persisted
		Tools cachedTools `json:"tools"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	p := raw.persisted
	if p.Version != cacheVersion || p.Server != server {
		return nil, nil
	}
	p.Tools = raw.Tools
	return &p, nil
}

// cachedTools reads the tools of a cache file with their schemas kept as
// JSON, packed. Read as mcp.Tool reads them, into maps, they would take
// several times the file's size before being packed.
type cachedTools []*mcp.Tool

func (ts *cachedTools) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	switch tok, err := dec.Token(); {
	case err != nil:
		return err
	case tok == nil: // null
		return nil
	case tok != json.Delim('['):
		return errors.New(`"tools" is not an array`)
	}
	var pack loader.SchemaPacker
	for dec.More() {
		var t *struct {
			mcp.Tool
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		if err := dec.Decode(&t); err != nil {
			return err
		}
		if t == nil {
			*ts = append(*ts, nil)
			continue
		}
		tool := t.Tool
		tool.InputSchema, tool.OutputSchema = rawSchema(t.InputSchema), rawSchema(t.OutputSchema)
		pack.Pack(&tool)
		*ts = append(*ts, &tool)
	}
	_, err := dec.Token() // the closing bracket
	return err
}

// rawSchema is a schema read as JSON, nil when absent or null (as an any
// field would read it).
func rawSchema(raw json.RawMessage) any {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return raw
}

// saveCache writes a persisted catalog atomically: readers, including a
// toolsearch starting concurrently, see the old file or the new one.
func saveCache(file string, p *persisted) error {
	if file == "" {
		return nil
	}
	p.Version = cacheVersion
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
	if err := writeCache(tmp, p); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// writeCache writes p as json.Marshal would, but a tool at a time: the
// encoding of a large catalog whole, and the buffer it grew through, would
// take several times the file's size at once. The tools are spliced in
// where the encoding of p without them says "tools":null; the fields before
// it are scalars, in which that text cannot occur unescaped.
func writeCache(w io.Writer, p *persisted) error {
	rest := *p
	rest.Tools = nil
	data, err := json.Marshal(&rest)
	if err != nil {
		return err
	}
	before, after, ok := bytes.Cut(data, []byte(`"tools":null`))
	if !ok {
		return errors.New("cache: no place for the tools in the encoding")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(before)
	bw.WriteString(`"tools":[`)
	enc := json.NewEncoder(bw)
	for i, t := range p.Tools {
		if i > 0 {
			bw.WriteByte(',')
		}
		if err := enc.Encode(t); err != nil {
			return err
		}
	}
	bw.WriteByte(']')
	bw.Write(after)
	return bw.Flush()
}
