package skill

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/scan"
)

// ApprovalKey is the skills' key in the approvals store: a withheld
// skill is approved by its path and digest under it.
const ApprovalKey = "skills"

// Scan runs the scanner (package loader/scan) over every file of the skill
// that the model or a host can receive as text: SKILL.md, frontmatter and
// body, and every other text file (references, templates, scripts), which
// read_skill_file and skill:// resources serve. Binary files are served
// as blobs, never read as text, and are left out; so are the files of the
// skills nested in this one, which are scanned, and judged, as theirs.
func (s *Skill) Scan() []scan.Finding {
	var nested []string
	for _, f := range s.Files {
		if dir, ok := strings.CutSuffix(f.Path, "/"+FileName); ok {
			nested = append(nested, dir+"/")
		}
	}
	files := make([]scan.File, 0, len(s.Files))
	for i := range s.Files {
		f := &s.Files[i]
		if f.Binary() || slices.ContainsFunc(nested, func(dir string) bool { return strings.HasPrefix(f.Path, dir) }) {
			continue
		}
		files = append(files, scan.File{Path: f.Path, Data: f.Data})
	}
	return scan.SkillFiles(filepath.ToSlash(s.Dir), files)
}

// WithheldProblems reports a skill's findings as problems, each with its
// file and line: a strong finding is an error that keeps the skill out of
// the catalog until it is approved, a weak one a hint that annotates it.
func WithheldProblems(s *Skill, findings []scan.Finding) problem.Problems {
	var probs problem.Problems
	for _, f := range findings {
		p := problem.Problem{File: filepath.FromSlash(f.Field), Line: f.Line, Field: string(f.Rule)}
		if f.Severity == scan.SeverityWarn {
			p.Severity = problem.SeverityHint
			p.Message = fmt.Sprintf("skill %s: the scanner notes (a weak signal; not withheld): %s: %s: %s", s.Path, f.Rule, f.Message, scan.Reveal(f.Span))
		} else {
			p.Severity = problem.SeverityError
			p.Message = fmt.Sprintf("skill %s withheld: %s: %s: %s (if it is safe, approve it with toolsearch approve skills/%s)", s.Path, f.Rule, f.Message, scan.Reveal(f.Span), s.Path)
		}
		probs = append(probs, p)
	}
	return probs
}

// IndexedDescription is the description of an entry as the search index
// takes it: without self-promotion ("This is the best tool in the
// world."), which for a search gateway is an attack on the ranking itself.
// The scanner flags such sentences; what the model reads keeps them, so
// that a person reviewing the definition sees them.
func IndexedDescription(description string) string {
	return scan.StripPromotion(description)
}
