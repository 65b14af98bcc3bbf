package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// wireSkills is the skill root the Skills extension tests serve: a skill
// with nested folders, a binary file, an empty file and a file whose name
// needs escaping; a plain skill; and one that breaks a rule.
const wireSkills = "../../server/testdata/skills-wire"

const skillsExt = "io.modelcontextprotocol/skills"

// rawSession speaks JSON-RPC to `toolsearch serve` directly, so that tests
// see the exact wire: a Go client would drop fields it does not know and
// fill in the ones missing.
type rawSession struct {
	t      *testing.T
	stdin  io.WriteCloser
	msgs   chan rawMessage
	meta   map[string]any // sent with every request on 2026-07-28; nil for a 2025-11-25 session
	nextID int
	notes  []string // methods of the notifications received so far
}

type rawMessage struct {
	Line   string          `json:"-"` // the message as written
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rawError       `json:"error,omitempty"`
}

type rawError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// startServe starts the binary serving root and connects to it without a
// handshake.
func startServe(t *testing.T, root string) *rawSession {
	t.Helper()
	cmd := toolsearch(context.Background(), "serve", "--skills", root)
	cmd.Stderr = &testLog{t: t}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &rawSession{t: t, stdin: stdin, msgs: make(chan rawMessage, 64)}
	go func() {
		defer close(r.msgs)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var m rawMessage
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				panic(fmt.Sprintf("server wrote %q: %v", sc.Text(), err))
			}
			m.Line = sc.Text()
			r.msgs <- m
		}
	}()
	t.Cleanup(func() {
		stdin.Close() // the server stops at the end of its input
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return r
}

var (
	e2eClient = map[string]any{"name": "e2e", "version": "1"}
	// e2eCaps are the client capabilities the Inspector sends: the
	// extension, with no settings.
	e2eCaps = map[string]any{"extensions": map[string]any{skillsExt: map[string]any{}}}
)

// startRaw starts the binary serving root and opens a session of the
// given era: "legacy" initializes with 2025-11-25; "modern" sends every
// request with the 2026-07-28 _meta and never initializes.
func startRaw(t *testing.T, era, root string) *rawSession {
	t.Helper()
	r := startServe(t, root)
	if era == "modern" {
		r.meta = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientInfo":         e2eClient,
			"io.modelcontextprotocol/clientCapabilities": e2eCaps,
		}
		return r
	}
	r.initialize()
	return r
}

// initialize makes the 2025-11-25 handshake and returns its result.
func (r *rawSession) initialize() json.RawMessage {
	r.t.Helper()
	res := r.mustCall("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": e2eCaps, "clientInfo": e2eClient})
	r.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return res
}

func (r *rawSession) send(msg any) {
	r.t.Helper()
	data, err := json.Marshal(msg)
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.stdin.Write(append(data, '\n')); err != nil {
		r.t.Fatal(err)
	}
}

// call sends a request and returns its result or its error.
func (r *rawSession) call(method string, params map[string]any) (json.RawMessage, *rawError) {
	r.t.Helper()
	r.nextID++
	id := fmt.Sprint(r.nextID)
	p := map[string]any{}
	for k, v := range params {
		p[k] = v
	}
	if r.meta != nil {
		p["_meta"] = r.meta
	}
	r.send(map[string]any{"jsonrpc": "2.0", "id": r.nextID, "method": method, "params": p})
	for {
		m := r.next(10 * time.Second)
		if m == nil {
			r.t.Fatalf("%s: no response", method)
		}
		if string(m.ID) == id {
			return m.Result, m.Error
		}
	}
}

func (r *rawSession) mustCall(method string, params map[string]any) json.RawMessage {
	r.t.Helper()
	res, rpcErr := r.call(method, params)
	if rpcErr != nil {
		r.t.Fatalf("%s %v: error %d %s", method, params, rpcErr.Code, rpcErr.Message)
	}
	return res
}

// next returns the next message, noting notifications, or nil on timeout.
func (r *rawSession) next(timeout time.Duration) *rawMessage {
	select {
	case m, ok := <-r.msgs:
		if !ok {
			r.t.Fatal("the server closed its output")
		}
		if m.ID == nil && m.Method != "" {
			r.notes = append(r.notes, m.Method)
		}
		return &m
	case <-time.After(timeout):
		return nil
	}
}

// reply returns the next message that is not a notification (noting those), or nil on
// timeout: a tools/list_changed may come at any time after start, whenever the listing
// settles.
func (r *rawSession) reply(timeout time.Duration) *rawMessage {
	deadline := time.Now().Add(timeout)
	for {
		m := r.next(time.Until(deadline))
		if m == nil || m.ID != nil || m.Method == "" {
			return m
		}
	}
}

// waitNote waits for a notification that arrived since the notes were last
// cleared.
func (r *rawSession) waitNote(method string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		for _, n := range r.notes {
			if n == method {
				return true
			}
		}
		left := time.Until(deadline)
		if left <= 0 || r.next(left) == nil {
			return false
		}
	}
}

// wireEntry is a Skill entry of skills/list and skills/get.
type wireEntry struct {
	URI         string         `json:"uri"`
	Frontmatter map[string]any `json:"frontmatter"`
	Resources   []struct {
		URI    string `json:"uri"`
		Digest string `json:"digest"`
		Size   int64  `json:"size"`
	} `json:"resources"`
}

func decode[T any](t *testing.T, data json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	return v
}

// readBytes reads a resource and returns the bytes it carries.
func (r *rawSession) readBytes(uri string) []byte {
	r.t.Helper()
	res := decode[struct {
		Contents []struct {
			URI  string  `json:"uri"`
			Text *string `json:"text"`
			Blob *string `json:"blob"`
		} `json:"contents"`
	}](r.t, r.mustCall("resources/read", map[string]any{"uri": uri}))
	if len(res.Contents) != 1 || res.Contents[0].URI != uri {
		r.t.Fatalf("reading %s: contents %+v", uri, res.Contents)
	}
	c := res.Contents[0]
	switch {
	case c.Text != nil && c.Blob == nil:
		return []byte(*c.Text)
	case c.Blob != nil && c.Text == nil:
		data, err := base64.StdEncoding.DecodeString(*c.Blob)
		if err != nil {
			r.t.Fatal(err)
		}
		return data
	}
	r.t.Fatalf("reading %s: want exactly one of text and blob", uri)
	return nil
}

// skillExchanges are the requests whose answers the golden files record.
var skillExchanges = []struct {
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
}{
	{"skills/list", map[string]any{}},
	{"skills/get", map[string]any{"uri": "skill://pdf-forms/SKILL.md"}},
	{"resources/read", map[string]any{"uri": "skill://pdf-forms/SKILL.md"}},
	{"resources/read", map[string]any{"uri": "skill://pdf-forms/assets/blank.png"}},
	{"resources/read", map[string]any{"uri": "skill://pdf-forms/assets/empty.txt"}},
	{"resources/read", map[string]any{"uri": "skill://pdf-forms/assets/form%20notes.txt"}},
	{"resources/directory/read", map[string]any{"uri": "skill://pdf-forms"}},
	{"resources/directory/read", map[string]any{"uri": "skill://pdf-forms/references"}},
	{"resources/directory/read", map[string]any{"uri": "skill://pdf-forms/references/deep"}},
	// Errors.
	{"skills/get", map[string]any{"uri": "skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md"}},
	{"skills/get", map[string]any{"uri": "skill://pdf-forms/references/fields.md"}},
	{"skills/get", map[string]any{"uri": "skill://other-name/SKILL.md"}}, // loaded, but breaks a rule
	{"skills/get", map[string]any{}},
	{"skills/list", map[string]any{"cursor": "not a cursor"}},
	{"resources/directory/read", map[string]any{"uri": "skill://pdf-forms/SKILL.md"}},
	{"resources/directory/read", map[string]any{"uri": "skill://pdf-forms/"}},
	{"resources/directory/read", map[string]any{"uri": "skill://nope"}},
	{"resources/read", map[string]any{"uri": "skill://pdf-forms/nope.md"}},
	{"resources/read", map[string]any{"uri": "skill://other-name/SKILL.md"}},
}

// TestSkillsWireGolden records the wire shapes of the extension's answers
// on both protocol eras.
func TestSkillsWireGolden(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			r := startRaw(t, era, wireSkills)
			type exchange struct {
				Request any       `json:"request"`
				Result  any       `json:"result,omitempty"`
				Error   *rawError `json:"error,omitempty"`
			}
			var log []exchange
			for _, x := range skillExchanges {
				res, rpcErr := r.call(x.Method, x.Params)
				e := exchange{Request: x, Error: rpcErr}
				if res != nil {
					e.Result = normalizeResult(t, res)
				}
				log = append(log, e)
			}
			got, _ := json.MarshalIndent(log, "", "  ")
			if err := os.MkdirAll(filepath.Join("testdata", "skills"), 0o755); err != nil {
				t.Fatal(err)
			}
			golden(t, "skills/wire_"+era+".golden.json", got)
		})
	}
}

// normalizeResult decodes a result for a golden file: keys sorted, and the
// server's identity, which carries the build's version, elided.
func normalizeResult(t *testing.T, res json.RawMessage) any {
	t.Helper()
	v := decode[map[string]any](t, res)
	if meta, ok := v["_meta"].(map[string]any); ok {
		info, _ := meta["io.modelcontextprotocol/serverInfo"].(map[string]any)
		if info["name"] != "toolsearch" {
			t.Errorf("_meta serverInfo = %v", meta["io.modelcontextprotocol/serverInfo"])
		}
		meta["io.modelcontextprotocol/serverInfo"] = "…"
	}
	return v
}

// TestSkillsEraFields checks that resultType, ttlMs and cacheScope come
// exactly with requests of protocol 2026-07-28.
func TestSkillsEraFields(t *testing.T) {
	calls := []struct {
		method string
		params map[string]any
	}{
		{"skills/list", map[string]any{}},
		{"skills/get", map[string]any{"uri": "skill://git-bisect/SKILL.md"}},
		{"resources/directory/read", map[string]any{"uri": "skill://git-bisect"}},
		{"resources/read", map[string]any{"uri": "skill://git-bisect/SKILL.md"}},
	}
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			r := startRaw(t, era, wireSkills)
			for _, c := range calls {
				res := decode[map[string]any](t, r.mustCall(c.method, c.params))
				for _, field := range []string{"resultType", "ttlMs", "cacheScope"} {
					if _, has := res[field]; has != (era == "modern") {
						t.Errorf("%s: has %s = %v on a %s request", c.method, field, has, era)
					}
				}
				if era == "modern" && (res["resultType"] != "complete" || res["cacheScope"] != "public") {
					t.Errorf("%s: resultType %v, cacheScope %v", c.method, res["resultType"], res["cacheScope"])
				}
			}
		})
	}
}

// TestSkillsCapabilities checks the declaration in initialize (2025-11-25)
// and server/discover (2026-07-28).
func TestSkillsCapabilities(t *testing.T) {
	type caps struct {
		Capabilities struct {
			Extensions map[string]map[string]any `json:"extensions"`
			Resources  map[string]any            `json:"resources"`
			Prompts    map[string]any            `json:"prompts"`
		} `json:"capabilities"`
	}
	check := func(t *testing.T, res json.RawMessage, skills bool) {
		c := decode[caps](t, res).Capabilities
		if !skills {
			// Nothing to serve: hosts would add resource tools for nothing.
			if c.Extensions[skillsExt] != nil || c.Resources != nil || c.Prompts != nil {
				t.Errorf("without skills: extensions = %v, resources = %v, prompts = %v", c.Extensions, c.Resources, c.Prompts)
			}
			return
		}
		if ext, ok := c.Extensions[skillsExt]; !ok || len(ext) != 1 || ext["directoryRead"] != true {
			t.Errorf("extensions = %v, want %s: {directoryRead: true}", c.Extensions, skillsExt)
		}
		if c.Resources == nil || c.Prompts == nil {
			t.Errorf("resources = %v, prompts = %v: both must be declared", c.Resources, c.Prompts)
		}
	}
	for _, skills := range []bool{true, false} {
		root := wireSkills
		if !skills {
			root = t.TempDir()
		}
		t.Run(fmt.Sprintf("legacy/skills=%v", skills), func(t *testing.T) {
			check(t, startServe(t, root).initialize(), skills)
		})
		t.Run(fmt.Sprintf("modern/skills=%v", skills), func(t *testing.T) {
			check(t, startRaw(t, "modern", root).mustCall("server/discover", nil), skills)
		})
	}
}

// TestSkillsManifestMatchesBytes reads every file of every listed skill,
// the shipped ones included, and checks digests and sizes against the bytes
// served and the files on disk.
func TestSkillsManifestMatchesBytes(t *testing.T) {
	for _, root := range []string{wireSkills, "../../skills"} {
		t.Run(filepath.Base(root), func(t *testing.T) {
			r := startRaw(t, "legacy", root)
			entries := listAll(t, r)
			if len(entries) == 0 {
				t.Fatal("no skills listed")
			}
			for _, e := range entries {
				// The skill's path, which is its folder below the root: "pdf-forms",
				// or "pdf-forms/templates/invoice-form" for a nested skill.
				skillPath := strings.TrimSuffix(strings.TrimPrefix(e.URI, "skill://"), "/SKILL.md")
				var disk []string
				filepath.WalkDir(filepath.Join(root, skillPath), func(p string, d fs.DirEntry, err error) error {
					switch {
					case err != nil:
						return err
					case d.IsDir() && d.Name() == "__pycache__":
						return fs.SkipDir // tooling debris, which the loader skips too
					case !d.IsDir() && d.Name() != ".DS_Store":
						disk = append(disk, p)
					}
					return nil
				})
				if len(e.Resources) != len(disk) {
					t.Errorf("%s: manifest has %d files, the folder %d", e.URI, len(e.Resources), len(disk))
				}
				for _, f := range e.Resources {
					served := r.readBytes(f.URI)
					sum := sha256.Sum256(served)
					if got := "sha256:" + hex.EncodeToString(sum[:]); got != f.Digest || int64(len(served)) != f.Size {
						t.Errorf("%s: served %d bytes hashing to %s, manifest says %d and %s", f.URI, len(served), got, f.Size, f.Digest)
					}
					rel, _ := url.PathUnescape(strings.TrimPrefix(f.URI, "skill://"+skillPath+"/"))
					onDisk, err := os.ReadFile(filepath.Join(root, skillPath, filepath.FromSlash(rel)))
					if err != nil || !bytes.Equal(onDisk, served) {
						t.Errorf("%s: served bytes differ from %s (%v)", f.URI, rel, err)
					}
				}
			}
		})
	}
}

// listAll pages through skills/list.
func listAll(t *testing.T, r *rawSession) []wireEntry {
	t.Helper()
	var all []wireEntry
	params := map[string]any{}
	for page := 0; ; page++ {
		res := decode[struct {
			Skills     []wireEntry `json:"skills"`
			NextCursor *string     `json:"nextCursor"`
		}](t, r.mustCall("skills/list", params))
		all = append(all, res.Skills...)
		if res.NextCursor == nil {
			return all
		}
		if page > 64 {
			t.Fatal("skills/list does not converge")
		}
		params = map[string]any{"cursor": *res.NextCursor}
	}
}

// TestSkillsPaging lists more skills than fit one page.
func TestSkillsPaging(t *testing.T) {
	root := t.TempDir()
	const n = 120
	for i := range n {
		name := fmt.Sprintf("skill-%03d", i)
		writeFile(t, root, name+"/SKILL.md", fmt.Sprintf("---\nname: %s\ndescription: Test skill %d. Use when testing paging.\n---\nBody %d.\n", name, i, i))
		writeFile(t, root, name+"/references/notes.md", "Notes.\n")
	}
	r := startRaw(t, "modern", root)
	var sizes []int
	seen := map[string]bool{}
	params := map[string]any{}
	for {
		res := decode[struct {
			Skills     []wireEntry `json:"skills"`
			NextCursor string      `json:"nextCursor"`
		}](t, r.mustCall("skills/list", params))
		sizes = append(sizes, len(res.Skills))
		for _, e := range res.Skills {
			if seen[e.URI] || len(e.Resources) != 2 {
				t.Errorf("%s: listed again or split (%d files)", e.URI, len(e.Resources))
			}
			seen[e.URI] = true
		}
		if res.NextCursor == "" {
			break
		}
		params = map[string]any{"cursor": res.NextCursor}
	}
	if fmt.Sprint(sizes) != "[50 50 20]" || len(seen) != n {
		t.Errorf("pages of %v, %d skills in all; want [50 50 20], %d", sizes, len(seen), n)
	}
}

// TestSkillsFollowEdits edits, adds and removes files while a client is
// connected: every change is announced with resources list_changed, and
// the manifest and the bytes served agree after it.
func TestSkillsFollowEdits(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(wireSkills)); err != nil {
		t.Fatal(err)
	}
	r := startRaw(t, "legacy", root)
	get := func() wireEntry {
		return decode[struct {
			Skill wireEntry `json:"skill"`
		}](t, r.mustCall("skills/get", map[string]any{"uri": "skill://pdf-forms/SKILL.md"})).Skill
	}
	digestOf := func(e wireEntry, uri string) string {
		for _, f := range e.Resources {
			if f.URI == uri {
				return f.Digest
			}
		}
		return ""
	}
	checkConsistent := func(e wireEntry) {
		t.Helper()
		for _, f := range e.Resources {
			sum := sha256.Sum256(r.readBytes(f.URI))
			if "sha256:"+hex.EncodeToString(sum[:]) != f.Digest {
				t.Errorf("%s: bytes served do not match the manifest digest %s", f.URI, f.Digest)
			}
		}
	}
	// change makes an edit and waits until the server announces it.
	change := func(what string, edit func()) {
		t.Helper()
		r.notes = nil
		edit()
		if !r.waitNote("notifications/resources/list_changed", 10*time.Second) {
			t.Fatalf("%s: no notifications/resources/list_changed", what)
		}
	}

	const fields = "skill://pdf-forms/references/fields.md"
	before := digestOf(get(), fields)
	change("edit", func() {
		writeFile(t, root, "pdf-forms/references/fields.md", "# Field types\n\nText, checkbox, radio, signature.\n")
	})
	after := get()
	want := sha256.Sum256([]byte("# Field types\n\nText, checkbox, radio, signature.\n"))
	if got := digestOf(after, fields); got == before || got != "sha256:"+hex.EncodeToString(want[:]) {
		t.Errorf("after the edit %s has digest %s (before: %s)", fields, got, before)
	}
	checkConsistent(after)

	const added = "skill://pdf-forms/references/deep/radio.md"
	change("add", func() { writeFile(t, root, "pdf-forms/references/deep/radio.md", "# Radio buttons\n") })
	if digestOf(get(), added) == "" {
		t.Errorf("%s is not in the manifest after it was added", added)
	}
	checkConsistent(get())

	change("remove", func() {
		if err := os.Remove(filepath.Join(root, "pdf-forms", "references", "deep", "radio.md")); err != nil {
			t.Fatal(err)
		}
	})
	if digestOf(get(), added) != "" {
		t.Errorf("%s is still in the manifest after it was removed", added)
	}
	if _, rpcErr := r.call("resources/read", map[string]any{"uri": added}); rpcErr == nil || rpcErr.Code != -32602 {
		t.Errorf("reading a removed file: %+v, want error -32602", rpcErr)
	}

	// A skill that comes to break a rule is withdrawn, prompt included.
	change("break", func() {
		writeFile(t, root, "git-bisect/SKILL.md", "---\nname: git-bisect\ndescription: Find a bad commit.\nversion: 2\n---\n# Bisect\n")
	})
	if !r.waitNote("notifications/prompts/list_changed", 10*time.Second) {
		t.Error("no notifications/prompts/list_changed when a skill was withdrawn")
	}
	if _, rpcErr := r.call("skills/get", map[string]any{"uri": "skill://git-bisect/SKILL.md"}); rpcErr == nil || rpcErr.Code != -32602 {
		t.Errorf("skills/get of a withdrawn skill: %+v, want error -32602", rpcErr)
	}
	for _, e := range listAll(t, r) {
		if e.URI == "skill://git-bisect/SKILL.md" {
			t.Error("a skill that breaks a rule is listed")
		}
	}
}

// TestSkillsPrompts checks that each served skill is a prompt carrying its
// instructions.
func TestSkillsPrompts(t *testing.T) {
	r := startRaw(t, "legacy", wireSkills)
	list := decode[struct {
		Prompts []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"prompts"`
	}](t, r.mustCall("prompts/list", nil))
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ","); got != "git-bisect,invoice-form,pdf-forms" {
		t.Errorf("prompts = %s, want git-bisect,invoice-form,pdf-forms", got)
	}
	got := decode[struct {
		Messages []struct {
			Role    string `json:"role"`
			Content struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}](t, r.mustCall("prompts/get", map[string]any{"name": "git-bisect"}))
	if len(got.Messages) != 1 || got.Messages[0].Role != "user" || !strings.HasPrefix(got.Messages[0].Content.Text, "# Bisect\n\nRun git bisect start") {
		t.Errorf("prompts/get git-bisect = %+v", got.Messages)
	}
}
