package catalog

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/scan"
	"github.com/toolsearch/toolsearch/loader/schema"
	"github.com/toolsearch/toolsearch/loader/skill"
)

// Kind tells tools, skills, prompts and resources apart.
type Kind string

const (
	KindTool  Kind = "tool"
	KindSkill Kind = "skill"
)

// Policy says what the model may do with an upstream tool.
type Policy string

const (
	PolicyCallable    Policy = "callable"     // listed, searched and callable (the default)
	PolicyVisibleOnly Policy = "visible_only" // listed and searched, but calls are refused
	PolicyHidden      Policy = "hidden"       // neither listed, searched nor callable
)

// ParsePolicy checks a policy word from configuration.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case PolicyCallable, PolicyVisibleOnly, PolicyHidden:
		return p, nil
	}
	return "", fmt.Errorf("unknown policy %q: want callable, visible_only or hidden", s)
}

// StricterThan reports whether p allows the model less than q: hidden is
// stricter than visible_only, which is stricter than callable (and than
// "", which is callable).
func (p Policy) StricterThan(q Policy) bool { return p.strictness() > q.strictness() }

func (p Policy) strictness() int {
	switch p {
	case PolicyHidden:
		return 2
	case PolicyVisibleOnly:
		return 1
	}
	return 0
}

// An Entry is one thing the model can find: a tool or a skill.
type Entry struct {
	Kind        Kind
	Name        string // the name the model uses; unique in a snapshot
	Source      string // the source it came from: "skills", a server name, a tools file
	Summary     string // one line, at most SummaryLen characters
	Description string

	// Tool is the full definition of a tool as its source gave it, under
	// its own name there (Upstream, when set), not under Name: a copy of
	// each renamed definition was 13 MB for a server of 100,000 tools.
	// Exposed gives the definition under Name.
	Tool *mcp.Tool
	// Upstream is the tool's own name at its server (or in its file) when
	// that differs from Name.
	Upstream string
	Policy   Policy
	// AlwaysLoad tools appear directly in tools/list with their schema.
	AlwaysLoad bool
	// Changed marks a tool whose definition differs from the one first seen.
	Changed bool
	// Quarantine, when set, holds the tool back until a person approves its
	// definition (package loader/trust): it stays listed and searchable,
	// but the model is shown Quarantine.Summary instead of its definition,
	// and calls are refused. See Hold.
	Quarantine *Quarantine

	Skill *skill.Skill

	// Prompt is an upstream prompt under its exposed Name (KindPrompt).
	Prompt *mcp.Prompt
	// Resource or Template is an upstream resource or resource template
	// (KindResource); Name is its URI or URI template.
	Resource *mcp.Resource
	Template *mcp.ResourceTemplate

	// Digest identifies the entry's content; equal digests mean nothing a
	// client could see has changed.
	Digest string
}

// Exposed returns a tool's definition under the name the model uses, as a
// host is shown it: Tool itself when that is its own name, a copy
// otherwise; nil for an entry of another kind. It must not be altered.
func (e *Entry) Exposed() *mcp.Tool {
	if e.Tool == nil || e.Tool.Name == e.Name {
		return e.Tool
	}
	def := *e.Tool
	def.Name = e.Name
	return &def
}

// Listed reports whether the entry may appear in listings and search.
func (e *Entry) Listed() bool { return e.Policy != PolicyHidden }

// Held reports whether the entry is in quarantine.
func (e *Entry) Held() bool { return e.Quarantine != nil }

// A Quarantine says why a tool is held and what it would change.
type Quarantine struct {
	// Reason says why it is held: changed since approved, new, flagged by
	// the scanner (see loader/trust).
	Reason string `json:"reason"`
	// Findings are the scanner's, when it flagged the definition.
	Findings []scan.Finding `json:"findings,omitempty"`
	// Summary describes the change in words the model may read: which
	// parameters were added or removed, never the new text.
	Summary string `json:"summary"`
	// Previous is the last definition that was trusted; nil for a tool
	// never trusted before.
	Previous *mcp.Tool `json:"-"`
	// Review is the command that shows a person the held definition and
	// how to approve it (toolsearch review NAME): what the model relays.
	// Never the approval itself: a poisoned server would have the model
	// run it, and the hold would approve itself.
	Review string `json:"review"`
}

// Hold puts a tool in quarantine. Its one-liner and description become
// those of the definition trusted before, or "(awaiting approval)" and
// nothing for a new tool, so
// that no listing, search or index shows the held text; Tool keeps the
// held definition, for review and approval.
func (e *Entry) Hold(q *Quarantine) {
	e.Quarantine = q
	e.Summary, e.Description = "(awaiting approval)", ""
	if q.Previous != nil {
		e.Summary, e.Description = Summarize(q.Previous.Description), q.Previous.Description
	}
}

// NewSkillEntry makes the catalog entry for a skill.
func NewSkillEntry(source string, s *skill.Skill) *Entry {
	return &Entry{
		Kind:        KindSkill,
		Name:        s.Name,
		Source:      source,
		Summary:     Summarize(s.Description),
		Description: s.Description,
		Skill:       s,
		Policy:      PolicyCallable,
		Digest:      s.Digest(),
	}
}

// NewToolEntry makes the catalog entry for a tool exposed as name. The
// entry's Tool is the caller's definition, never altered, and it must not
// be once the entry is made. A tool without an input schema takes any
// object ({"type":"object"}), as the protocol intends: its entry holds a
// copy that says so.
func NewToolEntry(source, name string, t *mcp.Tool) *Entry {
	return NewToolEntryWithDigest(source, name, t, "")
}

// NewToolEntryWithDigest is NewToolEntry for a definition whose digest
// (ToolDigest) was made before: a last known catalog keeps its tools'.
// An empty digest is made here.
func NewToolEntryWithDigest(source, name string, t *mcp.Tool, digest string) *Entry {
	if schema.Missing(t.InputSchema) {
		withDefault := *t
		withDefault.InputSchema = schema.Default()
		t = &withDefault
	}
	e := &Entry{
		Kind:        KindTool,
		Name:        name,
		Source:      source,
		Summary:     Summarize(t.Description),
		Description: t.Description,
		Tool:        t,
		Policy:      PolicyCallable,
		Digest:      digest,
	}
	if digest == "" {
		e.Digest = ToolDigest(t)
	}
	if t.Name != name {
		e.Upstream = t.Name
	}
	return e
}

// CheckToolName reports why a name cannot be listed to a host as a tool of
// its own (always-loaded, promoted): the Anthropic and OpenAI APIs accept
// only 1-64 characters of [A-Za-z0-9_-]. A tool reached through the call
// proxy has no such limit; see CheckProxiedName.
func CheckToolName(name string) error {
	if len(name) <= 64 && nameChars(name, false) {
		return nil
	}
	if len(name) > 64 {
		return fmt.Errorf("name %q is %d characters, over the 64 that model APIs accept", name, len(name))
	}
	return fmt.Errorf("name %q has characters outside [A-Za-z0-9_-], which model APIs refuse", name)
}

// MaxProxiedNameLen is the longest tool name MCP allows (the 2025-11-25
// specification, SEP-986), and so the longest name of an upstream's tool
// the catalog keeps.
const MaxProxiedNameLen = 128

// CheckProxiedName reports why a tool cannot be reached through the call
// proxy under the name exposed, the namespace's (an upstream server, a
// tools file) joined to own, the tool's name there. The model passes that
// name as an argument, so no model API's limit on tool names applies, only
// MCP's: 1 to MaxProxiedNameLen characters of [A-Za-z0-9_.-] for own, and
// those characters for the whole.
func CheckProxiedName(exposed, own string) error {
	switch {
	case len(own) > MaxProxiedNameLen:
		return fmt.Errorf("the tool's name %.64q… is %d characters, over the %d that MCP allows; the server must give it a shorter one", own, len(own), MaxProxiedNameLen)
	case !nameChars(own, true):
		return fmt.Errorf("the tool's name %q has characters outside [A-Za-z0-9_.-], which MCP does not allow in tool names; the server must rename it", own)
	case !nameChars(exposed, true):
		return fmt.Errorf("name %q has characters outside [A-Za-z0-9_.-], which tool names cannot carry; a server name of those characters in the MCP config is the fix", exposed)
	}
	return nil
}

// nameChars reports whether s is one or more of [A-Za-z0-9_-], and of '.'
// too when dots. Every tool listed is checked: a regular expression took
// 7 % of a start at 100,000 tools.
func nameChars(s string, dots bool) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
		case c == '.' && dots:
		default:
			return false
		}
	}
	return s != ""
}

// SummaryLen bounds one-line summaries.
const SummaryLen = 120

// Summarize makes the one-line summary of a description: its first
// sentence, whitespace collapsed, at most SummaryLen characters.
func Summarize(desc string) string {
	s := desc
	if !singleSpaced(desc) {
		// A summary reads no further than SummaryLen+2 characters of the
		// collapsed text: either its first sentence ends within them, or the
		// summary is cut at SummaryLen-1 anyway.
		s = collapsedPrefix(desc, SummaryLen+2)
	}
	s = firstSentence(s)
	if utf8.RuneCountInString(s) <= SummaryLen {
		// Catalogs hold a summary for every tool. Usually it is the start of the
		// description, which the entry keeps anyway; otherwise a copy, so that the
		// whole description joined above is not kept alive by its first sentence.
		if strings.HasPrefix(desc, s) {
			return desc[:len(s)]
		}
		return strings.Clone(s)
	}
	r := []rune(s)[:SummaryLen-1]
	if i := lastSpace(r); i > SummaryLen/2 {
		r = r[:i]
	}
	return strings.TrimRightFunc(string(r), func(c rune) bool { return unicode.IsPunct(c) || unicode.IsSpace(c) }) + "…"
}

// singleSpaced reports whether s is ASCII with words parted by single
// spaces, which joining its fields would leave as it is. Most descriptions
// are, and a catalog summarizes every one.
func singleSpaced(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			return false
		}
	}
	return true
}

// collapsedPrefix returns the first n characters of s with its whitespace
// collapsed (strings.Join(strings.Fields(s), " ")), all of it when shorter,
// without splitting the whole description.
func collapsedPrefix(s string, n int) string {
	var b strings.Builder
	runes, space := 0, false
	for i := 0; i < len(s) && runes < n; {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			space = runes > 0
		} else {
			if space {
				b.WriteByte(' ')
				space = false
				if runes++; runes == n {
					break
				}
			}
			b.WriteString(s[i : i+size])
			runes++
		}
		i += size
	}
	return b.String()
}

var abbreviations = map[string]bool{"e.g.": true, "i.e.": true, "etc.": true, "vs.": true, "approx.": true, "incl.": true, "no.": true}

// firstSentence cuts s after the first full stop, question or exclamation
// mark that ends a word and is followed by a space, skipping abbreviations.
func firstSentence(s string) string {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' {
			start = i + 1
			continue
		}
		if (c == '.' || c == '!' || c == '?') && i+1 < len(s) && s[i+1] == ' ' {
			word := strings.ToLower(s[start : i+1])
			if abbreviations[word] || (c == '.' && len(word) == 2) { // "e.", initials
				continue
			}
			return s[:i+1]
		}
	}
	return s
}

func lastSpace(r []rune) int {
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] == ' ' {
			return i
		}
	}
	return -1
}
