// Package skillsext serves skills through the MCP Skills extension
// (SEP-2640, io.modelcontextprotocol/skills): every valid skill of the
// catalog is listed by skills/list and skills/get, its files are skill://
// resources and its folders answer resources/directory/read. Each skill is
// also a prompt named after it. The contract:
// https://github.com/modelcontextprotocol/ext-skills/blob/main/specification/stable/skills.mdx
//
// It depends on the loader's snapshots and the go-sdk alone: when the go-sdk
// gains a skills package of its own, this is the one package to swap.
//
// # Use
//
// Declare the extension in the capabilities of an MCP server, then attach a
// Conn to it and sync the Conn whenever the catalog changes:
//
//	ms := mcp.NewServer(impl, &mcp.ServerOptions{Capabilities: skillsext.Declare(&mcp.ServerCapabilities{})})
//	c := skillsext.NewConn()
//	c.Attach(ms, catalog.Snapshot(), log)
//	catalog.Subscribe(func(_, snap *catalog.Snapshot) { c.Sync(ms, snap, log) })
package skillsext

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/internal/protocol"
)

// Name names the MCP Skills extension in capabilities.
const Name = "io.modelcontextprotocol/skills"

const (
	// skillsTTL is how long hosts may keep skills/list, skills/get and
	// directory results. The extension has no skills-changed notification,
	// so hosts notice edits when it runs out: short, because authors edit
	// skills while the server runs.
	skillsTTL = time.Minute

	// A skills/list page holds at most skillsPerPage skills, and at most
	// filesPerPage manifest entries unless one skill alone has more: a
	// skill's entry is never split.
	skillsPerPage = 50
	filesPerPage  = 2000
)

// Declare adds to caps what serving skills takes: the extension with
// directory reads and the resources capability it depends on. Prompts are
// declared up front too, so that clients heed prompts list_changed even
// when there was no skill at connection time.
func Declare(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	caps.AddExtension(Name, map[string]any{"directoryRead": true})
	caps.Resources = &mcp.ResourceCapabilities{ListChanged: true}
	caps.Prompts = &mcp.PromptCapabilities{ListChanged: true}
	return caps
}

// Attach serves the skills of snap through the MCP Skills extension on ms;
// Sync keeps it in step with the catalog afterwards.
func (c *Conn) Attach(ms *mcp.Server, snap *catalog.Snapshot, log *slog.Logger) {
	c.sync(ms, snap, log)
	err := errors.Join(
		mcp.AddReceivingCustomMethod(ms, "skills/list", c.listSkills),
		mcp.AddReceivingCustomMethod(ms, "skills/get", c.getSkill),
		mcp.AddReceivingCustomMethod(ms, "resources/directory/read", c.readDirectory),
	)
	if err != nil {
		// A go-sdk that defines these methods itself refuses ours: move to
		// its own skills support (go-sdk PR #1238).
		log.Error("serving the MCP Skills extension", "err", err)
	}
	ms.AddReceivingMiddleware(legacySkillReads)
}

// Conn is the skills side of one MCP server: the view it publishes.
type Conn struct {
	mu   sync.Mutex // serializes sync
	view atomic.Pointer[skillView]
}

// NewConn returns a Conn that publishes no skill until its first sync.
func NewConn() *Conn {
	c := new(Conn)
	c.view.Store(emptySkillView())
	return c
}

// features is what sync needs of an *mcp.Server.
type features interface {
	AddResource(*mcp.Resource, mcp.ResourceHandler)
	RemoveResources(uris ...string)
	AddPrompt(*mcp.Prompt, mcp.PromptHandler)
	RemovePrompts(names ...string)
}

// Sync moves the connection to the view of snap; see sync.
func (c *Conn) Sync(ms *mcp.Server, snap *catalog.Snapshot, log *slog.Logger) {
	c.sync(ms, snap, log)
}

// sync moves the connection to the view of snap, unless it already
// publishes that snapshot or a later one. Changed and new files and prompts
// are registered before the new view is published, and vanished ones
// removed after, so that every digest a view advertises can be read from
// this MCP server, with the bytes it covers. Registering and removing make
// the SDK send resources and prompts list_changed.
func (c *Conn) sync(ms features, snap *catalog.Snapshot, log *slog.Logger) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.view.Load()
	if old.snap != nil && snap.Version <= old.snap.Version {
		return
	}
	next := newSkillView(snap)
	for name, reason := range next.withheld {
		if _, known := old.withheld[name]; !known {
			log.Warn("skill not served through the MCP Skills extension", "skill", name, "reason", reason)
		}
	}

	for uri, f := range next.files {
		if prev, ok := old.files[uri]; !ok || prev.file.SHA256 != f.file.SHA256 {
			ms.AddResource(f.resource, c.readFile)
		}
	}
	for name, sk := range next.byName {
		// A prompt is made of SKILL.md alone.
		if prev, ok := old.byName[name]; !ok || prev.skillMD.SHA256 != sk.skillMD.SHA256 {
			ms.AddPrompt(&mcp.Prompt{Name: name, Description: sk.Description}, c.getPrompt)
		}
	}
	c.view.Store(next)

	var goneFiles, gonePrompts []string
	for uri := range old.files {
		if _, ok := next.files[uri]; !ok {
			goneFiles = append(goneFiles, uri)
		}
	}
	for name := range old.byName {
		if _, ok := next.byName[name]; !ok {
			gonePrompts = append(gonePrompts, name)
		}
	}
	if len(goneFiles) > 0 {
		ms.RemoveResources(goneFiles...)
	}
	if len(gonePrompts) > 0 {
		ms.RemovePrompts(gonePrompts...)
	}
}

type listSkillsParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type listSkillsResult struct {
	mcp.ResultBase
	modernFields
	Skills     []json.RawMessage `json:"skills"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

type getSkillParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

type getSkillResult struct {
	mcp.ResultBase
	modernFields
	Skill json.RawMessage `json:"skill"`
}

type readDirectoryParams struct {
	mcp.ParamsBase
	URI    string `json:"uri"`
	Cursor string `json:"cursor,omitempty"`
}

type readDirectoryResult struct {
	mcp.ResultBase
	modernFields
	Resources  []*mcp.Resource `json:"resources"`
	NextCursor string          `json:"nextCursor,omitempty"`
}

// modernFields are what results of protocol 2026-07-28 and later carry and
// earlier ones do not. The SDK sets them only on its own results.
type modernFields struct {
	ResultType string `json:"resultType,omitempty"`
	*mcp.Cacheable
}

// fieldsFor returns the modernFields of a result to a request with the
// given session and params _meta.
func fieldsFor(ss *mcp.ServerSession, meta mcp.Meta) modernFields {
	if !protocol.IsModern(ss, meta) {
		return modernFields{}
	}
	return modernFields{ResultType: "complete", Cacheable: &mcp.Cacheable{TTLMs: int(skillsTTL.Milliseconds()), CacheScope: "public"}}
}

func (c *Conn) listSkills(_ context.Context, ss *mcp.ServerSession, p *listSkillsParams) (*listSkillsResult, error) {
	if p == nil {
		p = &listSkillsParams{} // params are optional
	}
	rest := c.view.Load().skills
	if p.Cursor != "" {
		// The cursor is the URI of the last skill of the previous page, so
		// a cursor from an older view still continues in order.
		after, err := base64.RawURLEncoding.DecodeString(p.Cursor)
		if err != nil || !strings.HasPrefix(string(after), "skill://") {
			return nil, invalidParams("invalid cursor %q: pass back a nextCursor of skills/list", p.Cursor)
		}
		i, found := slices.BinarySearchFunc(rest, string(after), func(sk *servedSkill, uri string) int { return strings.Compare(sk.uri, uri) })
		if found {
			i++
		}
		rest = rest[i:]
	}
	res := &listSkillsResult{modernFields: fieldsFor(ss, p.Meta), Skills: []json.RawMessage{}}
	files := 0
	for i, sk := range rest {
		if i == skillsPerPage || (i > 0 && files+len(sk.Files) > filesPerPage) {
			res.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(rest[i-1].uri))
			break
		}
		res.Skills = append(res.Skills, sk.entry)
		files += len(sk.Files)
	}
	return res, nil
}

func (c *Conn) getSkill(_ context.Context, ss *mcp.ServerSession, p *getSkillParams) (*getSkillResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("skills/get needs the uri of a skill's SKILL.md")
	}
	sk, ok := c.view.Load().byURI[p.URI]
	if !ok {
		return nil, invalidParams("%s is not a skill served here", p.URI)
	}
	return &getSkillResult{modernFields: fieldsFor(ss, p.Meta), Skill: sk.entry}, nil
}

func (c *Conn) readDirectory(_ context.Context, ss *mcp.ServerSession, p *readDirectoryParams) (*readDirectoryResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("resources/directory/read needs the uri of a directory")
	}
	children, ok := c.view.Load().dirs[p.URI]
	if !ok {
		return nil, invalidParams("%s is not a directory resource", p.URI)
	}
	if p.Cursor != "" {
		// A skill has at most 512 files, so a folder always fits one page
		// and no cursor is ever handed out.
		return nil, invalidParams("invalid cursor %q: directories are read in one page", p.Cursor)
	}
	return &readDirectoryResult{modernFields: fieldsFor(ss, p.Meta), Resources: children}, nil
}

// readFile serves a skill file from the published view, so that its bytes
// always match the digest skills/list and skills/get advertise right then.
func (c *Conn) readFile(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	f, ok := c.view.Load().files[uri]
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	// ttlMs stays 0 on 2026-07-28: the bytes behind a URI change when the
	// author edits the file, and hosts cache skill files by digest anyway.
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{f.contents(uri)}}, nil
}

// getPrompt offers a skill as a prompt: its instructions, the SKILL.md body.
func (c *Conn) getPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	sk, ok := c.view.Load().byName[req.Params.Name]
	if !ok {
		return nil, invalidParams("unknown prompt %q", req.Params.Name)
	}
	return &mcp.GetPromptResult{
		Description: sk.Description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: sk.Body}}},
	}, nil
}

// legacySkillReads drops ttlMs and cacheScope, which the SDK puts on every
// resources/read result, from reads of skill files by clients of protocols
// before 2026-07-28, which do not define them.
func legacySkillReads(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		read, ok := res.(*mcp.ReadResourceResult)
		if err != nil || !ok || method != "resources/read" {
			return res, err
		}
		p, _ := req.GetParams().(*mcp.ReadResourceParams)
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if p == nil || !strings.HasPrefix(p.URI, "skill://") || protocol.IsModern(ss, p.Meta) {
			return res, err
		}
		return &legacyReadResult{ResultBase: mcp.ResultBase{Meta: read.Meta}, Contents: read.Contents}, nil
	}
}

type legacyReadResult struct {
	mcp.ResultBase
	Contents []*mcp.ResourceContents `json:"contents"`
}

// invalidParams is the JSON-RPC error for a request naming something that
// is not served here, -32602 as the extension specifies.
func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}
