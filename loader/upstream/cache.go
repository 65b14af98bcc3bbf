package upstream

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"github.com/toolsearch/toolsearch/internal/jsonstream"
	"github.com/toolsearch/toolsearch/loader/toolfile"
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
	// Digests are the tools' digests (catalog.ToolDigest), by position.
	// Files written before they were kept lack them.
	Digests []string `json:"digests,omitempty"`
	// FirstSeen maps each tool remembered to the digest of its first
	// definition, so that a changed definition is noticed across restarts.
	FirstSeen map[string]string `json:"firstSeen"`
	// Trusted holds, for each tool held for approval, the definition last
	// trusted, so that a restart can still say what changed.
	Trusted map[string]*mcp.Tool `json:"trusted,omitempty"`
	// TrustedInstructions are, while the server's instructions are held,
	// the ones last trusted (nil when none were); TrustedFeatures are the
	// same for its held prompts, resources and templates, by approvals
	// entry (see held.go). They are what is shown meanwhile, and what
	// review compares with.
	TrustedInstructions *string                    `json:"trustedInstructions,omitempty"`
	TrustedFeatures     map[string]json.RawMessage `json:"trustedFeatures,omitempty"`
	// LastSeen maps each tool remembered to when it was last listed, in
	// Unix seconds. Files written before it existed lack it.
	LastSeen map[string]int64 `json:"lastSeen,omitempty"`
	// The server's prompts, resources and resource templates, as listed.
	Prompts   []*mcp.Prompt           `json:"prompts,omitempty"`
	Resources []*mcp.Resource         `json:"resources,omitempty"`
	Templates []*mcp.ResourceTemplate `json:"resourceTemplates,omitempty"`

	// seen, when set, is written as FirstSeen and LastSeen are (both
	// then ignored): what a server remembers, sorted by name.
	seen []seenName
}

// staleCacheAge is how long a cache file may go unwritten before it is
// removed. The directory is shared by every toolsearch on the machine, so a
// file that no server of this configuration uses may be another project's:
// only its age says it is abandoned. A server's file is rewritten at every
// listing.
const staleCacheAge = 90 * 24 * time.Hour

// staleTempAge is how old a temporary file of an atomic write must be to be
// taken for the leftover of a toolsearch killed while writing: a write takes
// milliseconds, and another toolsearch may be writing one now.
const staleTempAge = 10 * time.Minute

// pruneCache removes the cache files in dir not written for staleCacheAge,
// except those in keep (the current servers', whose last known catalogs
// matter most when they have failed for long), and the temporary files that
// writes (saveCache's, the approvals file's) left behind when they were
// killed. Only files named as catalogFile and atomicfile name them are
// touched.
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
		maxAge := staleCacheAge
		switch {
		case !de.Type().IsRegular() || keep[file]:
			continue
		case tempFileName.MatchString(de.Name()):
			maxAge = staleTempAge
		case !cacheFileName.MatchString(de.Name()):
			continue
		}
		info, err := de.Info()
		if err != nil || now.Sub(info.ModTime()) < maxAge {
			continue
		}
		if err := os.Remove(file); err == nil {
			removed = append(removed, de.Name())
		}
	}
	return removed, nil
}

// cacheFileName matches the names catalogFile makes, tempFileName those of
// atomicfile's temporary files.
var (
	cacheFileName = regexp.MustCompile(`^[A-Za-z0-9._-]+-[0-9a-f]{16}\.json$`)
	tempFileName  = regexp.MustCompile(`^` + regexp.QuoteMeta(atomicfile.TempPrefix) + `[0-9]+$`)
)

// Catalogs keep the servers' last known catalogs where every replica
// reads them (a database, package internal/state/pgstate). Without them
// (Options.Catalogs nil) they are files in CacheDir, one per server. name
// is the base name the catalog's file would have: it says which server
// configuration the catalog belongs to (see keys.go).
type Catalogs interface {
	// OpenCatalog returns the catalog stored under name; nil, nil when
	// none is.
	OpenCatalog(ctx context.Context, name string) (io.ReadCloser, error)
	// SaveCatalog replaces the catalog under name with what write writes,
	// whole or not at all.
	SaveCatalog(ctx context.Context, name string, write func(io.Writer) error) error
}

// FileCatalogs keep the catalogs as files in Dir, as a Manager without
// Catalogs does: the files' implementation of the interface, for what
// reads and writes catalogs through it (the state's conformance tests).
type FileCatalogs struct{ Dir string }

// OpenCatalog implements Catalogs.
func (c FileCatalogs) OpenCatalog(_ context.Context, name string) (io.ReadCloser, error) {
	f, _, err := atomicfile.Open(filepath.Join(c.Dir, filepath.Base(name)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// SaveCatalog implements Catalogs.
func (c FileCatalogs) SaveCatalog(_ context.Context, name string, write func(io.Writer) error) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(c.Dir, filepath.Base(name)), write)
}

// catalogTimeout bounds a read or write of a catalog in Catalogs.
const catalogTimeout = time.Minute

// loadCatalog reads a server's last known catalog from m's Catalogs, or
// from the file.
func (m *Manager) loadCatalog(file, server string) (*persisted, error) {
	if m.opts.Catalogs == nil || file == "" {
		return loadCache(file, server)
	}
	ctx, cancel := context.WithTimeout(m.ctx, catalogTimeout)
	defer cancel()
	rc, err := m.opts.Catalogs.OpenCatalog(ctx, filepath.Base(file))
	if rc == nil || err != nil {
		return nil, err
	}
	defer rc.Close()
	return readCache(atomicfile.LimitReader(rc, filepath.Base(file), atomicfile.MaxState), server)
}

// saveCatalog writes a server's last known catalog to m's Catalogs, or to
// the file.
func (m *Manager) saveCatalog(file string, p *persisted) error {
	if m.opts.Catalogs == nil || file == "" {
		return saveCache(file, p)
	}
	p.Version = cacheVersion
	ctx, cancel := context.WithTimeout(m.ctx, catalogTimeout)
	defer cancel()
	return m.opts.Catalogs.SaveCatalog(ctx, filepath.Base(file), func(w io.Writer) error { return writeCache(w, p) })
}

// loadCache reads a persisted catalog; a missing, unreadable or foreign
// file reads as none.
func loadCache(file, server string) (*persisted, error) {
	if file == "" {
		return nil, nil
	}
	f, _, err := atomicfile.Open(file) // a regular file, or an error
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCache(atomicfile.LimitReader(f, file, atomicfile.MaxState), server)
}

// readCache decodes a persisted catalog; a foreign one reads as none.
func readCache(r io.Reader, server string) (*persisted, error) {
	p, err := decodeCache(bufio.NewReaderSize(r, 256<<10))
	if err != nil {
		return nil, err
	}
	if p.Version != cacheVersion || p.Server != server {
		return nil, nil
	}
	return p, nil
}

// decodeCache reads a cache file as it comes, never whole: its tools
// through toolfile.ReadListedTools, with their schemas as JSON (decoded into
// maps, as mcp.Tool decodes them, they would take several times the file's
// size before being packed), its maps of names a name at a time, the other
// fields as persisted says.
func decodeCache(r io.Reader) (*persisted, error) {
	jr := jsonstream.NewReader(r)
	if c, err := jr.Peek(); err != nil || c != '{' {
		return nil, fmt.Errorf("want a JSON object: %v", err)
	}
	var (
		p     persisted
		tools []*mcp.Tool
	)
	rest := map[string]json.RawMessage{}
	err := jr.Object(func(key string) (err error) {
		switch key {
		case "tools":
			tools, err = toolfile.ReadListedTools(jr, nil)
		case "digests":
			p.Digests, err = readArray(jr, len(tools), jsonstream.String)
		case "firstSeen":
			p.FirstSeen, err = readMap(jr, len(tools), jsonstream.String)
		case "lastSeen":
			p.LastSeen, err = readMap(jr, len(tools), unixSeconds)
		default:
			rest[key], err = jr.Value(nil)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch _, err := jr.Peek(); {
	case err == nil:
		return nil, errors.New("data after the JSON object")
	case err != io.ErrUnexpectedEOF: // the end of the file, as it should be
		return nil, err
	}
	data, err := json.Marshal(rest)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	p.Tools = tools
	// The definitions kept for held tools are few: decoded whole, then packed.
	toolfile.PackSchemas(slices.Collect(maps.Values(p.Trusted)))
	return &p, nil
}

// readArray reads the JSON array at r's position (or null) into a slice
// made for size elements, an element at a time, each decoded by value.
func readArray[V any](r *jsonstream.Reader, size int, value func([]byte) (V, error)) ([]V, error) {
	if null, err := r.Null(); err != nil || null {
		return nil, err
	}
	s := make([]V, 0, size)
	var raw []byte
	err := r.Array(func(i int) (err error) {
		if raw, err = r.Value(raw[:0]); err != nil {
			return err
		}
		v, err := value(raw)
		if err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
		s = append(s, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// unixSeconds decodes a JSON integer: one as this file writes them (digits,
// a minus before them, no leading zero) at once, any other as encoding/json
// decodes it into an int64, or fails to.
func unixSeconds(raw []byte) (int64, error) {
	text := string(raw)
	digits := strings.TrimPrefix(text, "-")
	plain := digits != "" && (digits[0] != '0' || digits == "0") && strings.Trim(digits, "0123456789") == ""
	if plain {
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return v, nil
		}
	}
	var v int64
	err := json.Unmarshal(raw, &v)
	return v, err
}

// readMap reads the JSON object at r's position (or null) into a map made
// for size members, a member at a time, each value decoded by value: the
// maps of a large server's names have 100,000 members, whose strings
// encoding/json would scan twice over and allocate one by one. (The tools
// come first in the file: their number is the size.)
func readMap[V any](r *jsonstream.Reader, size int, value func([]byte) (V, error)) (map[string]V, error) {
	if null, err := r.Null(); err != nil || null {
		return nil, err
	}
	m := make(map[string]V, size)
	var raw []byte
	err := r.Object(func(key string) (err error) {
		if raw, err = r.Value(raw[:0]); err != nil {
			return err
		}
		v, err := value(raw)
		if err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
		m[key] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// saveCache writes a persisted catalog atomically: readers, including a
// toolsearch starting concurrently, see the old file or the new one. The
// data reaches the disk before the rename, so that a crash of the machine
// cannot leave an empty file under the real name.
func saveCache(file string, p *persisted) error {
	if file == "" {
		return nil
	}
	p.Version = cacheVersion
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return atomicfile.Write(file, func(w io.Writer) error { return writeCache(w, p) })
}

// writeCache writes p as json.Marshal would, but a tool and a name at a
// time: the encoding of a large catalog whole, and the buffer it grew
// through, would take several times the file's size at once (and the maps
// of names, 100,000 of each for a large server, tens of MB). The fields in
// between are encoded as usual, by structs with persisted's tags, in its
// order.
func writeCache(w io.Writer, p *persisted) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	head, err := json.Marshal(struct {
		Version      int       `json:"version"`
		Server       string    `json:"server"`
		Listed       time.Time `json:"listed"`
		Instructions string    `json:"instructions,omitempty"`
	}{p.Version, p.Server, p.Listed, p.Instructions})
	if err != nil {
		return err
	}
	bw.Write(head[:len(head)-1])
	bw.WriteString(`,"tools":`)
	if p.Tools == nil {
		bw.WriteString("null")
	} else {
		bw.WriteByte('[')
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
	}
	if len(p.Digests) > 0 {
		bw.WriteString(`,"digests":[`)
		for i, d := range p.Digests {
			if i > 0 {
				bw.WriteByte(',')
			}
			v, err := json.Marshal(d)
			if err != nil {
				return err
			}
			bw.Write(v)
		}
		bw.WriteByte(']')
	}
	firstSeen := func(v string) ([]byte, error) { return json.Marshal(v) }
	lastSeen := func(v int64) ([]byte, error) { return strconv.AppendInt(nil, v, 10), nil }
	nameOf := func(n seenName) string { return n.name }
	bw.WriteString(`,"firstSeen":`)
	if p.seen != nil {
		err = writeObject(bw, p.seen, nameOf, func(n seenName) ([]byte, error) { return firstSeen(n.first) })
	} else {
		err = writeMap(bw, p.FirstSeen, firstSeen)
	}
	if err != nil {
		return err
	}
	if err := writeFields(bw, struct {
		Trusted             map[string]*mcp.Tool       `json:"trusted,omitempty"`
		TrustedInstructions *string                    `json:"trustedInstructions,omitempty"`
		TrustedFeatures     map[string]json.RawMessage `json:"trustedFeatures,omitempty"`
	}{p.Trusted, p.TrustedInstructions, p.TrustedFeatures}); err != nil {
		return err
	}
	switch {
	case len(p.seen) > 0:
		bw.WriteString(`,"lastSeen":`)
		writeObject(bw, p.seen, nameOf, func(n seenName) ([]byte, error) { return lastSeen(n.last) })
	case p.seen == nil && len(p.LastSeen) > 0:
		bw.WriteString(`,"lastSeen":`)
		writeMap(bw, p.LastSeen, lastSeen)
	}
	if err := writeFields(bw, struct {
		Prompts   []*mcp.Prompt           `json:"prompts,omitempty"`
		Resources []*mcp.Resource         `json:"resources,omitempty"`
		Templates []*mcp.ResourceTemplate `json:"resourceTemplates,omitempty"`
	}{p.Prompts, p.Resources, p.Templates}); err != nil {
		return err
	}
	bw.WriteByte('}')
	return bw.Flush()
}

// writeMap writes m as json.Marshal does (keys sorted, null when nil), a
// pair at a time.
func writeMap[V any](w *bufio.Writer, m map[string]V, value func(V) ([]byte, error)) error {
	if m == nil {
		w.WriteString("null")
		return nil
	}
	return writeObject(w, slices.Sorted(maps.Keys(m)), func(k string) string { return k },
		func(k string) ([]byte, error) { return value(m[k]) })
}

// writeObject writes items as a JSON object, a member each, in their
// order: as json.Marshal writes a map when they are sorted by key.
func writeObject[T any](w *bufio.Writer, items []T, key func(T) string, value func(T) ([]byte, error)) error {
	w.WriteByte('{')
	for i, it := range items {
		if i > 0 {
			w.WriteByte(',')
		}
		k, err := json.Marshal(key(it))
		if err != nil {
			return err
		}
		v, err := value(it)
		if err != nil {
			return err
		}
		w.Write(k)
		w.WriteByte(':')
		w.Write(v)
	}
	return w.WriteByte('}')
}

// writeFields writes the fields of the struct v encodes to, each after a
// comma, or nothing when all are left out.
func writeFields(w *bufio.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if inner := data[1 : len(data)-1]; len(inner) > 0 {
		w.WriteByte(',')
		w.Write(inner)
	}
	return nil
}
