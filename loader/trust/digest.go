package trust

import (
	"fmt"
	"strings"
)

// MinDigestPrefix is the fewest hex digits of a digest that name the
// definition a person reviewed, where a person types them (the CLI's
// NAME@DIGEST): 64 bits. With fewer, a server that learns the prefix
// shown could grind a second definition that starts the same and have it
// approved unseen (48 bits is within a day's reach of a GPU).
const MinDigestPrefix = 16

// MatchDigest reports whether given, a digest or a prefix of one a person
// typed, names the definition digest: at least MinDigestPrefix hex
// digits, in any case. A shorter prefix is an error, not a mismatch.
func MatchDigest(digest, given string) (bool, error) {
	if len(given) < MinDigestPrefix && len(given) < len(digest) {
		return false, fmt.Errorf("@%s is too short to name the definition reviewed: give at least %d hex digits of its digest (toolsearch review shows them)", given, MinDigestPrefix)
	}
	return strings.HasPrefix(digest, strings.ToLower(given)), nil
}
