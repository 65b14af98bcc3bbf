package catalog

import "strings"

// A Resolution is what a tool or skill name somebody wrote (a model's call,
// a command line) means in a snapshot. At most one of Entry, CaseVariants
// and SameOwnName is set.
type Resolution struct {
	// Entry is the one listed tool or skill the name means.
	Entry *Entry
	// CaseVariants are the listed tools whose names differ from it only in
	// case, when there are several and none is written so.
	CaseVariants []*Entry
	// SameOwnName are the listed tools of several servers whose own name
	// it is (an unqualified name, create_issue for github__create_issue).
	SameOwnName []*Entry
	// Sources are the sources whose namespace the name carries (see
	// Namespaces), whether or not it means an entry of theirs: for a name
	// nothing listed has, the servers it may still come from.
	Sources []*Source
}

// Resolve finds what name means, one way for every caller: the listed
// entry of that exact name (or the only one in another case), else, for a
// name that is not qualified, the one listed tool whose own name it is.
// A qualified name means its entry or nothing: it is never split and
// looked for again, since server a's tool b__x is a__b__x, not b__x. A name
// whose entry is hidden means nothing either, rather than some other tool.
func (s *Snapshot) Resolve(name string) Resolution {
	r := Resolution{Sources: s.namespaceSources(name)}
	e, ok := s.Lookup(name)
	switch {
	case ok && e.Listed():
		r.Entry = e
		return r
	case ok: // hidden: its name is its own, and no other tool's
		return r
	}
	if vs := listedTools(s.CaseVariants(name)); len(vs) > 1 {
		r.CaseVariants = vs
		return r
	}
	if IsQualified(name) {
		return r
	}
	// Names are case-sensitive: an own name written exactly beats those
	// that match only when case is ignored.
	var exact, folded []*Entry
	for _, e := range s.Entries {
		if e.Upstream == "" || !e.Listed() || e.Kind != KindTool || !strings.EqualFold(e.Upstream, name) {
			continue
		}
		if e.Upstream == name {
			exact = append(exact, e)
		} else {
			folded = append(folded, e)
		}
	}
	if len(exact) == 0 {
		exact = folded
	}
	switch len(exact) {
	case 0:
	case 1:
		r.Entry = exact[0]
	default:
		r.SameOwnName = exact
	}
	return r
}

// namespaceSources returns the sources whose namespace name carries.
func (s *Snapshot) namespaceSources(name string) []*Source {
	var out []*Source
	for _, ns := range Namespaces(name, func(ns string) bool { _, ok := s.bySource[ns]; return ok }) {
		out = append(out, s.bySource[ns])
	}
	return out
}

// listedTools returns the listed tools of es.
func listedTools(es []*Entry) []*Entry {
	var out []*Entry
	for _, e := range es {
		if e.Listed() && e.Kind == KindTool {
			out = append(out, e)
		}
	}
	return out
}
