package atomicfile

import "strings"

// NamePart keeps a name somebody chose (a server's, in the token files and
// the last known catalogs) usable as part of a file name on every system:
// each character outside [A-Za-z0-9._-] becomes '_'. What remains holds
// nothing a glob pattern reads as special, nor a path separator. Names
// that differ only in what it replaces come out the same, so a file's name
// adds a digest of the whole name.
func NamePart(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
}
