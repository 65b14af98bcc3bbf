package catalog

import "strings"

// Names. A namespace's tool (an upstream server's, a tools file's) is
// exposed as NAMESPACE__OWN, github__create_issue. Both halves may hold
// the separator themselves (server a's tool b__x and server a__b's tool x
// are both a__b__x, and the catalog keeps one of them), so an exposed name
// is never split to find its server or its tool: the entry carries both
// (Source, Own). A name is made here, resolved to a listed entry by
// Snapshot.Resolve, and read back only by Namespaces, for a name that no
// entry has yet.

// NameSeparator joins a namespace (an upstream server, a tools file) and a
// tool's own name into the exposed name, as in github__create_issue.
const NameSeparator = "__"

// QualifiedName is the name a tool (or prompt) own of the namespace is
// exposed under; own itself when there is no namespace.
func QualifiedName(namespace, own string) string {
	if namespace == "" {
		return own
	}
	return namespace + NameSeparator + own
}

// Own returns the entry's name at its source: an upstream tool's or
// prompt's own name, which its server is called with.
func (e *Entry) Own() string {
	if e.Upstream != "" {
		return e.Upstream
	}
	return e.Name
}

// Namespaces returns every namespace, among those known reports, that name
// could be a tool of: each prefix before a separator, the longest first. A
// name that no entry has yet (a server still connecting, or one that failed
// before it listed) may belong to any of them, and to no other.
func Namespaces(name string, known func(namespace string) bool) []string {
	var out []string
	for end := len(name) - len(NameSeparator) - 1; end > 0; end-- {
		if strings.HasPrefix(name[end:], NameSeparator) && known(name[:end]) {
			out = append(out, name[:end])
		}
	}
	return out
}

// IsQualified reports whether name has the form of an exposed name of a
// namespace's tool. Such a name means its entry or nothing: it is not
// looked for again as some tool's own name.
func IsQualified(name string) bool { return strings.Contains(name, NameSeparator) }
