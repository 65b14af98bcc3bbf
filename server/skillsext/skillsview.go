package skillsext

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/skill"
)

// skillMetaPrefix is the _meta key prefix the Skills extension reserves for
// skill resources; the SKILL.md resource carries the frontmatter fields
// beyond name and description under it.
const skillMetaPrefix = "io.modelcontextprotocol.skills/"

// A skillView is what one MCP server says about skills, all derived from
// one catalog snapshot: the listing entries, the files behind them and the
// folders holding those files. It is immutable.
type skillView struct {
	snap   *catalog.Snapshot       // nil for the empty view a connection starts with
	skills []*servedSkill          // sorted by URI, the order of skills/list
	byURI  map[string]*servedSkill // by the URI of the skill's SKILL.md
	byName map[string]*servedSkill
	files  map[string]servedFile      // by file URI
	dirs   map[string][]*mcp.Resource // folder URI -> its direct children, sorted by URI
	// withheld holds the skills in the snapshot that are not served, with
	// the reason.
	withheld map[string]string
}

// A servedSkill is a valid skill with its wire entry rendered once.
type servedSkill struct {
	*skill.Skill
	uri     string          // of its SKILL.md
	entry   json.RawMessage // its skills/list and skills/get entry
	skillMD *skill.File
}

// A servedFile is one file of a served skill.
type servedFile struct {
	file     *skill.File
	resource *mcp.Resource
}

// skillEntry is the Skill entry of skills/list and skills/get.
type skillEntry struct {
	URI         string          `json:"uri"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Resources   []manifestEntry `json:"resources"`
}

// manifestEntry is one file of a skill entry's manifest.
type manifestEntry struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

func emptySkillView() *skillView {
	return &skillView{
		byURI:    map[string]*servedSkill{},
		byName:   map[string]*servedSkill{},
		files:    map[string]servedFile{},
		dirs:     map[string][]*mcp.Resource{},
		withheld: map[string]string{},
	}
}

// newSkillView derives the view of a snapshot. Only skills valid by the
// Agent Skills rules are served: the extension requires them to be, and
// hosts refuse the others anyway.
func newSkillView(snap *catalog.Snapshot) *skillView {
	v := emptySkillView()
	v.snap = snap
	var skills []*skill.Skill
	for _, e := range snap.Entries {
		if e.Kind == catalog.KindSkill && e.Skill != nil && e.Listed() {
			skills = append(skills, e.Skill)
		}
	}
	// Enclosing skills before the skills nested in them, so that a nested
	// skill's folder is already linked into the enclosing skill's tree.
	slices.SortFunc(skills, func(a, b *skill.Skill) int { return strings.Compare(skillPath(a), skillPath(b)) })
	for _, sk := range skills {
		if err := v.add(sk); err != nil {
			v.withheld[sk.Name] = err.Error()
		}
	}
	slices.SortFunc(v.skills, func(a, b *servedSkill) int { return strings.Compare(a.uri, b.uri) })
	for _, children := range v.dirs {
		slices.SortFunc(children, func(a, b *mcp.Resource) int { return strings.Compare(a.URI, b.URI) })
	}
	return v
}

// add serves sk if it can be served.
func (v *skillView) add(sk *skill.Skill) error {
	if err := checkServable(sk); err != nil {
		return err
	}
	root := "skill://" + escapePath(skillPath(sk))
	served := &servedSkill{Skill: sk, uri: root + "/" + skill.FileName}
	entry := skillEntry{URI: served.uri, Frontmatter: sk.Frontmatter, Resources: make([]manifestEntry, len(sk.Files))}
	files := map[string]servedFile{}
	for i := range sk.Files {
		f := &sk.Files[i]
		uri := root + "/" + escapePath(f.Path)
		entry.Resources[i] = manifestEntry{URI: uri, Digest: "sha256:" + f.SHA256, Size: f.Size}
		files[uri] = servedFile{file: f, resource: fileResource(sk, f, uri)}
		if f.Path == skill.FileName {
			served.skillMD = f
		}
	}
	if served.skillMD == nil {
		return errors.New("it has no SKILL.md file") // the loader never lets this happen
	}
	var err error
	if served.entry, err = json.Marshal(entry); err != nil {
		return fmt.Errorf("its frontmatter has no JSON form: %v", err)
	}

	v.skills = append(v.skills, served)
	v.byURI[served.uri] = served
	v.byName[sk.Name] = served
	for uri, f := range files {
		v.files[uri] = f
		v.link(root, f.file.Path, f.resource)
	}
	for _, dir := range sk.EmptyDirs {
		uri := root + "/" + escapePath(dir)
		if _, known := v.dirs[uri]; !known { // linked already as the parent of another
			v.dirs[uri] = []*mcp.Resource{}
			v.link(root, dir, &mcp.Resource{URI: uri, Name: path.Base(dir), MIMEType: "inode/directory"})
		}
	}
	return nil
}

// link lists child, the resource at the slash-separated path rel of the
// skill at root, in its folder, and each new folder on the way in its own
// parent, up to the skill's root folder. A nested skill's files are linked
// by the enclosing skill first; linking them again puts the nested skill's
// own resource (its SKILL.md carries its name) in place of the other.
func (v *skillView) link(root, rel string, child *mcp.Resource) {
	for dir := path.Dir(rel); ; dir = path.Dir(dir) {
		uri := root
		if dir != "." {
			uri += "/" + escapePath(dir)
		}
		children, known := v.dirs[uri]
		if i := slices.IndexFunc(children, func(r *mcp.Resource) bool { return r.URI == child.URI }); i >= 0 {
			children[i] = child
		} else {
			v.dirs[uri] = append(children, child)
		}
		if known || dir == "." {
			return
		}
		child = &mcp.Resource{URI: uri, Name: path.Base(dir), MIMEType: "inode/directory"}
	}
}

// skillPath is where a skill is served: skill://<path>/SKILL.md.
func skillPath(sk *skill.Skill) string {
	if sk.Path != "" {
		return sk.Path
	}
	return sk.Name
}

// checkServable reports why a loaded skill cannot be served through the
// extension: it breaks an Agent Skills rule, or its frontmatter does not
// carry name and description as the strings the wire entry needs (the
// loader accepts `name: 123`, for instance, which hosts read as a number).
func checkServable(sk *skill.Skill) error {
	if !sk.Valid() {
		for _, p := range sk.Problems {
			if p.Severity >= problem.SeverityWarning {
				return fmt.Errorf("it breaks an Agent Skills rule: %s", p.Message)
			}
		}
		return errors.New("it breaks an Agent Skills rule")
	}
	if name, _ := sk.Frontmatter["name"].(string); name != sk.Name {
		return errors.New("its frontmatter name is not the string " + sk.Name)
	}
	if desc, _ := sk.Frontmatter["description"].(string); desc == "" {
		return errors.New("its frontmatter description is not a string")
	}
	return nil
}

// fileResource is the resource metadata of a skill file. The SKILL.md
// resource takes its name and description from the frontmatter, as the
// extension asks, and carries the other frontmatter fields in _meta.
func fileResource(sk *skill.Skill, f *skill.File, uri string) *mcp.Resource {
	r := &mcp.Resource{URI: uri, Name: path.Base(f.Path), MIMEType: mimeType(f), Size: f.Size}
	if f.Path != skill.FileName {
		return r
	}
	r.Name, r.Description, r.MIMEType = sk.Name, sk.Description, "text/markdown"
	for k, val := range sk.Frontmatter {
		if k == "name" || k == "description" {
			continue
		}
		if r.Meta == nil {
			r.Meta = mcp.Meta{}
		}
		r.Meta[skillMetaPrefix+k] = val
	}
	return r
}

// mimeTypes covers the files skills usually hold. A table of our own rather
// than package mime keeps the answers the same on every machine.
var mimeTypes = map[string]string{
	".md":       "text/markdown",
	".markdown": "text/markdown",
	".txt":      "text/plain",
	".py":       "text/x-python",
	".sh":       "text/x-shellscript",
	".js":       "text/javascript",
	".mjs":      "text/javascript",
	".ts":       "text/x-typescript",
	".html":     "text/html",
	".css":      "text/css",
	".csv":      "text/csv",
	".tsv":      "text/tab-separated-values",
	".json":     "application/json",
	".yaml":     "application/yaml",
	".yml":      "application/yaml",
	".toml":     "application/toml",
	".xml":      "application/xml",
	".pdf":      "application/pdf",
	".zip":      "application/zip",
	".png":      "image/png",
	".jpg":      "image/jpeg",
	".jpeg":     "image/jpeg",
	".gif":      "image/gif",
	".webp":     "image/webp",
	".svg":      "image/svg+xml",
}

func mimeType(f *skill.File) string {
	if t, ok := mimeTypes[strings.ToLower(path.Ext(f.Path))]; ok {
		return t
	}
	if f.Binary() {
		return "application/octet-stream"
	}
	return "text/plain"
}

// contents is how a file travels in resources/read: exactly its snapshot
// bytes, as text when they are text and base64 otherwise, since a JSON
// string cannot carry invalid UTF-8. An empty file goes as an empty blob
// because the SDK omits empty text, and a result with neither is invalid.
func (f servedFile) contents(uri string) *mcp.ResourceContents {
	c := &mcp.ResourceContents{URI: uri, MIMEType: f.resource.MIMEType}
	if len(f.file.Data) > 0 && !f.file.Binary() {
		c.Text = string(f.file.Data)
	} else {
		c.Blob = append([]byte{}, f.file.Data...) // never nil, so that "blob" is sent even when empty
	}
	return c
}

// escapePath percent-encodes each segment of a slash-separated path. The
// result parses with net/url (AddResource refuses what does not) and is left
// as it is by WHATWG URL normalization, which clients such as the Inspector
// apply before matching URIs.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
