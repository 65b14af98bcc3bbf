package skill

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/adrg/frontmatter"
	"github.com/toolsearch/toolsearch/internal/contain"
	"github.com/toolsearch/toolsearch/loader/problem"
	"gopkg.in/yaml.v3"
)

// Limits from the Agent Skills guidance and the MCP Skills extension.
const (
	MaxFileSize        = 1 << 20  // SKILL.md itself
	MaxFiles           = 512      // files in one skill, SKILL.md included
	MaxBytes           = 16 << 20 // all files of one skill together
	MaxNameLen         = 64
	MaxDescriptionLen  = 1024
	MaxCompatibility   = 500
	recommendedMaxBody = 500 // lines
)

// FileName is the file that makes a folder a skill.
const FileName = "SKILL.md"

var (
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// specKeys are the only top-level frontmatter keys the specification
	// defines; anything else loads with a warning.
	specKeys = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
)

// A Skill is one parsed SKILL.md folder, with a snapshot of every file's
// bytes, so that what is hashed, listed and served always agrees even while
// the author keeps editing.
type Skill struct {
	Name        string
	Description string
	Dir         string // absolute path of the skill folder
	Root        string // the skill root it was found in

	// Frontmatter is the YAML frontmatter as written, decoded to plain
	// values (maps, lists, strings, numbers, booleans), for serving verbatim.
	Frontmatter map[string]any
	// FrontmatterYAML is the raw text between the --- lines.
	FrontmatterYAML []byte
	Body            string // the Markdown after the frontmatter
	Files           []File // sorted by path; SKILL.md included
	// EmptyDirs are the folders inside the skill folder that hold no file,
	// slash-separated and sorted. The others show in the files' paths; these
	// are kept so that they can be served as (empty) directories too.
	EmptyDirs []string
	Problems  problem.Problems

	// Path is where the skill sits among the skills served: its name for a
	// skill of its own folder, the enclosing skill's path and the folders
	// down to it for a nested one ("forms/templates/invoice"). The last
	// segment is always the name.
	Path string
	// Nested are the skills in folders of this one that have a SKILL.md of
	// their own, at any depth. Their files are this skill's files as well;
	// they are loaded, listed and searched as skills in their own right.
	Nested []*Skill
}

// File is one file of a skill.
type File struct {
	Path   string `json:"path"` // slash-separated, relative to the skill folder
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"` // lowercase hex
	Data   []byte `json:"-"`
}

// Binary reports whether the file's bytes are not text: they hold a NUL
// byte or are not valid UTF-8. Such a file cannot be shown as text, nor
// travel as a JSON string.
func (f *File) Binary() bool {
	return bytes.IndexByte(f.Data, 0) >= 0 || !utf8.Valid(f.Data)
}

// Valid reports whether the skill follows every rule of the Agent Skills
// specification (hints aside), which is what strict validation and the MCP
// Skills extension require.
func (s *Skill) Valid() bool { return s.Problems.Worst() < problem.SeverityWarning }

// File returns the file at the given slash-separated relative path.
func (s *Skill) File(rel string) (*File, bool) {
	i, ok := slices.BinarySearchFunc(s.Files, rel, func(f File, p string) int { return strings.Compare(f.Path, p) })
	if !ok {
		return nil, false
	}
	return &s.Files[i], true
}

// Digest summarizes the whole skill: it changes whenever any file does.
func (s *Skill) Digest() string {
	h := sha256.New()
	for _, f := range s.Files {
		fmt.Fprintf(h, "%s\x00%s\x00", f.Path, f.SHA256)
	}
	for _, d := range s.EmptyDirs {
		fmt.Fprintf(h, "%s/\x00", d)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Load reads and checks the skill in dir. It returns a nil skill when
// the problems include an error that keeps it out of the catalog; problems
// of lower severity come back with a usable skill.
func Load(dir string) (*Skill, problem.Problems) {
	file := filepath.Join(dir, FileName)
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, problem.Problems{{File: file, Severity: problem.SeverityError, Message: err.Error()}}
	}
	files, dirs, probs := snapshotFiles(abs, file)
	if probs.Worst() == problem.SeverityError {
		return nil, probs
	}
	var raw []byte
	for _, f := range files {
		if f.Path == FileName {
			raw = f.Data
		}
	}
	if raw == nil {
		// A skill.md where the file system ignores case opens as SKILL.md,
		// and the folder is asked to load; its listing says what it holds.
		for _, f := range files {
			if !strings.Contains(f.Path, "/") && strings.EqualFold(f.Path, FileName) {
				p := misnamedSkillFile(filepath.Join(dir, f.Path))
				p.Severity = problem.SeverityError
				return nil, append(probs, p)
			}
		}
		return nil, append(probs, problem.Problem{File: file, Severity: problem.SeverityError, Message: "SKILL.md is missing or not a regular file"})
	}
	s, more := Parse(file, filepath.Base(abs), raw)
	probs = append(probs, more...)
	if s == nil {
		return nil, probs
	}
	s.Dir = abs
	s.Files = files
	s.EmptyDirs = emptyDirs(dirs, files)
	s.Path = s.Name
	s.Problems = probs
	var nestedProbs problem.Problems
	s.Nested, nestedProbs = s.nestedSkills()
	return s, append(probs, nestedProbs...)
}

// PlaceUnder records the skill root the skill was found in, and makes the
// skill's path its folder's path below the root ("team/release-notes" for a
// skill in an organizational folder), its nested skills' paths following.
func (s *Skill) PlaceUnder(root string) {
	s.Root = root
	abs, err := filepath.Abs(root)
	if err != nil {
		return
	}
	rel, err := filepath.Rel(abs, s.Dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return
	}
	s.Path = filepath.ToSlash(rel)
	for _, n := range s.Nested {
		n.Root = root
		n.Path = nestedPath(s, n)
	}
}

// nestedPath is the path of n, a skill nested in s: s's path, then the
// folders from s's folder down to n's.
func nestedPath(s, n *Skill) string {
	sub, _ := filepath.Rel(s.Dir, n.Dir)
	return s.Path + "/" + filepath.ToSlash(sub)
}

// nestedSkills parses the SKILL.md files below the skill's own, each as the
// skill of its folder. A nested skill that cannot load is reported and left
// out; the enclosing skill loads all the same.
func (s *Skill) nestedSkills() ([]*Skill, problem.Problems) {
	var nested []*Skill
	var probs problem.Problems
	for _, f := range s.Files {
		sub, ok := strings.CutSuffix(f.Path, "/"+FileName)
		if !ok {
			continue
		}
		file := filepath.Join(s.Dir, filepath.FromSlash(f.Path))
		n, more := Parse(file, path.Base(sub), f.Data)
		probs = append(probs, more...)
		if n == nil {
			continue
		}
		n.Dir = filepath.Join(s.Dir, filepath.FromSlash(sub))
		n.Path = nestedPath(s, n)
		n.Problems = more
		for _, g := range s.Files {
			if rel, ok := strings.CutPrefix(g.Path, sub+"/"); ok {
				g.Path = rel
				n.Files = append(n.Files, g)
			}
		}
		for _, d := range s.EmptyDirs {
			if rel, ok := strings.CutPrefix(d, sub+"/"); ok {
				n.EmptyDirs = append(n.EmptyDirs, rel)
			}
		}
		nested = append(nested, n)
	}
	return nested, probs
}

// Parse parses the bytes of a SKILL.md whose folder is named folder and
// validates them by the Agent Skills rules. file is used in problem reports.
// Files, Dir and Root are left for the caller to fill. It reports every
// problem it finds; the skill is nil when one of them leaves it unusable.
func Parse(file, folder string, raw []byte) (*Skill, problem.Problems) {
	p := &skillParser{file: file, folder: folder}
	s := p.parse(raw)
	if p.failed {
		s = nil
	}
	return s, p.probs
}

// skillParser reads one SKILL.md: the file as a whole, its frontmatter, then
// one method per field, each checking its own rules. Like the .mcp.json
// entryDecoder, it collects every problem before it reports, so that an
// author fixes them all in one go; an error-level problem marks the skill
// unusable but the checks go on.
type skillParser struct {
	file, folder string
	fm           frontmatterBlock
	fields       map[string]*yaml.Node // frontmatter values by key
	keyLines     map[string]int        // file line of each key
	probs        problem.Problems
	failed       bool
}

func (p *skillParser) report(line int, field string, sev problem.Severity, format string, args ...any) {
	p.probs = append(p.probs, problem.Problem{File: p.file, Line: line, Field: field, Severity: sev, Message: fmt.Sprintf(format, args...)})
	if sev == problem.SeverityError {
		p.failed = true
	}
}

// parse checks the file, then its frontmatter and body field by field. It
// returns nil when the frontmatter cannot be read at all.
func (p *skillParser) parse(raw []byte) *Skill {
	if !p.wholeFile(raw) {
		return nil
	}
	fm, body, err := splitFrontmatter(raw)
	p.fm = fm
	if err != nil {
		line := fm.line
		var le *lineError
		if errors.As(err, &le) && le.line > 0 {
			line = le.line // where the YAML parser stopped, in the file
		}
		p.report(line, "", problem.SeverityError, "%v", err)
		return nil
	}
	if fm.fixedColons {
		p.report(fm.line, "", problem.SeverityWarning, "frontmatter is not valid YAML (an unquoted colon in a value?); loaded after quoting the values: quote them in the file")
	}
	if fm.node.Kind != yaml.MappingNode {
		p.report(fm.line, "", problem.SeverityError, "frontmatter must be a YAML mapping of keys to values")
		return nil
	}
	s := &Skill{FrontmatterYAML: fm.raw, Body: body}
	s.Frontmatter, _ = plainValue(fm.node).(map[string]any)
	p.keys()
	s.Name = p.name()
	s.Description = p.description()
	p.compatibility()
	p.str("license")
	p.metadata()
	p.allowedTools()
	p.body(body)
	return s
}

// wholeFile checks what concerns the file rather than a field: its size,
// encoding, byte order mark and line endings. It reports false when the
// file cannot be parsed.
func (p *skillParser) wholeFile(raw []byte) bool {
	if len(raw) > MaxFileSize {
		p.report(0, "", problem.SeverityError, "SKILL.md is %d bytes, over the 1 MiB limit", len(raw))
		return false
	}
	if !utf8.Valid(raw) {
		p.report(0, "", problem.SeverityError, "SKILL.md is not valid UTF-8")
		return false
	}
	if bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		p.report(1, "", problem.SeverityWarning, "SKILL.md starts with a UTF-8 byte order mark, which breaks hosts that need --- on line 1 (the MCP Inspector among them): save it without one")
	}
	if bytes.Contains(raw, []byte("\r\n")) {
		p.report(0, "", problem.SeverityHint, "SKILL.md has CRLF line endings, which some hosts mis-parse: prefer LF")
	}
	return true
}

// keys indexes the frontmatter's fields and reports the keys the
// specification does not define.
func (p *skillParser) keys() {
	root := p.fm.node
	p.fields, p.keyLines = map[string]*yaml.Node{}, map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		p.fields[k.Value] = v
		p.keyLines[k.Value] = k.Line + p.fm.lineOffset
		if !slices.Contains(specKeys, k.Value) {
			p.report(p.keyLines[k.Value], k.Value, problem.SeverityWarning, "unknown frontmatter key %q: the specification defines only %s; put custom fields under metadata", k.Value, strings.Join(specKeys, ", "))
		}
	}
}

// lineOf is the line of a key, or of the frontmatter when the key is absent.
func (p *skillParser) lineOf(key string) int {
	if l, ok := p.keyLines[key]; ok {
		return l
	}
	return p.fm.line
}

// str returns a field that must be a string, and whether it is one.
func (p *skillParser) str(key string) (string, bool) {
	n, ok := p.fields[key]
	if !ok {
		return "", false
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.report(p.lineOf(key), key, problem.SeverityWarning, "%s must be a string", key)
		return "", false
	}
	return n.Value, true
}

// name returns the skill's name. Lenient hosts fall back to the folder
// name when the field is missing or invalid, and so does this.
func (p *skillParser) name() string {
	line := p.lineOf("name")
	name, hasName := p.str("name")
	switch {
	case !hasName || name == "":
		p.report(line, "name", problem.SeverityWarning, "name is missing; using the folder name %q", p.folder)
		name = p.folder
	case !nameRE.MatchString(name) || utf8.RuneCountInString(name) > MaxNameLen:
		p.report(line, "name", problem.SeverityWarning, "name %q must be 1-%d characters of a-z, 0-9 and single inner hyphens", name, MaxNameLen)
		if !nameRE.MatchString(name) {
			name = p.folder
		}
	case name != p.folder:
		p.report(line, "name", problem.SeverityWarning, "name %q differs from its folder %q", name, p.folder)
	}
	if !nameRE.MatchString(name) || len(name) > 2*MaxNameLen {
		p.report(line, "name", problem.SeverityError, "no usable skill name: neither the name field nor the folder %q is a valid name", p.folder)
		return ""
	}
	for _, word := range []string{"anthropic", "claude"} {
		if strings.Contains(name, word) {
			p.report(line, "name", problem.SeverityHint, "name contains the reserved word %q, which claude.ai uploads reject", word)
		}
	}
	return name
}

// description returns the skill's description, which it cannot do without:
// it is what search ranks and what the listing shows.
func (p *skillParser) description() string {
	line := p.lineOf("description")
	desc, _ := p.str("description")
	switch {
	case strings.TrimSpace(desc) == "":
		p.report(line, "description", problem.SeverityError, "description is missing or empty: it says what the skill does and when to use it")
		return ""
	case utf8.RuneCountInString(desc) > MaxDescriptionLen:
		p.report(line, "description", problem.SeverityWarning, "description is %d characters, over the %d limit", utf8.RuneCountInString(desc), MaxDescriptionLen)
	}
	if strings.ContainsAny(desc, "<>") {
		p.report(line, "description", problem.SeverityHint, "description contains < or >, which some validators reject")
	}
	return desc
}

func (p *skillParser) compatibility() {
	if c, ok := p.str("compatibility"); ok {
		if n := utf8.RuneCountInString(c); n == 0 || n > MaxCompatibility {
			p.report(p.lineOf("compatibility"), "compatibility", problem.SeverityWarning, "compatibility must be 1-%d characters, got %d", MaxCompatibility, n)
		}
	}
}

// metadata checks that metadata maps strings to strings, outside the keys
// the MCP Skills extension reserves.
func (p *skillParser) metadata() {
	n, ok := p.fields["metadata"]
	if !ok {
		return
	}
	if n.Kind != yaml.MappingNode {
		p.report(p.lineOf("metadata"), "metadata", problem.SeverityWarning, "metadata must be a map of strings to strings")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
			p.report(v.Line+p.fm.lineOffset, "metadata."+k.Value, problem.SeverityWarning, "metadata value %q must be a string (quote it)", k.Value)
		}
		if strings.HasPrefix(k.Value, "io.modelcontextprotocol/") {
			p.report(k.Line+p.fm.lineOffset, "metadata."+k.Value, problem.SeverityHint, "metadata keys starting io.modelcontextprotocol/ are reserved")
		}
	}
}

func (p *skillParser) allowedTools() {
	n, ok := p.fields["allowed-tools"]
	switch {
	case !ok:
	case n.Kind == yaml.SequenceNode:
		p.report(p.lineOf("allowed-tools"), "allowed-tools", problem.SeverityHint, "allowed-tools is a list; the current specification wants a space-separated string")
	case n.Kind != yaml.ScalarNode:
		p.report(p.lineOf("allowed-tools"), "allowed-tools", problem.SeverityWarning, "allowed-tools must be a space-separated string")
	}
}

func (p *skillParser) body(body string) {
	if lines := strings.Count(body, "\n"); lines > recommendedMaxBody {
		p.report(0, "", problem.SeverityHint, "body has %d lines; the guidance is under %d: move detail into references/", lines, recommendedMaxBody)
	}
}

// frontmatterBlock is what splitFrontmatter found.
type frontmatterBlock struct {
	raw         []byte
	node        *yaml.Node
	line        int // line of the opening ---
	lineOffset  int // add to a yaml.Node line to get the file line
	fixedColons bool
}

var errNoFrontmatter = errors.New("no YAML frontmatter: SKILL.md must start with a --- line, the name and description, and a closing --- line")

// splitFrontmatter separates the YAML frontmatter from the body. It tolerates
// a UTF-8 byte order mark, CRLF line endings and trailing spaces after the
// delimiters, and retries YAML that fails on an unquoted colon the way
// lenient hosts do.
func splitFrontmatter(raw []byte) (frontmatterBlock, string, error) {
	var fm frontmatterBlock
	text := bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	fm.line = 1
	for _, l := range bytes.SplitAfter(text, []byte("\n")) {
		if len(bytes.TrimSpace(l)) != 0 {
			break
		}
		fm.line++
	}
	fm.lineOffset = fm.line

	var parseErr error
	format := frontmatter.NewFormat("---", "---", func(data []byte, _ any) error {
		fm.raw = slices.Clone(data)
		var node yaml.Node
		if err := yaml.Unmarshal(data, &node); err != nil {
			fixed, changed := quoteColonValues(data)
			if !changed || yaml.Unmarshal(fixed, &node) != nil {
				parseErr = fmt.Errorf("frontmatter is not valid YAML: %v", err)
				return parseErr
			}
			fm.fixedColons = true
		}
		if node.Kind == yaml.DocumentNode && len(node.Content) == 1 {
			fm.node = node.Content[0]
		} else {
			fm.node = &yaml.Node{Kind: yaml.MappingNode}
		}
		// Decoding finds what parsing lets through, such as duplicate keys.
		var probe any
		if err := fm.node.Decode(&probe); err != nil {
			parseErr = fmt.Errorf("frontmatter is not valid YAML: %v", err)
			return parseErr
		}
		return nil
	})
	body, err := frontmatter.MustParse(bytes.NewReader(text), nil, format)
	switch {
	case parseErr != nil:
		return fm, "", fileLines(parseErr, fm.lineOffset)
	case errors.Is(err, frontmatter.ErrNotFound):
		if first, _, _ := bytes.Cut(bytes.TrimLeft(text, " \t\r\n"), []byte("\n")); string(bytes.TrimSpace(first)) == "---" {
			return fm, "", errors.New("the frontmatter has no closing --- line")
		}
		return fm, "", errNoFrontmatter
	case err != nil:
		return fm, "", err
	}
	return fm, string(body), nil
}

// yamlLineRE finds the line numbers of a YAML error, yamlLineRefRE the
// reference to one that parts the line from its message.
var (
	yamlLineRE    = regexp.MustCompile(`line (\d+)`)
	yamlLineRefRE = regexp.MustCompile(`: line \d+: `)
)

// lineError is an error at a line of the file.
type lineError struct {
	line int // 1-based; 0 when unknown
	msg  string
}

func (e *lineError) Error() string { return e.msg }

// yamlParserErrors are the problems yaml.v3's parser (not its scanner nor its
// decoder) reports, whose line numbers it counts from 0: the others count
// from 1.
var yamlParserErrors = []string{
	"did not find expected <stream-start>", "did not find expected <document start>",
	"found undefined tag handle", "did not find expected node content",
	"did not find expected '-' indicator", "did not find expected key",
	"did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"found duplicate %YAML directive", "found incompatible YAML document", "found duplicate %TAG directive",
}

// fileLines locates a YAML error in the file: its line numbers, which count
// from the start of the frontmatter, become lines of the file, the first of
// them is the error's line, and the parser's prefixes go.
func fileLines(err error, offset int) error {
	msg := strings.NewReplacer("yaml: unmarshal errors:\n  ", "", "yaml: ", "").Replace(err.Error())
	fromZero := slices.ContainsFunc(yamlParserErrors, func(p string) bool { return strings.HasSuffix(msg, p) })
	first := 0
	msg = yamlLineRE.ReplaceAllStringFunc(msg, func(m string) string {
		n, _ := strconv.Atoi(m[len("line "):])
		if first == 0 && fromZero {
			n++
		}
		n += offset
		if first == 0 {
			first = n
		}
		return "line " + strconv.Itoa(n)
	})
	if first == 0 && fromZero {
		first = offset + 1 // yaml.v3 leaves out line 0
	}
	// The problem carries the line; the message need not repeat it.
	msg = yamlLineRefRE.ReplaceAllString(msg, ": ")
	return &lineError{line: first, msg: msg}
}

// plainValue converts YAML to the values a YAML 1.2 core schema parser (such
// as the JavaScript yaml package MCP hosts use) would produce: unlike
// yaml.v3's own decoding, dates stay strings.
func plainValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return plainValue(n.Content[0])
		}
		return nil
	case yaml.AliasNode:
		return plainValue(n.Alias)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = plainValue(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			l[i] = plainValue(c)
		}
		return l
	}
	switch n.ShortTag() {
	case "!!int":
		// yaml.v3 also reads YAML 1.1 integers: 017 as octal, 1_000 as a
		// thousand. The core schema reads 17 and a string.
		if i, ok := coreInt(n.Value); ok {
			return i
		}
	case "!!float":
		if !coreFloatRE.MatchString(n.Value) {
			return n.Value // 1_000.5 and other YAML 1.1 forms
		}
		fallthrough
	case "!!bool", "!!null":
		var v any
		if n.Decode(&v) == nil {
			return v
		}
	}
	return n.Value
}

var (
	coreIntRE   = regexp.MustCompile(`^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$`)
	coreFloatRE = regexp.MustCompile(`^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
)

// coreInt reads an integer as the YAML 1.2 core schema does.
func coreInt(s string) (int, bool) {
	if !coreIntRE.MatchString(s) {
		return 0, false
	}
	base, digits := 10, s
	if rest, ok := strings.CutPrefix(s, "0o"); ok {
		base, digits = 8, rest
	} else if rest, ok := strings.CutPrefix(s, "0x"); ok {
		base, digits = 16, rest
	}
	i, err := strconv.ParseInt(digits, base, 0)
	return int(i), err == nil
}

var colonValueRE = regexp.MustCompile(`^([A-Za-z0-9_-]+):[ \t]+(.*\S)[ \t]*$`)

// quoteColonValues quotes top-level values such as `description: Use when: x`
// that YAML reads as a nested mapping.
func quoteColonValues(data []byte) ([]byte, bool) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	changed := false
	for i, l := range lines {
		m := colonValueRE.FindStringSubmatch(l)
		if m == nil || !strings.Contains(m[2], ": ") || strings.ContainsAny(m[2][:1], `"'|>[{&*!`) {
			continue
		}
		quoted, _ := yaml.Marshal(m[2])
		lines[i] = m[1] + ": " + strings.TrimSpace(string(quoted))
		changed = true
	}
	return []byte(strings.Join(lines, "\n")), changed
}

// snapshotFiles reads every file of the skill at dir into memory, enforcing
// the size and count limits and refusing symlinks that lead out of the
// folder. Files are sorted by path. It also returns the folders it went
// through (slash-separated, the skill folder itself left out).
func snapshotFiles(dir, skillFile string) ([]File, []string, problem.Problems) {
	var files []File
	var dirs []string
	var probs problem.Problems
	var total int64
	fail := func(file, format string, args ...any) {
		probs = append(probs, problem.Problem{File: file, Severity: problem.SeverityError, Message: fmt.Sprintf(format, args...)})
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		fail(dir, "%v", err)
		return nil, nil, probs
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fail(p, "%v", err)
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if p != dir && SkippedDirs[d.Name()] {
				return fs.SkipDir
			}
			if p != dir {
				dirs = append(dirs, filepath.ToSlash(rel))
			}
			return nil
		}
		if skippedFiles[d.Name()] {
			return nil
		}
		info, err := os.Stat(p) // follows symlinks
		if d.Type()&fs.ModeSymlink != 0 {
			target, terr := filepath.EvalSymlinks(p)
			if terr != nil {
				fail(p, "broken symlink: %v", terr)
				return fs.SkipAll
			}
			if !contain.Within(realDir, target) {
				fail(p, "symlink leads outside the skill folder (to %s); refusing the skill", target)
				return fs.SkipAll
			}
			if err == nil && info.IsDir() {
				// Following linked folders invites loops; their files are reachable under their real path.
				probs = append(probs, problem.Problem{File: p, Severity: problem.SeverityHint, Message: "symlinked folder not followed"})
				return nil
			}
		}
		if err != nil {
			fail(p, "%v", err)
			return fs.SkipAll
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		if len(files) >= MaxFiles {
			fail(skillFile, "the skill has more than %d files", MaxFiles)
			return fs.SkipAll
		}
		total += info.Size()
		if total > MaxBytes {
			fail(skillFile, "the skill's files add up to more than 16 MiB")
			return fs.SkipAll
		}
		if filepath.ToSlash(rel) == FileName && info.Size() > MaxFileSize {
			fail(p, "SKILL.md is %d bytes, over the 1 MiB limit", info.Size())
			return fs.SkipAll
		}
		data, err := os.ReadFile(p)
		if err != nil {
			fail(p, "%v", err)
			return fs.SkipAll
		}
		sum := sha256.Sum256(data)
		files = append(files, File{Path: filepath.ToSlash(rel), Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Data: data})
		return nil
	})
	if err != nil {
		fail(dir, "%v", err)
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, dirs, probs
}

// emptyDirs returns the folders of dirs that no file lies in, at any depth,
// sorted; at most MaxSkillFiles of them, as for files.
func emptyDirs(dirs []string, files []File) []string {
	full := map[string]bool{}
	for _, f := range files {
		for d := path.Dir(f.Path); d != "." && !full[d]; d = path.Dir(d) {
			full[d] = true
		}
	}
	var empty []string
	for _, d := range dirs {
		if !full[d] && len(empty) < MaxFiles {
			empty = append(empty, d)
		}
	}
	slices.Sort(empty)
	return empty
}

// Folders and files that are tooling debris rather than part of a skill.
var (
	SkippedDirs  = map[string]bool{".git": true, "node_modules": true, "__pycache__": true, ".venv": true}
	skippedFiles = map[string]bool{".DS_Store": true}
)

// CleanRelPath checks a path that a model or client gave relative to a skill
// folder and returns it slash-separated and clean. It refuses absolute paths
// and any path that climbs out with "..".
func CleanRelPath(p string) (string, error) {
	if p == "" {
		return "", errors.New("the path is empty")
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return "", fmt.Errorf("%q is absolute: give a path relative to the skill folder, such as references/guide.md", p)
	}
	slashed := filepath.ToSlash(p)
	for _, part := range strings.Split(slashed, "/") {
		if part == ".." {
			return "", fmt.Errorf("%q climbs out of the skill folder with ..: give a path inside it", p)
		}
	}
	return path.Clean(slashed), nil
}
