package scan

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool scans every text of a tool definition the model may read: its
// title, description, annotations' title, and every string and property
// name of its input and output schemas (the "full-schema" poisoning that
// hides instructions in a parameter's name, default or enum). It also
// applies the shadowing phrases that need no other server's names; see
// Shadowing for the rest.
func Tool(t *mcp.Tool) []Finding {
	return withResemblance(toolLexical(t), t)
}

// toolLexical is Tool without the resemblance rule: what the rules that
// read sentences find. The tests' case tables hold those rules through it
// and skillLexical; the model is judged on whole sets, by what it was not
// trained on (resemblance_train_test.go).
func toolLexical(t *mcp.Tool) []Finding {
	d := toolDoc(t)
	return d.scan(toolJSON(t), kindTool)
}

// withResemblance adds the tool model's finding to fs when the other rules
// found nothing: it is a judgement of the whole, for what they miss.
func withResemblance(fs []Finding, t *mcp.Tool) []Finding {
	if len(fs) > 0 {
		return fs
	}
	return toolResemblance(t)
}

// ToolReferences is Tool and References at once, reading the definition
// once: what a catalog keeps of each tool it scans.
func ToolReferences(t *mcp.Tool) ([]Finding, *Refs) {
	d := toolDoc(t)
	return withResemblance(d.scan(toolJSON(t), kindTool), t), d.references(t)
}

// Prompt scans a prompt's title, description and arguments. Prompts reach
// a model when a person picks them, with their text unseen.
func Prompt(p *mcp.Prompt) []Finding {
	d := &doc{}
	d.add("title", p.Title)
	d.add("description", p.Description)
	for i, a := range p.Arguments {
		if a == nil {
			continue
		}
		at := fmt.Sprintf("arguments[%d].", i)
		d.add(at+"name", a.Name)
		d.add(at+"title", a.Title)
		d.add(at+"description", a.Description)
	}
	return d.scan(nil, kindText)
}

// Skill scans a SKILL.md, frontmatter and body, as the model receives it.
// Findings name the file and carry the line of their span. Skills
// legitimately name the tools they use, so shadowing does not apply.
func Skill(file string, raw []byte) []Finding {
	return scanFile(file, raw, kindSkill)
}

// A File is one file of a skill, its path relative to the skill folder.
type File struct {
	Path string
	Data []byte
}

// SkillFiles scans every text file of a skill that the model or a host can
// receive (read_skill_file, skill:// resources): SKILL.md and the other
// Markdown and text files as instructions, which a SKILL.md that says
// "read references/setup.md and follow it" makes them; scripts and data
// files for what hides in any text (invisible characters, forged turns,
// directives to ignore the rules, encoded payloads). Binary files, which
// are never served as text, are the caller's to leave out. Findings name
// the file by dir joined with its path, and carry their line.
func SkillFiles(dir string, files []File) []Finding {
	out := skillLexical(dir, files)
	if Withholds(out) {
		return out
	}
	model := skillResemblance(dir, files)
	if len(model) > 0 && len(out) >= maxPerText {
		out = out[:maxPerText-1]
	}
	return append(out, model...)
}

// skillLexical is SkillFiles without the resemblance rule, which judges
// only what the other rules do not withhold.
func skillLexical(dir string, files []File) []Finding {
	scanned := make([]*findings, len(files))
	texts := make([]string, len(files))
	for i, f := range files {
		name := f.Path
		if dir != "" {
			name = dir + "/" + f.Path
		}
		texts[i] = string(f.Data)
		d := &doc{}
		d.add(name, texts[i])
		scanned[i] = d.run(nil, fileKind(f))
	}
	crossFileFlows(files, scanned)
	reading := newSkillReading(files, texts)
	foreignSecretSends(reading, scanned)
	addedRecipients(reading, scanned)
	silentSends(reading, scanned)
	lookAlikeHosts(reading, scanned)
	interceptedTraffic(reading, scanned)
	forwardedAgents(reading, scanned)
	secretImages(reading, scanned)
	ownCloudKeys(reading, scanned)
	standingForwards(reading, scanned)
	secretBundles(reading, scanned)
	configuredSinks(reading, scanned)
	gatewayHandOffs(reading, scanned)
	outsideGrants(reading, scanned)
	handedAccess(reading, scanned)
	brokenLocalClaims(reading, scanned)
	publishedSecrets(reading, scanned)
	allSecretsSteps(reading, scanned)
	var out []Finding
	for i, fs := range scanned {
		text := texts[i]
		found := fs.sorted()
		for j := range found {
			found[j].Line = 1 + strings.Count(text[:found[j].Start], "\n")
		}
		out = append(out, found...)
		if len(out) >= maxPerText {
			return out[:maxPerText]
		}
	}
	return out
}

// fileKind is how a skill's file is read: Markdown and plain text as
// instructions, anything else as code or data. A file with no extension
// is a program when it starts with #! (a token helper, a git hook) or is
// named as a build's file (a Makefile, a Dockerfile): it runs whatever its
// name.
func fileKind(f File) kind {
	base := strings.ToLower(f.Path[strings.LastIndex(f.Path, "/")+1:])
	ext := ""
	if i := strings.LastIndex(base, "."); i > 0 {
		ext = base[i:]
	}
	switch ext {
	case "":
		if bytes.HasPrefix(f.Data, []byte("#!")) || programFiles[base] {
			return kindCode
		}
		return kindSkill
	case ".md", ".mdx", ".markdown", ".txt", ".rst", ".adoc":
		return kindSkill
	}
	return kindCode
}

// programFiles are the names, with no extension, of files a build runs
// (make, docker, rake, fastlane, CocoaPods, danger, …).
var programFiles = map[string]bool{"makefile": true, "gnumakefile": true, "dockerfile": true, "containerfile": true, "jenkinsfile": true, "justfile": true, "rakefile": true, "gemfile": true, "procfile": true, "vagrantfile": true, "brewfile": true, "taskfile": true,
	"fastfile": true, "appfile": true, "matchfile": true, "pluginfile": true, "podfile": true, "dangerfile": true, "guardfile": true, "capfile": true, "berksfile": true, "earthfile": true, "tiltfile": true}

func scanFile(file string, raw []byte, k kind) []Finding {
	text := string(raw)
	d := &doc{}
	d.add(file, text)
	out := d.scan(nil, k)
	for i := range out {
		out[i].Line = 1 + strings.Count(text[:out[i].Start], "\n")
	}
	return out
}

// toolDoc lays out the texts of a tool definition.
func toolDoc(t *mcp.Tool) *doc {
	d := &doc{name: t.Name}
	d.buf.Grow(len(t.Title) + len(t.Description) + 2*len(separator))
	d.add("title", t.Title)
	d.add("description", t.Description)
	if t.Annotations != nil {
		d.add("annotations.title", t.Annotations.Title)
	}
	d.addJSON("inputSchema", t.InputSchema)
	d.addJSON("outputSchema", t.OutputSchema)
	return d
}

// toolJSON are a tool's JSON documents by field, to name the fields of
// findings in them.
func toolJSON(t *mcp.Tool) map[string]any {
	return map[string]any{"inputSchema": t.InputSchema, "outputSchema": t.OutputSchema}
}
