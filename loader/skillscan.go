package loader

import (
	"fmt"
	"path/filepath"

	"github.com/toolsearch/toolsearch/loader/scan"
)

// SkillsApprovalKey is the skills' key in the approvals store: a withheld
// skill is approved by its path and digest under it.
const SkillsApprovalKey = "skills"

// Scan runs the scanner (package loader/scan) over the skill's SKILL.md,
// frontmatter and body, as the model receives it.
func (s *Skill) Scan() []scan.Finding {
	f, ok := s.File(SkillFileName)
	if !ok {
		return nil
	}
	return scan.Skill(filepath.Join(s.Dir, SkillFileName), f.Data)
}

// WithheldProblems reports a skill's findings as problems that keep it out
// of the catalog, each with its line, and how to approve it.
func WithheldProblems(s *Skill, findings []scan.Finding) Problems {
	var probs Problems
	for _, f := range findings {
		probs = append(probs, Problem{
			File:     f.Field,
			Line:     f.Line,
			Field:    string(f.Rule),
			Severity: SeverityError,
			Message:  fmt.Sprintf("skill %s withheld: %s: %s: %s (if it is safe, approve it with toolsearch approve skills/%s)", s.Path, f.Rule, f.Message, scan.Reveal(f.Span), s.Path),
		})
	}
	return probs
}
