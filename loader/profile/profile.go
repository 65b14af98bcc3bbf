// Package profile narrows the catalog to what one client may see. A
// profile names upstream servers, tool globs, skill paths and policy
// overrides (toolsearch.yaml's profiles:); [Follow] keeps a catalog of the
// profile's part of the whole, which a server built over it serves, lists,
// searches, calls and measures as if it were all there is:
//
//	p := &profile.Profile{Name: "triage", Servers: []string{"github"}, Tools: []string{"github__get_*"}}
//	view, stop := profile.Follow(catalog, p, server.ReservedNames...)
//	defer stop()
//	srv, err := server.New(view, opts) // one set of upstream connections serves every profile
//
// Entries outside the profile, and entries its policy hides, are not in the
// view at all: a session of the profile cannot find, call or read them, nor
// learn that they exist. A profile narrows what toolsearch.yaml's server
// settings allow and never widens it: its policy applies when it is
// stricter than the entry's own.
package profile

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// A Profile is a named part of the catalog. A nil list admits everything
// of its kind.
type Profile struct {
	Name string
	// Servers are the tool sources admitted: upstream servers, and static
	// tool files by their source name.
	Servers []string
	// Tools are globs (path.Match) on exposed tool names, SERVER__TOOL,
	// within the admitted servers.
	Tools []string
	// Skills are skill paths or globs on them ("csv-audit", "team/*"); a
	// pattern that admits a skill admits the skills nested in it.
	Skills []string
	// Policy maps globs on exposed names to a policy; the most specific
	// wins (the exact name, then the longest pattern, then the one that
	// sorts first), and applies when stricter than the entry's own.
	Policy map[string]catalog.Policy
}

// Check reports what is wrong with the profile's globs and policies, every
// problem at once.
func (p *Profile) Check() []error {
	var errs []error
	for _, list := range []struct {
		field string
		globs []string
	}{{"tools", p.Tools}, {"skills", p.Skills}} {
		for _, g := range list.globs {
			if _, err := path.Match(g, ""); err != nil {
				errs = append(errs, fmt.Errorf("profiles.%s.%s: bad glob %q: %v", p.Name, list.field, g, err))
			}
		}
	}
	for _, g := range slices.Sorted(maps.Keys(p.Policy)) {
		pol := p.Policy[g]
		if _, err := path.Match(g, ""); err != nil {
			errs = append(errs, fmt.Errorf("profiles.%s.policy: bad glob %q: %v", p.Name, g, err))
		}
		if _, err := catalog.ParsePolicy(string(pol)); err != nil {
			errs = append(errs, fmt.Errorf("profiles.%s.policy.%s: %v", p.Name, g, err))
		}
	}
	return errs
}

// Admits reports whether an entry belongs to the profile, before its
// policy.
func (p *Profile) Admits(e *catalog.Entry) bool {
	if e.Kind == catalog.KindSkill {
		return p.Skills == nil || e.Skill != nil && p.admitsSkill(e.Skill.Path)
	}
	if p.Servers != nil && !slices.Contains(p.Servers, e.Source) {
		return false
	}
	return p.Tools == nil || matchAny(p.Tools, e.Name)
}

// admitsSource reports whether any entry of the source may belong to the
// profile.
func (p *Profile) admitsSource(src *catalog.Source) bool {
	if src.Kind == catalog.SourceSkills {
		return p.Skills == nil || len(p.Skills) > 0
	}
	return p.Servers == nil || slices.Contains(p.Servers, src.Name)
}

func (p *Profile) admitsSkill(skillPath string) bool {
	for _, pat := range p.Skills {
		// The path itself, or a folder above it: a skill admitted brings
		// its nested skills.
		for prefix := skillPath; prefix != ""; {
			if ok, _ := path.Match(pat, prefix); ok {
				return true
			}
			i := strings.LastIndexByte(prefix, '/')
			if i < 0 {
				break
			}
			prefix = prefix[:i]
		}
	}
	return false
}

// policy returns the profile's policy for an exposed name, if any glob
// matches it.
func (p *Profile) policy(name string) (catalog.Policy, bool) {
	if pol, ok := p.Policy[name]; ok {
		return pol, true
	}
	best, found := "", false
	for pattern := range p.Policy {
		if ok, _ := path.Match(pattern, name); !ok {
			continue
		}
		if !found || len(pattern) > len(best) || len(pattern) == len(best) && pattern < best {
			best, found = pattern, true
		}
	}
	return p.Policy[best], found
}

// Apply returns the entry as the profile shows it, or nil when the
// profile leaves it out or hides it. An entry whose policy the profile
// makes stricter is a copy; others are the entry itself.
func (p *Profile) Apply(e *catalog.Entry) *catalog.Entry {
	if !p.Admits(e) {
		return nil
	}
	pol, ok := p.policy(e.Name)
	if !ok || !pol.StricterThan(e.Policy) {
		if e.Policy == catalog.PolicyHidden {
			return nil
		}
		return e
	}
	if pol == catalog.PolicyHidden {
		return nil
	}
	c := *e
	c.Policy = pol
	return &c
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}
