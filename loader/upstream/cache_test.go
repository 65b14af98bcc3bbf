package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/toolfile"
)

// Only cache files nobody has written for staleCacheAge go, and never the
// current servers' own: the directory is shared with other projects.
func TestPruneCache(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := now.Add(-staleCacheAge - time.Hour)
	recent := now.Add(-staleCacheAge + time.Hour)
	files := []struct {
		name     string
		modified time.Time
		dir      bool
		want     bool // still there after pruning
	}{
		{"gone-0123456789abcdef.json", old, false, false},
		{"mine-0123456789abcdef.json", old, false, true}, // a current server's
		{"other-project-fedcba9876543210.json", recent, false, true},
		{"notes.txt", old, false, true},
		{"x-0123456789abcdef.json.tmp", old, false, true},
		// saveCache's temporary files, left by a toolsearch killed while
		// writing, and one being written now.
		{".tmp-4242", now.Add(-staleTempAge - time.Minute), false, false},
		{".tmp-4343", now, false, true},
		{".tmp-notours", old, false, true},
		{"folder-0123456789abcdef.json", old, true, true},
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if f.dir {
			os.Mkdir(path, 0o755)
		} else {
			os.WriteFile(path, []byte("{}"), 0o644)
		}
		os.Chtimes(path, f.modified, f.modified)
	}
	keep := map[string]bool{filepath.Join(dir, "mine-0123456789abcdef.json"): true}
	removed, err := pruneCache(dir, keep, now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{".tmp-4242", "gone-0123456789abcdef.json"}) {
		t.Errorf("removed %q", removed)
	}
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		if there := err == nil; there != f.want {
			t.Errorf("%s: there = %v, want %v", f.name, there, f.want)
		}
	}
	if _, err := pruneCache(filepath.Join(dir, "missing"), nil, now); err != nil {
		t.Errorf("a missing directory: %v", err)
	}
}

// Start prunes, and keeps the files of the servers it runs.
func TestStartPrunesAbandonedCatalogs(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	f.addEcho("echo", "Echo.")
	old := time.Now().Add(-staleCacheAge - time.Hour)
	abandoned := filepath.Join(e.opts.CacheDir, "gone-0123456789abcdef.json")
	os.WriteFile(abandoned, []byte("{}"), 0o644)
	os.Chtimes(abandoned, old, old)
	mine := keysOf(e.opts.CacheDir, e.configs()[0]).file
	os.WriteFile(mine, []byte("{}"), 0o644)
	os.Chtimes(mine, old, old)

	// No connection, so no listing rewrites the server's file.
	e.opts.Dial = func(ctx context.Context, _ ServerConfig) (mcp.Transport, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	m := New(e.configs(), e.opts)
	m.Start(context.Background())
	defer m.Close()
	if _, err := os.Stat(abandoned); !os.IsNotExist(err) {
		t.Errorf("abandoned catalog still there: %v", err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the server's own catalog: %v", err)
	}
}

// cacheTools are tools as a listing brings them: schemas decoded into maps.
func cacheTools() []*mcp.Tool {
	return []*mcp.Tool{
		{Name: "plain", Description: "A <plain> tool & more.", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"n": map[string]any{"type": "number", "default": 1.5}, "a": map[string]any{"type": "string", "enum": []any{"x", "y"}}}}},
		{Name: "typed", Title: "Typed", InputSchema: map[string]any{"type": "object"}, OutputSchema: map[string]any{"type": "object"},
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}, Meta: mcp.Meta{"k": "v"}},
		{Name: "no schema"},
		nil,
	}
}

// The cache is written a tool at a time, as json.Marshal would write it
// whole, and read back with the schemas packed as JSON, as they were read
// before through maps (the digests on disk depend on it).
func TestCacheRoundTrip(t *testing.T) {
	tools := cacheTools()
	toolfile.PackSchemas(tools)
	p := &persisted{Version: cacheVersion, Server: "fake", Listed: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Instructions: `Say "tools":null and <b>hi</b>.`, Tools: tools, FirstSeen: map[string]string{"plain": "abc", "tools": "def"}}
	var buf bytes.Buffer
	if err := writeCache(&buf, p); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(p)
	var got bytes.Buffer
	if err := json.Compact(&got, buf.Bytes()); err != nil || got.String() != string(want) {
		t.Fatalf("written (compacted):\n%s\nwant\n%s (%v)", got.String(), want, err)
	}
	// Every field, the maps written a name at a time among them.
	for _, full := range []*persisted{
		{Version: cacheVersion, Server: "fake", Tools: tools[:1], Digests: []string{"sha256:<x>"}, FirstSeen: map[string]string{"b<>": "x", "a": "y\"z"},
			Trusted: map[string]*mcp.Tool{"t": {Name: "t", Description: "was"}}, LastSeen: map[string]int64{"b<>": 1, "a": -2},
			Prompts: []*mcp.Prompt{{Name: "p"}}, Resources: []*mcp.Resource{{Name: "r", URI: "file:///r"}},
			Templates: []*mcp.ResourceTemplate{{Name: "t", URITemplate: "file:///{x}"}}},
		{Version: cacheVersion, Server: "empty", FirstSeen: map[string]string{}, LastSeen: map[string]int64{}},
		{},
	} {
		var buf, got bytes.Buffer
		if err := writeCache(&buf, full); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(full)
		if err := json.Compact(&got, buf.Bytes()); err != nil || got.String() != string(want) {
			t.Errorf("written (compacted):\n%s\nwant\n%s (%v)", got.String(), want, err)
		}
		// Read back, the maps a member at a time, as encoding/json reads them.
		back, err := decodeCache(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", buf.Bytes(), err)
		}
		var whole persisted
		json.Unmarshal(buf.Bytes(), &whole)
		if !maps.Equal(back.FirstSeen, whole.FirstSeen) || !maps.Equal(back.LastSeen, whole.LastSeen) || !slices.Equal(back.Digests, whole.Digests) ||
			(back.FirstSeen == nil) != (whole.FirstSeen == nil) || back.Server != whole.Server ||
			len(back.Trusted) != len(whole.Trusted) || len(back.Prompts)+len(back.Resources)+len(back.Templates) != len(whole.Prompts)+len(whole.Resources)+len(whole.Templates) {
			t.Errorf("read back %+v, want %+v", back, whole)
		}
	}

	// What a server remembers is written from its sorted snapshot (save's
	// way) as the maps of it are written.
	for _, seen := range []seenTools{{"b<>": {first: "x", last: 1}, "a": {first: "y\"z", last: -2}, "c": {first: "", last: 0}}, {}, nil} {
		fromMaps := &persisted{Version: cacheVersion, Server: "fake", FirstSeen: map[string]string{}, LastSeen: map[string]int64{}}
		for name, r := range seen {
			fromMaps.FirstSeen[name], fromMaps.LastSeen[name] = r.first, r.last
		}
		var snap, whole bytes.Buffer
		if err := writeCache(&snap, &persisted{Version: cacheVersion, Server: "fake", seen: seen.sorted()}); err != nil {
			t.Fatal(err)
		}
		writeCache(&whole, fromMaps)
		if snap.String() != whole.String() {
			t.Errorf("from the snapshot:\n%s\nfrom the maps:\n%s", snap.Bytes(), whole.Bytes())
		}
	}

	file := filepath.Join(t.TempDir(), "c.json")
	if err := saveCache(file, p); err != nil {
		t.Fatal(err)
	}
	back, err := loadCache(file, "fake")
	if err != nil {
		t.Fatal(err)
	}
	// What loading through mcp.Tool and PackSchemas gave.
	var old persisted
	json.Unmarshal(want, &old)
	toolfile.PackSchemas(old.Tools)
	if len(back.Tools) != len(old.Tools) || back.Instructions != p.Instructions || !maps.Equal(back.FirstSeen, p.FirstSeen) || !back.Listed.Equal(p.Listed) {
		t.Fatalf("read back %+v", back)
	}
	for i, tl := range back.Tools {
		if (tl == nil) != (old.Tools[i] == nil) {
			t.Fatalf("tool %d: %v, want %v", i, tl, old.Tools[i])
		}
		if tl == nil {
			continue
		}
		if got, want := catalog.ToolDigest(tl), catalog.ToolDigest(old.Tools[i]); got != want {
			t.Errorf("%s: digest %s, want %s", tl.Name, got, want)
		}
		for _, s := range [][2]any{{tl.InputSchema, old.Tools[i].InputSchema}, {tl.OutputSchema, old.Tools[i].OutputSchema}} {
			if s[0] == nil && s[1] == nil {
				continue
			}
			raw, ok := s[0].(json.RawMessage)
			if !ok || string(raw) != string(s[1].(json.RawMessage)) {
				t.Errorf("%s: schema %#v, want %s", tl.Name, s[0], s[1])
			}
		}
	}

	for _, bad := range []string{`{"version":1,"server":"fake","tools":{}}`, `{"version":1,"server":"fake","tools":["x"]}`,
		`{"version":1,"server":"fake","firstSeen":{"a":1}}`, `{"version":1,"server":"fake","lastSeen":{"a":"1"}}`,
		`{"version":1,"server":"fake","firstSeen":{"a":"x" "b":"y"}}`, `{"version":1,"server":"fake","listed":nul}`,
		`{"version":1,"server":"fake"} {}`, `{"version":1,"server":"fake","tools":[]`, `{"version":1,"server":"fake",}`} {
		os.WriteFile(file, []byte(bad), 0o644)
		if _, err := loadCache(file, "fake"); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
	os.WriteFile(file, []byte(`{"version":1,"server":"fake","tools":null}`), 0o644)
	if p, err := loadCache(file, "fake"); err != nil || p.Tools != nil {
		t.Errorf("null tools: %v %v", p, err)
	}
}

// A restart serves the last known catalog with the digests saved beside its
// tools rather than hashing them again, and the server's next listing is
// hashed whatever they say: a file altered to lie about a definition's
// digest is caught at that listing.
func TestLastKnownDigests(t *testing.T) {
	e := newEnv(t)
	f := e.add("s", nil)
	f.setTool("one", "The first tool.")
	m := e.start()
	real := entry(waitSource(t, e.catalog, "s", "listed", inState(catalog.StateActive)), "s__one").Digest
	waitKnown(t, m, "s")
	m.Close() // once the listing is saved
	file := m.servers["s"].id.file
	p, err := loadCache(file, "s")
	if err != nil || p == nil {
		t.Fatalf("no last known catalog: %v", err)
	}
	if !slices.Equal(p.Digests, []string{real}) {
		t.Fatalf("saved digests %v, want [%s]", p.Digests, real)
	}
	lie := "sha256:" + strings.Repeat("0", 64)
	p.Digests[0] = lie
	if err := saveCache(file, p); err != nil {
		t.Fatal(err)
	}

	gate := make(chan struct{})
	f.gateList(gate)
	e.catalog = catalog.New()
	e.opts.Catalog = e.catalog
	e.start()
	src := waitSource(t, e.catalog, "s", "last known catalog", inState(catalog.StateConnecting))
	if d := entry(src, "s__one").Digest; d != lie {
		t.Errorf("served with digest %s, want the saved %s", d, lie)
	}
	close(gate)
	waitSource(t, e.catalog, "s", "listed again, its tool hashed", func(src *catalog.Source) bool {
		return src.State == catalog.StateActive && entry(src, "s__one").Digest == real
	})
}

// A last listing's time is read as encoding/json reads an int64.
func TestUnixSeconds(t *testing.T) {
	for _, raw := range []string{"0", "-0", "17", "-1700000000", "007", "+1", "1.5", "1e3", "9223372036854775807", "9223372036854775808", "-", "", `"1"`, "1_0"} {
		var want int64
		wantErr := json.Unmarshal([]byte(raw), &want)
		got, err := unixSeconds([]byte(raw))
		if got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("%q: %d, %v; encoding/json %d, %v", raw, got, err, want, wantErr)
		}
	}
}
